# Frame exit: a parameter captured by a closure is released at its
# parameter's place in localsplus; closures and defaults are tuples.
class D:
    def __init__(self, name):
        self.name = name
    def __del__(self):
        print("del", self.name)

def f(a, b, c):
    x = D("x")
    def g():
        return b
    g()
    print("f end")
f(D("a"), D("b"), D("c"))
print("end")
#: f end
#: del a
#: del c
#: del x
#: del b
#: end
---
class D:
    def __init__(self, name):
        self.name = name
    def __del__(self):
        print("del", self.name)

def f(a, b, c):
    x = D("x")
    y = D("y")
    def g():
        return b, y
    print("f end")
    return g
h = f(D("a"), D("b"), D("c"))
print("returned")
del h
print("end")
#: f end
#: del a
#: del c
#: del x
#: returned
#: del y
#: del b
#: end
---
class D:
    def __init__(self, name):
        self.name = name
    def __del__(self):
        print("del", self.name)

def f(a, *args, k=None, **kw):
    z = D("z")
    def g():
        return a, args, kw, z, k
    print("f end")
f(D("a"), D("s1"), D("s2"), k=D("k"), q=D("q"))
print("end")
#: f end
#: del q
#: del k
#: del s2
#: del s1
#: del a
#: del z
#: end
---
class D:
    def __init__(self, name):
        self.name = name
    def __del__(self):
        print("del", self.name)

def outer(p):
    o = D("o")
    def mid(q):
        m = D("m")
        def inner():
            return p, q, o, m
        print("mid end")
    mid(D("q"))
    print("outer end")
outer(D("p"))
print("end")
#: mid end
#: del q
#: del m
#: outer end
#: del p
#: del o
#: end
---
class D:
    def __init__(self, name):
        self.name = name
    def __del__(self):
        print("del", self.name)

class C:
    def __del__(self):
        print("del C")
    def meth(self, a):
        def g():
            return self
        print("meth")
        return g
C().meth(D("a"))
print("--")
keep = C().meth(D("a2"))
print("kept")
del keep
print("end")
#: meth
#: del a
#: del C
#: --
#: meth
#: del a2
#: kept
#: del C
#: end
---
class D:
    def __init__(self, name):
        self.name = name
    def __del__(self):
        print("del", self.name)

def f(b, a):
    def g():
        return a, b
    print("f")
f(D("first"), D("second"))
lam = lambda a, b: (lambda: a)
lam(D("la"), D("lb"))
print("end")
#: f
#: del first
#: del second
#: del lb
#: del la
#: end
---
class D:
    def __init__(self, name):
        self.name = name
    def __del__(self):
        print("del", self.name)

def mk():
    def f(a=D("d1"), b=D("d2"), *, k=D("k1"), j=D("k2")):
        pass
    return f
f = mk()
del f
print("end")
#: del d2
#: del d1
#: del k1
#: del k2
#: end
---
class D:
    def __init__(self, name):
        self.name = name
    def __del__(self):
        print("del", self.name)

def f(a, b):
    x = D("x")
    def g():
        return a
    raise ValueError("v")
try:
    f(D("a"), D("b"))
except ValueError as e:
    print("caught")
print("end")
#: caught
#: del b
#: del x
#: del a
#: end
---
class D:
    def __init__(self, name):
        self.name = name
    def __del__(self):
        print("del", self.name)

class K:
    def __init__(self, name):
        self.name = name
    def __del__(self):
        print("del", self.name)
    def m(self, a):
        def g():
            return __class__, a
        return super().__class__
K("self").m(D("a"))
print("end")
#: del self
#: del a
#: end
