# Object lifetimes: __del__ must run exactly when CPython runs it.
class D:
    def __init__(self, name):
        self.name = name
    def __del__(self):
        print("del", self.name)
x = D("a")
x = D("b")
print("end")
#: del a
#: end
#: <gc at exit>
#: del b
---
class D:
    def __init__(self, name):
        self.name = name
    def __del__(self):
        print("del", self.name)
a = D("a")
b = D("b")
c = D("c")
del b, a
print("after del")
#: del b
#: del a
#: after del
#: <gc at exit>
#: del c
---
class D:
    def __init__(self, name):
        self.name = name
    def __del__(self):
        print("del", self.name)
    def __add__(self, o):
        return D(self.name + "+" + o.name)
a, b, c = D("a"), D("b"), D("c")
r = a + b + c
print("r is", r.name)
del r
print("--")
#: del a+b
#: r is a+b+c
#: del a+b+c
#: --
#: <gc at exit>
#: del a
#: del b
#: del c
---
class D:
    def __init__(self, name):
        self.name = name
    def __del__(self):
        print("del", self.name)
def f():
    p = D("param-local")
    q = D("second")
    print("in f")
f()
print("after f")
#: in f
#: del param-local
#: del second
#: after f
---
class D:
    def __init__(self, name):
        self.name = name
    def __del__(self):
        print("del", self.name)
def f(a, b):
    c = D("c")
    print("f body")
f(D("a"), D("b"))
print("after")
#: f body
#: del a
#: del b
#: del c
#: after
---
class D:
    def __init__(self, name):
        self.name = name
    def __del__(self):
        print("del", self.name)
l = [D("0"), D("1"), D("2")]
del l
t = (D("t0"), D("t1"))
del t
print("--")
#: del 2
#: del 1
#: del 0
#: del t1
#: del t0
#: --
---
class D:
    def __init__(self, name):
        self.name = name
    def __del__(self):
        print("del", self.name)
d = {"k1": D("v1"), "k2": D("v2")}
d["k1"] = D("v1b")
print("replaced")
d.pop("k2")
print("popped")
del d
print("--")
#: del v1
#: replaced
#: del v2
#: popped
#: del v1b
#: --
---
class D:
    def __init__(self, name):
        self.name = name
    def __del__(self):
        print("del", self.name)
l = [D("a"), D("b"), D("c")]
l.pop(0)
print("p")
l.clear()
print("c")
#: del a
#: p
#: del c
#: del b
#: c
---
class D:
    def __init__(self, name):
        self.name = name
    def __del__(self):
        print("del", self.name)
    def m(self):
        return D(self.name + ".m")
x = D("x").m()
print("got", x.name)
#: del x
#: got x.m
#: <gc at exit>
#: del x.m
---
class D:
    def __init__(self, name):
        self.name = name
    def __del__(self):
        print("del", self.name)
for i in range(3):
    v = D(str(i))
print("loop done", v.name)
#: del 0
#: del 1
#: loop done 2
#: <gc at exit>
#: del 2
---
class D:
    def __init__(self, name):
        self.name = name
    def __del__(self):
        print("del", self.name)
def boom():
    inner = D("inner")
    raise ValueError("x")
try:
    boom()
except ValueError as e:
    print("handling")
print("after handler")
#: handling
#: del inner
#: after handler
---
class D:
    def __init__(self, name):
        self.name = name
    def __del__(self):
        print("del", self.name)
def boom():
    inner = D("inner")
    raise ValueError("x")
try:
    boom()
except ValueError:
    print("handling bare")
print("after")
#: handling bare
#: del inner
#: after
---
import gc
class D:
    def __init__(self, name):
        self.name = name
    def __del__(self):
        print("del", self.name)
a = D("a")
b = D("b")
a.other = b
b.other = a
del a, b
print("before collect")
n = gc.collect()
print("collected", n >= 2)
#: before collect
#: del a
#: del b
#: collected True
---
class D:
    def __init__(self, name):
        self.name = name
    def __del__(self):
        print("del", self.name)
