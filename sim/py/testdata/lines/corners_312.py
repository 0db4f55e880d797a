# Displays built incrementally (*x, more than 30 elements, ** first), f-string
# fields on several lines, one-line while loops, calls with *args/**kwargs.
def f(x=0):
    return x
d = {
    **{"a": 1},
    "b": f(2),
}
---
def f(x=0):
    return x
x = [
    *[1, 2],
    f(3),
    4,
]
---
def f(x=0):
    return x
x = (
    f(1),
    *[2],
    f(3),
)
---
def f(x=0):
    return x
x = {
    f(1),
    *[2],
    f(3),
}
---
def f(x=0):
    return x
name = "n"
s = (f"{name}"
     f"{f(1)}"
     f"{name!r:>10}")
---
def f(x=0):
    return x
s = f"""{
f(1)
}x{
name}"""
---
def g():
    return (
        1
    )
g()
---
def g():
    return (
        "abc"
    )
g()
---
def f(x=0):
    return x
a = b = (f(1),
         f(2))
---
def f(x=0):
    return x
a = b = c = f(1)
---
def f(x=0):
    return x
x: int = (f(1) +
          f(2))
---
def f(x=0):
    return x
y: "list[int]"
z: list = [
    f(1),
]
---
def f(x=0):
    return x
n = 0
while f(n) < 2:
    n += 1
---
def f(x=0):
    return x
n = 0
while n < 2 and f(n) >= 0: n += 1
---
def f(x=0):
    return x
x = [
    f(0),
    f(1),
    f(2),
    f(3),
    f(4),
    f(5),
    f(6),
    f(7),
    f(8),
    f(9),
    f(10),
    f(11),
    f(12),
    f(13),
    f(14),
    f(15),
    f(16),
    f(17),
    f(18),
    f(19),
    f(20),
    f(21),
    f(22),
    f(23),
    f(24),
    f(25),
    f(26),
    f(27),
    f(28),
    f(29),
    f(30),
    f(31),
    f(32),
    f(33),
    f(34),
]
---
def f(x=0):
    return x
x = {
    0: f(0),
    1: f(1),
    2: f(2),
    3: f(3),
    4: f(4),
    5: f(5),
    6: f(6),
    7: f(7),
    8: f(8),
    9: f(9),
    10: f(10),
    11: f(11),
    12: f(12),
    13: f(13),
    14: f(14),
    15: f(15),
    16: f(16),
    17: f(17),
    18: f(18),
    19: f(19),
    20: f(20),
    21: f(21),
    22: f(22),
    23: f(23),
    24: f(24),
    25: f(25),
    26: f(26),
    27: f(27),
    28: f(28),
    29: f(29),
    30: f(30),
    31: f(31),
    32: f(32),
    33: f(33),
    34: f(34),
}
---
def f(x=0):
    return x
x = (
    f(0),
    f(1),
    f(2),
    f(3),
    f(4),
    f(5),
    f(6),
    f(7),
    f(8),
    f(9),
    f(10),
    f(11),
    f(12),
    f(13),
    f(14),
    f(15),
    f(16),
    f(17),
    f(18),
    f(19),
    f(20),
    f(21),
    f(22),
    f(23),
    f(24),
    f(25),
    f(26),
    f(27),
    f(28),
    f(29),
    f(30),
    f(31),
    f(32),
)
---
def f(x=0):
    return x
n = 0
while n < 2 and f(n) >= 0: n += 1
---
def f(x=0):
    return x
n = 0
while f(n) < 3: n += 1
print(n)
---
def f(x=0):
    return x
n = 0
while f(n) < 3: n += 1; f(n)
---
def f(x=0):
    return x
n = 0
while f(n) < 3:
    n += 1
---
def f(x=0):
    return x
n = 0
while f(n) < 4:
    n += 1
    if n == 2: continue
    f(0)
---
n = 0
while n < 3: n += 1
else: n = 10
---
def f(x=0):
    return x
n = 0
while True:
    n += 1
    if f(n) > 2: break
---
def g():
    return (
        None
    )
g()
---
def g():
    x = 1
    return (
        -1
    )
g()
---
def g():
    return \
        2
g()
---
def f(x=0):
    return x
a = b = [
    f(1),
]
---
def f(x=0):
    return x
a = \
    b = f(1)
---
def f(x=0):
    return x
class C:
    pass
c = C()
c.x = c.y = (
    f(1))
---
def f(x=0):
    return x
x: int = (
    f(1))
---
def f(x=0):
    return x
d = {**{"a": f(1)},
     **{"b": 2}}
---
def f(x=0):
    return x
x = f(
    *[1],
    **{})
---
def f(*a, **k):
    return a
x = f(1,
      *[2, 3],
      4)
---
def f(*a, **k):
    return a
x = f(
    k=1,
    **{"j": f(2)},
    m=f(3))
