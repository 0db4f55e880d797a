# GELU in both forms (erf and approximate='tanh'), forward and backward,
# float32 and bfloat16, and the error for an unknown approximation.
import torch
import torch.nn as nn
import torch.nn.functional as F


def t(n, shape, a=0.37, b=1.1):
    return torch.tanh(torch.arange(n, dtype=torch.float32, device="cuda") * a - b).view(shape) * 3


x = t(24, (4, 6)).requires_grad_()
for approx in ("none", "tanh"):
    y = F.gelu(x, approximate=approx)
    print(y)
    (y * t(24, (4, 6), 0.11, 0.5)).sum().backward()
    print(x.grad)
    x.grad = None
m = nn.GELU(approximate="tanh")
print(m, m(x.detach().bfloat16()))
try:
    F.gelu(x, approximate="fast")
except RuntimeError as e:
    print(e)
