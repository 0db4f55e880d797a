import torch
import torch.nn as nn, os.path
from torch.utils.checkpoint import checkpoint as ckpt, checkpoint_sequential
from a import (b,
    c as d,)
from m import *


@torch.no_grad()
@staticmethod
def f(a, b: int = 1, /, c=2, *args: int, d, e=3, **kw) -> "T":
    global g
    return a


def kwonly(*, a, b=2):
    pass


class Net(nn.Module, metaclass=Meta):
    x: int = 3
    y: list

    def forward(self, x):
        nonlocal_ok = 1
        return self.fc(x)


if a:
    pass
elif b:
    x = 1
else:
    y = 2
for i, (j, *k) in enumerate(z):
    if i:
        break
    continue
else:
    pass
while n > 0:
    n -= 1
with a as b, c:
    pass
with (open(p) as f, open(q) as g,):
    pass
try:
    pass
except (A, B) as e:
    raise C("x") from e
except D:
    raise
except:
    pass
else:
    pass
finally:
    del a, b.c, d[0]
assert x, "message"
a = b = c = 0
a.b[c] += 1
x, *y = z
[p, q] = r
t: tuple[int, ...] = ()
