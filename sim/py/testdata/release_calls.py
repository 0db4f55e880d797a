# Release order of call operands (CPython 3.12 CALL / CALL_FUNCTION_EX): the
# callable of a non-Python call is released before its arguments.
class D:
    def __init__(self, name):
        self.name = name
    def __del__(self):
        print("del", self.name)
    def m(self, *a, **k):
        print("m", self.name)
    def __call__(self, *a, **k):
        print("call", self.name)

D("callee")(D("arg"))
print("end")
#: call callee
#: del callee
#: del arg
#: end
---
class D:
    def __init__(self, name):
        self.name = name
    def __del__(self):
        print("del", self.name)
    def m(self, *a, **k):
        print("m", self.name)
    def __call__(self, *a, **k):
        print("call", self.name)

D("self").m(D("arg"))
print("end")
#: m self
#: del self
#: del arg
#: end
---
class D:
    def __init__(self, name):
        self.name = name
    def __del__(self):
        print("del", self.name)
    def m(self, *a, **k):
        print("m", self.name)
    def __call__(self, *a, **k):
        print("call", self.name)

def f(*a, **k):
    print("f")
f(D("a"), D("b"), k=D("k"))
f(*[D("s1"), D("s2")])
f(D("p"), *[D("s1"), D("s2")], x=D("x"), **{"y": D("y")})
print("end")
#: f
#: del b
#: del a
#: del k
#: f
#: del s2
#: del s1
#: f
#: del s2
#: del s1
#: del p
#: del x
#: del y
#: end
---
class D:
    def __init__(self, name):
        self.name = name
    def __del__(self):
        print("del", self.name)
    def m(self, *a, **k):
        print("m", self.name)
    def __call__(self, *a, **k):
        print("call", self.name)

class L(list):
    pass
x = []
x.append(D("arg"))
[].append(D("arg2"))
print(len([D("a"), D("b")]))
print(isinstance(D("i"), D))
print("end")
#: del arg2
#: del b
#: del a
#: 2
#: del i
#: True
#: end
#: <gc at exit>
#: del arg
---
class D:
    def __init__(self, name):
        self.name = name
    def __del__(self):
        print("del", self.name)
    def m(self, *a, **k):
        print("m", self.name)
    def __call__(self, *a, **k):
        print("call", self.name)

D("c")(D("a"), k=D("k"))
D("c")(*[D("s1")], **{"y": D("y")})
D("self").m(*[D("s1")], **{"y": D("y")})
print("end")
#: call c
#: del c
#: del a
#: del k
#: call c
#: del c
#: del s1
#: del y
#: m self
#: del self
#: del s1
#: del y
#: end
---
class D:
    def __init__(self, name):
        self.name = name
    def __del__(self):
        print("del", self.name)
    def m(self, *a, **k):
        print("m", self.name)
    def __call__(self, *a, **k):
        print("call", self.name)

def mk(name):
    o = D(name)
    def g(x):
        print("g", o.name)
    return g
mk("cell")(D("arg"))
print("end")
#: g cell
#: del arg
#: del cell
#: end
---
class D:
    def __init__(self, name):
        self.name = name
    def __del__(self):
        print("del", self.name)
    def m(self, *a, **k):
        print("m", self.name)
    def __call__(self, *a, **k):
        print("call", self.name)

class E:
    def __init__(self, name):
        self.name = name
    def __del__(self):
        print("del", self.name)
    def __call__(self, x):
        print("call", self.name)
E("callee")(D("arg"))
getattr(D("obj"), "m")(D("arg"))
m = D("b").m
m(D("arg2"))
del m
print("end")
#: call callee
#: del callee
#: del arg
#: m obj
#: del obj
#: del arg
#: m b
#: del arg2
#: del b
#: end
---
class D:
    def __init__(self, name):
        self.name = name
    def __del__(self):
        print("del", self.name)
    def m(self, *a, **k):
        print("m", self.name)
    def __call__(self, *a, **k):
        print("call", self.name)

import math
print(max(D("a").name, D("b").name))
print(sorted([D("x"), D("y")], key=lambda d: d.name)[0].name)
print("end")
#: del a
#: del b
#: b
#: del y
#: del x
#: x
#: end
---
class D:
    def __init__(self, name):
        self.name = name
    def __del__(self):
        print("del", self.name)
    def m(self, a, b=None):
        print("m", self.name)
