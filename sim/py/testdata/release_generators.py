# Lifetimes through generator frames: a suspended generator keeps its locals
# alive, an exhausted one frees its frame at once, close/dealloc run finally.
class D:
    def __init__(self, name):
        self.name = name
    def __del__(self):
        print("del", self.name)

def gen(a):
    b = D("b")
    yield 1
    c = D("c")
    yield 2
    print("end of body")

g = gen(D("a"))
print("created")
next(g)
print("first")
next(g)
print("second")
next(g, None)
print("exhausted")
del g
print("end")
#: created
#: first
#: second
#: end of body
#: del a
#: del b
#: del c
#: exhausted
#: end
---
class D:
    def __init__(self, name):
        self.name = name
    def __del__(self):
        print("del", self.name)

def gen(a):
    b = D("b")
    try:
        yield 1
    finally:
        print("finally")
def main():
    g = gen(D("a"))
    next(g)
    print("dropping")
    del g
    print("dropped")
    g = gen(D("a2"))
    print("unstarted drop")
    g = None
    print("after")
main()
#: dropping
#: finally
#: del a
#: del b
#: dropped
#: unstarted drop
#: del a2
#: after
---
class D:
    def __init__(self, name):
        self.name = name
    def __del__(self):
        print("del", self.name)

def gen():
    x = D("x")
    yield x
    yield D("y")
for v in gen():
    print("got", v.name)
    del v
print("loop done")
def consume():
    return [d.name for d in gen()]
print(consume())
#: got x
#: got y
#: del y
#: del x
#: loop done
#: del x
#: del y
#: ['x', 'y']
---
class D:
    def __init__(self, name):
        self.name = name
    def __del__(self):
        print("del", self.name)

def gen():
    me = yield
    try:
        yield 1
    finally:
        print("finally of cycle")

g = gen()
next(g)
g.send(g)
print("end")
#: end
#: <gc at exit>
#: finally of cycle
---
class D:
    def __init__(self, name):
        self.name = name
    def __del__(self):
        print("del", self.name)
import gc
def gen(tag):
    d = D(tag)
    try:
        yield 1
    finally:
        print("closing", tag)
class Holder:
    pass
h = Holder()
h.self = h
h.g = gen("cyc")
next(h.g)
del h
print("collect", gc.collect() > 0)
g2 = gen("module level")
next(g2)
print("end of script")
#: closing cyc
#: del cyc
#: collect True
#: end of script
#: <gc at exit>
#: closing module level
#: del module level
---
class D:
    def __init__(self, name):
        self.name = name
    def __del__(self):
        print("del", self.name)

def inner():
    d = D("inner-local")
    try:
        yield 1
        yield 2
    finally:
        print("inner finally")
def outer():
    o = D("outer-local")
    try:
        yield from inner()
    finally:
        print("outer finally")
g = outer()
next(g)
del g
print("--")
g = outer()
list(g)
print("end")
#: inner finally
#: del inner-local
#: outer finally
#: del outer-local
#: --
#: inner finally
#: del inner-local
#: outer finally
#: del outer-local
#: end
---
class D:
    def __init__(self, name):
        self.name = name
    def __del__(self):
        print("del", self.name)

def gen():
    try:
        raise KeyError("k")
    except KeyError as e:
        d = D("in handler")
        yield 1
        print("resumed in handler")
g = gen()
next(g)
del g
print("end")
#: del in handler
#: end
---
class D:
    def __init__(self, name):
        self.name = name
    def __del__(self):
        print("del", self.name)

def gen(n):
    for i in range(n):
        yield D(str(i))
print([d.name for d in gen(3)])
it = gen(2)
first = next(it)
print(first.name)
del first
print(sum(1 for _ in it))
#: del 0
#: del 1
#: del 2
#: ['0', '1', '2']
#: 0
#: del 0
#: del 1
#: 1
---
class D:
    def __init__(self, name):
        self.name = name
    def __del__(self):
        print("del", self.name)
def f(x):
    yield x
g = f(D("arg"))
print("made")
del f
print("function name kept by generator", g.__name__)
del g
print("end")
#: made
#: function name kept by generator f
#: del arg
#: end
