# annotations: parameters and return at def time, module/class ones into __annotations__
def f(x=0):
    return x
def h(a: "int" = f(
        1), b: int = 2) -> (
        int):
    return a
h()
---
def f(x=0):
    return x
class K:
    a: int = (
        f(1))
    b: (
        int)
---
def f(x=0):
    print("f", x)
    return x
def h(a: "int" = f(
        1), b: int = 2, *c: f(3), d: f(4)=5, **e: f(6)) -> (
        int):
    return a
print(h.__annotations__)
def g(p, /, q: f(7), r: f(8)): pass
print(g.__annotations__)
def k(): pass
print(k.__annotations__, k.__annotations__ is k.__annotations__)
k.__annotations__ = None
print(k.__annotations__)
class K:
    a: int = (
        f(1))
    b: (
        int)
    print(__annotations__)
    if True:
        c: f(9)
    K.x: f(10)
print(K.__annotations__)
x: int
y: float = 3
print(__annotations__)
def loc():
    z: undefined_name = 3
    q: undefined2
    return z
print(loc())
try:
    w: undefined3
except NameError as e:
    print(e)
print(__annotations__)
---
def f(x=0):
    print("f", x)
    return x
def a(p=1,
      q=2): pass
def b(p=1, *, q=(
      3), r: f(
      4)): pass
print(a.__defaults__, b.__annotations__)
def c(p: int, q: str = "x", /, r: float = f(2), *a: f(3), k: f(4) = f(5), **kw: dict) -> f(6):
    pass
print(c.__annotations__)
lam = lambda x=f(
  1): x
class D:
    __annotations__ = {"pre": 1}
    z: int
    del __annotations__
    try:
        y: int = 3
    except NameError as e:
        print("NE", e)
    print(y)
__annotations__ = 5
try:
    m: int = 1
except TypeError as e:
    print("TE", e)
def g():
    class O: pass
    o = O()
    o.x: f(7) = 3
    o.y: f(8)
    d = {}
    d[f(9)]: f(10)
    d[f(11):f(12), f(13)]: int
    (p): int = 4
    return o.x, p
print(g())
o = D
D.q: f(14)
d = [1,2]
d[f(0)]: f(15) = 7
(zz): f(16) = 3
print(d, zz)
print(__annotations__)