---
def f(x=0):
    return x
name = "n"
s = f"""{
f(1)
}x{
name}"""
---
def f(x=0):
    return x
s = (f"{f(1)}"
     "lit"
     f"{f(2)}")
---
def f(x=0):
    return x
s = f"""
{f(1)}"""
---
def f(x=0):
    return x
s = (f"a{f(1)}"
     f"{f(2)}b")
---
# (was a known gap) a format spec holding a field on another line: 3.12
# ends the spec with an empty constant at the field's '}'
def f(x=0):
    return x
name = "n"
s = f"""a
{f(1)!r:>{f(
10)}} b
{name=} c"""
---
class R:
    def __repr__(self):
        print("repr")
        return "R"
    def __format__(self, spec):
        print("format", spec)
        return "F"
def w():
    print("w")
    return 3
def f(x=0):
    return x
print(f"{R()!r:>{w()}}")
print(f"{R():{w()}}")
s = f"""{f(1):{
2}{3}x{
f(4)
}}"""
s = f"""{f(1):{f(
2)}}"""
s = f"""{f(1):{f(2)
}}"""
---
class D:
    def __init__(self, name):
        self.name = name
    def __del__(self):
        print("del", self.name)
def f(*a, **k):
    print("f")
def g(x):
    print("g", x)
    return x
def boom():
    raise ValueError("x")
try:
    f(k=D("k"), *[D("s1")], j=boom())
except ValueError:
    print("caught")
try:
    f(k=D("k2"), *[D("s2")], **{"a": D("dd")}, j=boom())
except ValueError:
    print("caught")
try:
    f(k=D("k3"), *5)
except TypeError as e:
    print(e)
f(
  k=g(1),
  *g(
  [2]),
  j=g(3),
)
f(k=g(1),
  *5)
---
class D:
    def __init__(self, name):
        self.name = name
    def __del__(self):
        print("del", self.name)
    def __call__(self, *a, **k):
        print("call", len(a), len(k))
def f(*a, **k):
    print("f", len(a), len(k))
def g(x):
    return x
def boom():
    raise ValueError("x")
class O:
    def m(self, *a, **k):
        print("m", len(a), len(k))
o = O()
f(
  g(0),
  g(1),
  g(2),
  g(3),
  g(4),
  g(5),
  g(6),
  g(7),
  g(8),
  g(9),
  g(10),
  g(11),
  g(12),
  g(13),
  g(14),
  g(15),
  g(16),
  g(17),
  g(18),
  g(19),
  g(20),
  g(21),
  g(22),
  g(23),
  g(24),
  g(25),
  g(26),
  g(27),
  g(28),
  g(29),
  g(30),
)
---
class D:
    def __init__(self, name):
        self.name = name
    def __del__(self):
        print("del", self.name)
    def __call__(self, *a, **k):
        print("call", len(a), len(k))
def f(*a, **k):
    print("f", len(a), len(k))
def g(x):
    return x
def boom():
    raise ValueError("x")
class O:
    def m(self, *a, **k):
        print("m", len(a), len(k))
o = O()
f(
  g(1), g(2),
  g(3),
  k0=g(0),
  k1=g(1),
  k2=g(2),
  k3=g(3),
  k4=g(4),
  k5=g(5),
  k6=g(6),
  k7=g(7),
  k8=g(8),
  k9=g(9),
  k10=g(10),
  k11=g(11),
  k12=g(12),
  k13=g(13),
)
---
class D:
    def __init__(self, name):
        self.name = name
    def __del__(self):
        print("del", self.name)
    def __call__(self, *a, **k):
        print("call", len(a), len(k))
def f(*a, **k):
    print("f", len(a), len(k))
def g(x):
    return x
def boom():
    raise ValueError("x")
class O:
    def m(self, *a, **k):
        print("m", len(a), len(k))
o = O()
f(
  1, 2,
  3,
  k0=g(0),
  k1=g(1),
  k2=g(2),
  k3=g(3),
  k4=g(4),
  k5=g(5),
  k6=g(6),
  k7=g(7),
  k8=g(8),
  k9=g(9),
  k10=g(10),
  k11=g(11),
  k12=g(12),
  k13=g(13),
)
---
class D:
    def __init__(self, name):
        self.name = name
    def __del__(self):
        print("del", self.name)
    def __call__(self, *a, **k):
        print("call", len(a), len(k))
def f(*a, **k):
    print("f", len(a), len(k))
def g(x):
    return x
def boom():
    raise ValueError("x")
class O:
    def m(self, *a, **k):
        print("m", len(a), len(k))
o = O()
f(
  1, 2,
  3,
  k0=0,
  k1=1,
  k2=2,
  k3=3,
  k4=4,
  k5=5,
  k6=6,
  k7=7,
  k8=8,
  k9=9,
  k10=10,
  k11=11,
  k12=12,
  k13=13,
)
---
class D:
    def __init__(self, name):
        self.name = name
    def __del__(self):
        print("del", self.name)
    def __call__(self, *a, **k):
        print("call", len(a), len(k))