def make():
    d = D("closure")
    def get():
        return d.name
    return get
g = make()
print(g())
del g
print("--")
#: closure
#: del closure
#: --
---
class D:
    def __init__(self, name):
        self.name = name
    def __del__(self):
        print("del", self.name)
def f(x=D("default")):
    return x.name
print(f())
del f
print("--")
#: default
#: del default
#: --
---
class D:
    def __init__(self, name):
        self.name = name
    def __del__(self):
        print("del", self.name)
class Holder:
    attr = D("classattr")
print("defined")
Holder.attr = None
print("--")
#: defined
#: del classattr
#: --
---
class D:
    def __init__(self, name):
        self.name = name
    def __del__(self):
        print("del", self.name)
names = [D(str(i)).name for i in range(3)]
print(names)
#: del 0
#: del 1
#: del 2
#: ['0', '1', '2']
---
class D:
    def __init__(self, name):
        self.name = name
    def __del__(self):
        print("del", self.name)
o = D("o")
o.child = D("child")
o.other = D("other")
del o
print("--")
#: del o
#: del child
#: del other
#: --
---
class D:
    def __init__(self, name):
        self.name = name
    def __del__(self):
        print("del", self.name)
def pair():
    return D("p0"), D("p1")
a, b = pair()
print("unpacked")
a = None
print("a gone")
#: unpacked
#: del p0
#: a gone
#: <gc at exit>
#: del p1
---
class D:
    def __init__(self, name):
        self.name = name
    def __del__(self):
        print("del", self.name)
print(f"{D('fpart').name}!")
print("after")
#: del fpart
#: fpart!
#: after
---
class D:
    def __init__(self, name):
        self.name = name
    def __del__(self):
        print("del", self.name)
    def __enter__(self):
        print("enter")
        return self
    def __exit__(self, *a):
        print("exit")
with D("ctx") as c:
    print("body")
del c
print("--")
#: enter
#: body
#: exit
#: del ctx
#: --
---
class D:
    def __init__(self, name):
        self.name = name
    def __del__(self):
        print("del", self.name)
x = D("first")
y = x
x = D("second")
print("y still holds first")
y = 0
print("--")
#: y still holds first
#: del first
#: --
#: <gc at exit>
#: del second
---
class D:
    def __init__(self, name):
        self.name = name
    def __del__(self):
        print("del", self.name)
s = sum(len(D(str(i)).name) for i in range(3))
print(s)
#: del 0
#: del 1
#: del 2
#: 3
---
import sys
class C:
    pass
c = C()
print(sys.getrefcount(c))
l = [c, c]
print(sys.getrefcount(c))
#: 2
#: 4
---
class D:
    def __init__(self, name):
        self.name = name
    def __del__(self):
        print("del", self.name)
def rec(n):
    d = D("level%d" % n)
    if n == 0:
        raise RuntimeError("bottom")
    rec(n - 1)
try:
    rec(2)
except RuntimeError as e:
    print("caught", e)
print("done")
#: caught bottom
#: del level0
#: del level1
#: del level2
#: done
---
class D:
    def __init__(self, name):
        self.name = name
    def __del__(self):
        print("del", self.name)
g = D("global1")
h = D("global2")
print("end of script")
#: end of script
#: <gc at exit>
#: del global1
#: del global2
---
# A nested function's parameter named like an enclosing local does not make
# that local a cell: the local dies with the enclosing frame.
class T:
    def __del__(self):
        print("del")
keep = []
def outer(x):
    def inner(x):
        return x
    keep.append(inner)
    x = T()
outer(2)
print("after")
#: del
#: after
---
# an instance's __dict__ outlives the instance while someone holds it
class Held:
    def __init__(self):
        self.a = 1
        self.b = [2]
    def __del__(self):
        print("del Held")
d = vars(Held())
print(d)
e = Held().__dict__
e["c"] = 3
print(sorted(e))
del d, e
print("end")
#: del Held
#: {'a': 1, 'b': [2]}
#: del Held
#: ['a', 'b', 'c']
#: end
