# Statements spanning several lines (CPython 3.12 only: file name *_312.py).
# Each instruction has the line of the node emitting it; an event fires when
# the line changes: elements/arguments on their own lines, then the build or
# call back at the node's line, the store at the target's line; a method
# call at its attribute's line; with exits at the with line (one event);
# inlined comprehensions, genexps, lambdas, defaults, decorators, bases.
x = [
    1,
    2,
]
---
x = [
    1,
    2,
    3,
]
---
def f(*a, **k):
    return 0
m = f(
    f(1),
    f(2),
).bit_length()
y = 1
---
def f(*a, **k):
    return 0
print(
    f(1))
---
class A:
    def m(self, *a):
        return self
a = A()
r = (a
     .m(1)
     .m(2))
---
class C:
    def __enter__(self): return self
    def __exit__(self, *a): pass
with C() as f, C() as g:
    y = 1
z = 2
---
class C:
    def __enter__(self): return self
    def __exit__(self, *a): pass
with C() as f: pass
z = 2
---
for name, fn in [("a", lambda: 1),
                 ("b", lambda: 2)]:
    v = fn()
z = 3
---
d = {
    'a': 1,
    'b': 2,
}
---
d = {
    'a': len('x'),
    'b': len('y'),
}
---
t = (1,
     2)
u = (len('a'),
     2)
---
a = 1
b = (a and
     a)
c = (0 and
     a)
---
def f(x):
    return (x +
            1)
f(1)
---
x = 1
if (x and
        x):
    y = 1
---
x = [i
     for i in range(2)]
---
x = [i for i in
     range(2)]
---
from math import (
    pi,
    e,
)
---
import math
x = math.pow(2,
                 3)
---
i = 0
while (i <
       3):
    i += 1
z = 1
---
i = 0
while i < 3:
    i += 1
z = 1
---
def f(
    a=1,
    b=len('x'),
):
    return a
f()
---
class B:
    pass
class A(
    B,
):
    x = 1
---
def d(f):
    return f
@d
def g(a=[
        1]):
    pass
---
x = [1, 2, 3]
x[
  0] = 5
y = x[
  1]
---
x = [1, 2, 3]
del x[
  0]
---
class O: pass
o = O()
o.a = (1 +
  len('a'))
---
a, b = (len('ab'),
        2)
---
x = 1
x += (1 +
      len('a'))
---
y = [p for p in range(3)
     if p > 0]
---
y = [p
     for p in range(3)
     if p > 0]
---
y = {k: len(k)
     for k in 'ab'}
---
y = [(a, b) for a in range(2)
     for b in range(2)]
---
assert (1 ==
        1)
---
x = (1 if len('a')
     else 2)
---
def f(x):
    return x
x = f(1) + \
    f(2)
---
s = f"{1}" \
    f"{len('ab')}"
---
f = (lambda a:
     a + 1)
f(1)
---
x = 1 < (len('a')
         ) < 3
---
if (len('a')
    == 1):
    pass
---
import math
for i in (
        range(2)):
    pass
---
def f():
    return len('a')
x = {
    "a": f(),
    **{"b": 1},
}
---
def f(*a, **k): pass
f(*[1,
    2], **{'a':
           1})
---
x = [1, 2, 3]
y = x[1:
      2]
z = x[
  :2]
---
class C:
    def __enter__(self): return self
    def __exit__(self, *a): return True
with C(): raise ValueError
z = 1
---
class C:
    def __enter__(self): return self
    def __exit__(self, *a): return True
with C():
    raise ValueError
z = 1
---
def d(f):
    return f
@d
class A:
    x = 1
y = 2
---
def d(f):
    return f
@d
@d
def g():
    pass
---
def d(*a):
    return lambda f: f
@d(1,
   2)
def g():
    pass
---
def f(x): return x
g = sum(p
   for p in range(3))
---
g = sum(p for p in range(3)
  if p)
---
x = [p for p in range(4)
     if p
     if p > 1]
---
def f(x):
    return x
r = [f(p)
     for p in range(2)]
---
y = {p
     for p in range(2)}
---
def f(a,
      b=(1,
         2)):
    return a
f(1)
---
def f(*, a=len(
          'x')):
    return a
f()
---
x = 1 if (0 or
          0) else 2
---
x = 0
while not (x >
           2):
    x += 1
---
class C:
    pass
c = C()
c.a = 1
c.a += (1 +
        2)
c.a += (len('a') +
        2)
---
x = [1, 2]
x[0] += (len('a') +
         2)
---
# A node that starts with a parenthesized operand starts at its '('.
def f(a):
    return a
q = (
    1 + 2 +
    3) / 1
r = (f
     )(2)
s = (f(1)
     + 2)
class C:
    real = 1
t = (C
     ).real