def f(*a, **k):
    print("f", len(a), len(k))
def g(x):
    return x
def boom():
    raise ValueError("x")
class O:
    def m(self, *a, **k):
        print("m", len(a), len(k))
o = O()
try:
  D('c')(D('p'), **{'q': D('q')},
  k0=D('k0'),
  k1=D('k1'),
  k2=D('k2'),
  k3=D('k3'),
  k4=D('k4'),
  k5=D('k5'),
  k6=D('k6'),
  k7=D('k7'),
  k8=D('k8'),
  k9=D('k9'),
  k10=D('k10'),
  k11=D('k11'),
  k12=D('k12'),
  k13=D('k13'),
  k14=D('k14'),
  k15=D('k15'),
  z=boom())
except ValueError: print('caught')
---
import math
from math import floor as fl
class O:
    def m(self, *a, **k):
        return len(a)
def g(x):
    return x
o = O()
x = (math
  .floor(g(
   1.5)))
y = (o
  .m(g(1),
   g(2)))
y = (o
  .m(*[g(1)]))
y = (o
  .m(
  g(0),
  g(1),
  g(2),
  g(3),
  g(4),
  g(5),
  g(6),
  g(7),
  g(8),
  g(9),
  g(10),
  g(11),
  g(12),
  g(13),
  g(14),
  g(15),
  g(16),
  g(17),
  g(18),
  g(19),
  g(20),
  g(21),
  g(22),
  g(23),
  g(24),
  g(25),
  g(26),
  g(27),
  g(28),
  g(29),
  ))
def h():
    return (math
      .floor(g(
       2.5)))
h()
---
def g(x):
    return x
def f(*a, **k):
    return 1
y = (f
  (*[g(1)]))
y = (f
  (*[g(1)], **{"a":
  g(2)}))
---
def f(x=0):
    return x
k = 0
while k < 4: k += 1; f(k) if k > 2 else None; continue
---
def f(x=0):
    return x
n = 0
while n < 3: n += 1; f() if n > 1 else None
---
def f(x=0):
    return x
n = 0
while n < 5: n += 1; continue
m = 0
while f(m) < 3:
    m += 1
    if m == 1: continue
    f(9)
k = 0
while k < 4: k += 1; f(k) if k > 2 else None; continue
for i in range(3): continue
j = 0
while j < 3:
    j += 1
    continue
else: f(7)
---
def f(x=0):
    return x
def g(c):
    f() and f(1); x = 1
    f(1) or f(); x = 2
    1 < f(2) < 3; x = 3
    f(0) if c else f(1)
    x = 4
g(1)
---
def f(x=0):
    return x
i = 0
while i < 3:
    i += 1
    f(i) if i else None
x = 1
while i < 6: i += 1; f(i) and f(0)
while i < 9:
    i += 1
    if i == 7: continue
    f() if i else None
---
def f(x=0):
    return x
class CM:
    def __enter__(self): return self
    def __exit__(self, *a): return False
try: f(1) if f(0) else f(2)
except: pass
with CM() as fh: f() if fh else None
with CM() as fh: f() and f(1)
try: f() and f(1)
finally: pass
class C: f() if f(1) else None
n = [f(i) if i else 0 for i in range(3)]
for i in range(2): f(i) and f(1); f(3)
if f(1): f(1) if f(0) else None; f()
---
class A:
    def b(self, x=0):
        return x
a = A()
(a
 .b(1))
(a
 .b)
x = 1
(a
 .b(1)); x = 2
---
def f(x=0):
    return x
n = 0
while (n <
       3): n += 1; continue
while (n <
       6): n += 1; f(n)
while n < 9: n += 1; f(n); continue
else: f(7)
while n < 12: n += 1; f(n) if n > 10 else None; continue
while n < 15:
    n += 1; f(n) if n > 13 else None; continue
while n < 18: n += 1; f() if n > 16 else n; break
for i in range(3): f() if i else None; continue
for i in range(3):
    f() if i else None
    continue
---
class X:
    def __bool__(self):
        print("bool")
        return False
if X() and 1: pass
y = 1 if (X() or X()) else 2
while not X() and X(): pass
assert X() or not X()
z = [1 for i in range(1) if X() or X()]
if (X() if X() else X()): pass
---
def f(x=0):
    return x
if (f(1) if
    f(0) else
    f(2)):
    pass
while (not
       f(0) and f(1) or
       f(
       2) > 3):
    break
x = [i for i in range(3) if (f(i)
     if i else f(1))]
assert (f(1) if f(0)
        else f(2))
y = (1 if
     f(0) else 2)
if (f(0) or
    not f(0)): pass
