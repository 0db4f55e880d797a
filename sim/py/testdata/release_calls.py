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
---
class D:
    def __init__(self, name):
        self.name = name
        print("new", name)
    def __del__(self):
        print("del", self.name)
    def __call__(self, *a, **k):
        print("call", len(a), sorted(k))
    def __iter__(self):
        print("iter", self.name)
        return iter([1])
def boom():
    raise ValueError("boom")
# f(k=v, *a): the positional arguments (*a) first, then the keywords
def f(*a, **k):
    print("f", len(a), sorted(k))
f(k=D("k"), *[D("s1")])
f(k=D("k"), *D("it"), j=D("j"))
try:
    f(k=D("k"), *[D("s")], j=boom())
except ValueError:
    print("caught")
try:
    f(k=D("k"), *5)
except TypeError as e:
    print(e)
try:
    f(k=D("k"), *D("s"), **{"x": D("x")}, z=boom())
except ValueError:
    print("caught")
print("end")
#: new s1
#: new k
#: f 1 ['k']
#: del s1
#: del k
#: new it
#: new k
#: new j
#: iter it
#: del it
#: f 1 ['j', 'k']
#: del k
#: del j
#: new s
#: new k
#: del k
#: del s
#: caught
#: new k
#: del k
#: __main__.f() argument after * must be an iterable, not int
#: new s
#: new k
#: new x
#: del k
#: del x
#: del s
#: caught
#: end
---
class D:
    def __init__(self, name):
        self.name = name
        print("new", name)
    def __del__(self):
        print("del", self.name)
    def __call__(self, *a, **k):
        print("call", len(a), sorted(k))
    def __iter__(self):
        print("iter", self.name)
        return iter([1])
def boom():
    raise ValueError("boom")
# More than 30 stack slots: CALL_FUNCTION_EX (the tuple last to first,
# long keyword groups built item by item)
D("c")(*[D("a%d" % i) for i in range(2)], D("p0"), D("p1"), D("p2"), D("p3"), D("p4"), D("p5"), D("p6"), D("p7"), D("p8"), D("p9"), D("p10"), D("p11"), D("p12"), D("p13"), D("p14"), D("p15"), D("p16"), D("p17"), D("p18"), D("p19"), D("p20"), D("p21"), D("p22"), D("p23"), D("p24"), D("p25"), D("p26"), D("p27"), D("p28"))
D("c")(D("p"), k0=D("k0"), k1=D("k1"), k2=D("k2"), k3=D("k3"), k4=D("k4"), k5=D("k5"), k6=D("k6"), k7=D("k7"), k8=D("k8"), k9=D("k9"), k10=D("k10"), k11=D("k11"), k12=D("k12"), k13=D("k13"), k14=D("k14"), k15=D("k15"))
try:
    D("c")(D("p"), k0=D("k0"), k1=D("k1"), k2=D("k2"), k3=D("k3"), k4=D("k4"), k5=D("k5"), k6=D("k6"), k7=D("k7"), k8=D("k8"), k9=D("k9"), k10=D("k10"), k11=D("k11"), k12=D("k12"), k13=D("k13"), k14=D("k14"), k15=D("k15"), z=boom())
except ValueError:
    print("caught")
try:
    D("c")(D("p"), **{"q": D("q")}, k0=D("k0"), k1=D("k1"), k2=D("k2"), k3=D("k3"), k4=D("k4"), k5=D("k5"), k6=D("k6"), k7=D("k7"), k8=D("k8"), k9=D("k9"), k10=D("k10"), k11=D("k11"), k12=D("k12"), k13=D("k13"), k14=D("k14"), k15=D("k15"), z=boom())
except ValueError:
    print("caught")
try:
    D("c")(D("p"), **{"q": D("q")}, k0=D("k0"), k1=D("k1"), z=boom())
except ValueError:
    print("caught")
print("end")
#: new c
#: new a0
#: new a1
#: new p0
#: new p1
#: new p2
#: new p3
#: new p4
#: new p5
#: new p6
#: new p7
#: new p8
#: new p9
#: new p10
#: new p11
#: new p12
#: new p13
#: new p14
#: new p15
#: new p16
#: new p17
#: new p18
#: new p19
#: new p20
#: new p21
#: new p22
#: new p23
#: new p24
#: new p25
#: new p26
#: new p27
#: new p28
#: call 31 []
#: del c
#: del p28
#: del p27
#: del p26
#: del p25
#: del p24
#: del p23
#: del p22
#: del p21
#: del p20
#: del p19
#: del p18
#: del p17
#: del p16
#: del p15
#: del p14
#: del p13
#: del p12
#: del p11
#: del p10
#: del p9
#: del p8
#: del p7
#: del p6
#: del p5
#: del p4
#: del p3
#: del p2
#: del p1
#: del p0
#: del a1
#: del a0
#: new c
#: new p
#: new k0
#: new k1
#: new k2
#: new k3
#: new k4
#: new k5
#: new k6
#: new k7
#: new k8
#: new k9
#: new k10
#: new k11
#: new k12
#: new k13
#: new k14
#: new k15
#: call 1 ['k0', 'k1', 'k10', 'k11', 'k12', 'k13', 'k14', 'k15', 'k2', 'k3', 'k4', 'k5', 'k6', 'k7', 'k8', 'k9']
#: del c
#: del p
#: del k0
#: del k1
#: del k2
#: del k3
#: del k4
#: del k5
#: del k6
#: del k7
#: del k8
#: del k9
#: del k10
#: del k11
#: del k12
#: del k13
#: del k14
#: del k15
#: new c
#: new p
#: new k0
#: new k1
#: new k2
#: new k3
#: new k4
#: new k5
#: new k6
#: new k7
#: new k8
#: new k9
#: new k10
#: new k11
#: new k12
#: new k13
#: new k14
#: new k15
#: del k0
#: del k1
#: del k2
#: del k3
#: del k4
#: del k5
#: del k6
#: del k7
#: del k8
#: del k9
#: del k10
#: del k11
#: del k12
#: del k13
#: del k14
#: del k15
#: del p
#: del c
#: caught
#: new c
#: new p
#: new q
#: new k0
#: new k1
#: new k2
#: new k3
#: new k4
#: new k5
#: new k6
#: new k7
#: new k8
#: new k9
#: new k10
#: new k11
#: new k12
#: new k13
#: new k14
#: new k15
#: del k0
#: del k1
#: del k2
#: del k3
#: del k4
#: del k5
#: del k6
#: del k7
#: del k8
#: del k9
#: del k10
#: del k11
#: del k12
#: del k13
#: del k14
#: del k15
#: del q
#: del p
#: del c
#: caught
#: new c
#: new p
#: new q
#: new k0
#: new k1
#: del k1
#: del k0
#: del q
#: del p
#: del c
#: caught
#: end