def mk(name):
    o = D(name)
    def g(a, b=None):
        print("g", o.name)
    return g
def g(a, b=None):
    print("g")

g(*[D("a"), D("b")])
print("--")
g(*(D("a"), D("b")))
print("--")
g(D("a"), *[D("b")])
print("--")
g(D("a"), **{"b": D("b")})
print("--")
g(**{"a": D("a"), "b": D("b")})
print("--")
g(*[D("a")], b=D("b"))
print("--")
mk("cell")(*[D("a")], b=D("b"))
print("--")
mk("cell")(D("a"), b=D("b"))
print("--")
D("self").m(*[D("a")], b=D("b"))
print("--")
D("self").m(D("a"), b=D("b"))
print("end")
#: g
#: del a
#: del b
#: --
#: g
#: del a
#: del b
#: --
#: g
#: del a
#: del b
#: --
#: g
#: del a
#: del b
#: --
#: g
#: del a
#: del b
#: --
#: g
#: del a
#: del b
#: --
#: g cell
#: del a
#: del b
#: del cell
#: --
#: g cell
#: del a
#: del b
#: del cell
#: --
#: m self
#: del self
#: del a
#: del b
#: --
#: m self
#: del self
#: del a
#: del b
#: end
---
class D:
    def __init__(self, name):
        self.name = name
    def __del__(self):
        print("del", self.name)
    def __call__(self, *a, **k):
        print("call", self.name)

D("c")(*[D("s1"), D("s2")])
print("--")
D("c")(D("p1"), D("p2"), *[D("s1"), D("s2")], k=D("k"), **{"y": D("y"), "z": D("z")})
print("--")
print(*[D("s1").name, D("s2").name, D("s3")][:2], sep=D("x").name)
print("--")
isinstance(*[D("s1"), D])
print("--")
D("c")(D("p1"), D("p2"), k=D("k"), j=D("j"))
print("end")
#: call c
#: del c
#: del s2
#: del s1
#: --
#: call c
#: del c
#: del s2
#: del s1
#: del p2
#: del p1
#: del k
#: del y
#: del z
#: --
#: del s1
#: del s2
#: del s3
#: del x
#: s1xs2
#: --
#: del s1
#: --
#: call c
#: del c
#: del p1
#: del p2
#: del k
#: del j
#: end
---
class D:
    def __init__(self, name):
        self.name = name
    def __del__(self):
        print("del", self.name)
    def m(self, *a, **k):
        print("m", self.name)
getattr(D("obj"), "m")(D("arg"))
print("--")
b = getattr(D("obj"), "m")
b(D("arg"))
print("--")
#: m obj
#: del obj
#: del arg
#: --
#: m obj
#: del arg
#: --
#: <gc at exit>
#: del obj
---
# A bound method of a temporary: CALL_FUNCTION_EX keeps the method object
# (and self) until after the call, then releases the argument tuple last first.
class D:
    def __init__(self, name):
        self.name = name
    def __del__(self):
        print("del", self.name)
    def m(self, a, b, c=None):
        print("m", self.name)
D("self").m(*[D("a"), D("b")])
print("--")
D("self").m(D("a"), *[D("b")], c=D("c"))
print("--")
getattr(D("obj"), "m")(*(D("a"), D("b")), **{"c": D("c")})
print("--")
[D("in-list")].append(D("arg"))
print("--")
f = [D("held")].append
f(D("arg"))
del f
print("end")
#: m self
#: del self
#: del b
#: del a
#: --
#: m self
#: del self
#: del b
#: del a
#: del c
#: --
#: m obj
#: del obj
#: del b
#: del a
#: del c
#: --
#: del in-list
#: del arg
#: --
#: del arg
#: del held
#: end
---
# Decorators: the decorator is released after applying it (a callable instance).
class Deco:
    def __init__(self, name):
        self.name = name
    def __del__(self):
        print("del", self.name)
    def __call__(self, fn):
        print("decorate", fn.__name__)
        return fn
@Deco("outer")
@Deco("inner")
def f():
    pass
print("end")
#: decorate f
#: del inner
#: decorate f
#: del outer
#: end
