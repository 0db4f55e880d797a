print(1 + 2, 7 // 2, -7 // 2, 7 % -3, 2 ** -1, 10 / 4)
#: 3 3 -4 -2 0.5 2.5
---
x = [1, 2, 3]
x.append(4)
print(x, len(x), x[-1], x[1:3])
#: [1, 2, 3, 4] 4 4 [2, 3]
---
d = {'a': 1, 'b': 2}
d['c'] = 3
print(d, list(d.keys()), d.get('z', 0))
#: {'a': 1, 'b': 2, 'c': 3} ['a', 'b', 'c'] 0
---
def f(a, b=2, *args, c, **kw):
    return a, b, args, c, kw
print(f(1, c=3))
print(f(1, 5, 6, 7, c=3, d=4))
#: (1, 2, (), 3, {})
#: (1, 5, (6, 7), 3, {'d': 4})
---
print(1 / 0)
### "ZeroDivisionError: division by zero"
---
print(undefined_name)
### "NameError: name 'undefined_name' is not defined"
---
print([].foo)
### "AttributeError: 'list' object has no attribute 'foo'"
---
print(1 + 'a')
### "TypeError: unsupported operand type\(s\) for \+: 'int' and 'str'"
---
class A:
    def __init__(self, n):
        self.n = n
    def __repr__(self):
        return f"A({self.n!r})"
    def __add__(self, o):
        return A(self.n + o.n)
print(A(1) + A(2), [A('x')])
#: A(3) [A('x')]
---
class B:
    def __del__(self):
        print("del B")
b = B()
b = None
print("after")
#: del B
#: after
---
2**100
print(2**100, -(2**64) // 3, 10**20 % 7)
#: 1267650600228229401496703205376 -6148914691236517206 2
---
s = 0
for i in range(10):
    s += i
print(s, [i*i for i in range(5) if i % 2], sum(x for x in range(4)))
#: 45 [1, 9] 6
---
try:
    {}['k']
except KeyError as e:
    print('caught', repr(e), e)
#: caught KeyError('k') 'k'
---
def g():
    x = 1
    def h():
        return x + 1
    return h()
print(g())
#: 2
---
class P:
    def __init__(self):
        self._v = 0
    @property
    def v(self):
        return self._v
    @v.setter
    def v(self, val):
        self._v = val * 2
p = P()
p.v = 5
print(p.v)
#: 10
---
class Base:
    def hello(self):
        return "base"
class Child(Base):
    def hello(self):
        return "child+" + super().hello()
print(Child().hello(), isinstance(Child(), Base), issubclass(Child, Base))
#: child+base True True
---
print("{} and {:>5}|{:.2f}".format(1, 'ab', 3.14159), "%d-%s" % (3, 'x'), f"{3.5:08.3f}")
#: 1 and    ab|3.14 3-x 0003.500
---
class M:
    def __init__(self, x): print("M", x)
    def __repr__(self): return "M-repr"
    def __setattr__(self, k, v):
        print("set", k); object.__setattr__(self, k, v)
class N(M):
    def __init__(self):
        super().__init__(3)
        super(N, self).__init__(4)
        s = super(); s.__init__(5)
        self.a = 1
    def __repr__(self): return "N:" + super().__repr__()
    def __setattr__(self, k, v):
        super().__setattr__(k, v)
n = N()
print(repr(n), n.a)
#: M 3
#: M 4
#: M 5
#: set a
#: N:M-repr 1
---
import math
class A:
    def __float__(self): return 2.0
class B:
    def __index__(self): return 9
class C:
    def __float__(self): return 1
print(math.sqrt(A()), math.sqrt(B()), math.pow(B(), 0.5), "%.2f %e" % (A(), B()))
for bad in (C(), "x"):
    try:
        math.sqrt(bad)
    except TypeError as e:
        print(e)
try:
    "%f" % (C(),)
except TypeError as e:
    print(e)
#: 1.4142135623730951 3.0 3.0 2.00 9.000000e+00
#: C.__float__ returned non-float (type int)
#: must be real number, not str
#: C.__float__ returned non-float (type int)
---
# an inlined comprehension (PEP 709) in a nested function sees a variable of
# a function two levels up that its owner never names itself
def outer(a, k=2, *, m=3):
    def inner(xs):
        return [x * k + m for x in xs], {x: k for x in xs}, [[y * m for y in xs] for _ in xs]
    return inner([a, a + 1])
print(outer(1))
def outer2(*args, k=3, **kw):
    def inner():
        return [k + i for i in args] + [v for v in kw.values()]
    return inner()
print(outer2(1, 2, z=5))
def outer3():
    n = 4
    class C:
        vals = [n * i for i in range(3)]
    return C.vals
print(outer3())
#: ([5, 7], {1: 2, 2: 2}, [[3, 6], [3, 6]])
#: [4, 5, 5]
#: [0, 4, 8]
---
# a class body reads a variable of its enclosing function (LOAD_CLASSDEREF:
# the class namespace first), unless the class assigns the name itself
def f():
    n = 4
    m = 5
    class C:
        a = n
        m = 1
        b = m
        vals = [n * i for i in range(2)]
    return C.a, C.b, C.vals
print(f())
def g():
    n = 4
    class C:
        n = n + 1 if False else 0
    return C.n
print(g())
#: (4, 1, [0, 4])
#: 0
---
# nested comprehensions read the outer one's variable, at module level and
# in functions, also next to a variable of an enclosing function
m = [[i * 10 + j for j in range(3)] for i in range(2)]
def f(k):
    def g():
        return [[i * k + j for j in range(2)] for i in range(2)]
    return g()
print(m, f(5))
#: [[0, 1, 2], [10, 11, 12]] [[0, 1], [5, 6]]
