# private name mangling (`__x` in a class body means `_Class__x`)
class Foo:
    __count = 0
    def __init__(self, __v=3):
        self.__secret = __v
        Foo.__count += 1
    def __hidden(self):
        return self.__secret * 2
    def show(self):
        return self.__hidden(), [self.__secret + i for i in range(2)], (lambda: self.__secret)()
    class __Inner:
        __z = 5
        def get(self):
            return self.__z
    def inner(self):
        return self.__Inner().get()
f = Foo(4)
print(f.show(), f.inner())
print(sorted(k for k in vars(Foo) if "count" in k or "hidden" in k or "Inner" in k))
print(sorted(vars(f)))
print(Foo._Foo__hidden.__name__, Foo._Foo__hidden.__qualname__)
print(Foo._Foo__Inner.__name__, Foo._Foo__Inner.__qualname__)
#: (8, [4, 5], 4) 5
#: ['_Foo__Inner', '_Foo__count', '_Foo__hidden']
#: ['_Foo__secret']
#: __hidden Foo.__hidden
#: __Inner Foo.__Inner
---
# a subclass does not see its base's private names; leading underscores of
# the class name are dropped; a class named only with underscores mangles nothing
class Base:
    def __init__(self):
        self.__secret = 1
class _Sub(Base):
    def peek(self):
        try:
            return self.__secret
        except AttributeError as e:
            return str(e)
print(_Sub().peek(), sorted(vars(_Sub())))
class ___:
    __x = 1
print([k for k in vars(___) if k.endswith("x")])
class __Dunder__:
    __y = 2
    __z__ = 3
    __ = 4
print([k for k in vars(__Dunder__) if k.endswith(("y", "z__")) or k == "__"])
#: '_Sub' object has no attribute '_Sub__secret' ['_Base__secret']
#: ['__x']
#: ['_Dunder____y', '__z__', '__']
---
# parameters are mangled, keyword names in calls are not
class K:
    def m(self, __a, *, __b=2):
        return __a + __b
    def call(self):
        try:
            return self.m(__a=1)
        except TypeError as e:
            return str(e)
print(K().call(), K().m(1), K().m(1, _K__b=5))

print(sorted(K.m.__annotations__) if hasattr(K.m, "__annotations__") else None)
class Ann:
    def f(self, __p: int) -> None:
        pass
print(Ann.f.__annotations__)
#: K.m() got an unexpected keyword argument '__a' 3 6
#: []
#: {'_Ann__p': <class 'int'>, 'return': None}
---
# global and nonlocal declarations, comprehension variables, except names
class G:
    global __gg
    __gg = 7
print(_G__gg)
class A:
    def f(self):
        __y = 1
        def g():
            nonlocal __y
            __y += 1
            return __y
        return g(), [__y for _ in range(1)], {__k: 1 for __k in "a"}
print(A().f())
class X:
    def f(self):
        try:
            raise ValueError("v")
        except ValueError as __e:
            return repr(_X__e)
print(X().f())
#: 7
#: (2, [2], {'a': 1})
#: ValueError('v')
---
# names mangled in errors; the dict and getattr() strings are not mangled
def outer():
    class L:
        def f(self):
            return __nope
    try:
        L().f()
    except NameError as e:
        print(e)
outer()
class E:
    def f(self):
        self.__q = 1
        return self.__dict__.get("__q"), getattr(self, "__q", "none"), getattr(self, "_E__q")
print(E().f())
class T:
    def f(self):
        return self.__missing
try:
    T().f()
except AttributeError as e:
    print(e)
#: name '_L__nope' is not defined
#: (None, 'none', 1)
#: 'T' object has no attribute '_T__missing'
---
# imports inside a class
class I:
    import math as __m
    import sys
    def f(self):
        return self.__m.floor(2.5), type(self.sys).__name__
print(I().f(), sorted(k for k in vars(I) if "m" in k and not k.startswith("__")))
class J:
    try:
        from math import __nothing
    except ImportError as e:
        err = str(e).split(" (")[0]
print(J.err)
#: (2, 'module') ['_I__m']
#: cannot import name '_J__nothing' from 'math'
---
# decorators and bases are outside the class; a nested function keeps the class
def deco(f):
    return f
__top = 9
class D:
    __k = 1
    @deco
    def __m(self):
        return 1
    def f(self):
        def inner():
            return self.__k
        return inner()
print(D().f(), hasattr(D, "_D__m"), __top)
#: 1 True 9
