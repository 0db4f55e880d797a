def f(a, b):
    return a + b
x = (f(1, 2) +
     f(3, "s"))
#| Traceback (most recent call last):
#|   File "<script>", line 4, in <module>
#|     f(3, "s"))
#|     ^^^^^^^^^
#|   File "<script>", line 2, in f
#|     return a + b
#|            ~~^~~
#| TypeError: unsupported operand type(s) for +: 'int' and 'str'
---
data = [1, 2, 3]
total = sum(data) / (len(data) - 3)
#| Traceback (most recent call last):
#|   File "<script>", line 2, in <module>
#|     total = sum(data) / (len(data) - 3)
#|             ~~~~~~~~~~^~~~~~~~~~~~~~~~~
#| ZeroDivisionError: division by zero
---
x = (1 + 2) * "a" - 3
#| Traceback (most recent call last):
#|   File "<script>", line 1, in <module>
#|     x = (1 + 2) * "a" - 3
#|         ~~~~~~~~~~~~~~^~~
#| TypeError: unsupported operand type(s) for -: 'str' and 'int'
---
x = 1 + (2 * "a") - 3
#| Traceback (most recent call last):
#|   File "<script>", line 1, in <module>
#|     x = 1 + (2 * "a") - 3
#|         ~~^~~~~~~~~~~
#| TypeError: unsupported operand type(s) for +: 'int' and 'str'
---
a = None
a.b.c
#| Traceback (most recent call last):
#|   File "<script>", line 2, in <module>
#|     a.b.c
#|     ^^^
#| AttributeError: 'NoneType' object has no attribute 'b'
---
x = 5
x()
#| Traceback (most recent call last):
#|   File "<script>", line 2, in <module>
#|     x()
#| TypeError: 'int' object is not callable
---
def f(*a):
    pass
f(*5)
#| Traceback (most recent call last):
#|   File "<script>", line 3, in <module>
#|     f(*5)
#| TypeError: __main__.f() argument after * must be an iterable, not int
---
def f(**k):
    pass
f(**[1])
#| Traceback (most recent call last):
#|   File "<script>", line 3, in <module>
#|     f(**[1])
#| TypeError: __main__.f() argument after ** must be a mapping, not list
---
class A:
    x = 1 / 0
#| Traceback (most recent call last):
#|   File "<script>", line 1, in <module>
#|     class A:
#|   File "<script>", line 2, in A
#|     x = 1 / 0
#|         ~~^~~
#| ZeroDivisionError: division by zero
---
def deco(fn):
    raise RuntimeError("deco")
@deco
def f():
    pass
#| Traceback (most recent call last):
#|   File "<script>", line 3, in <module>
#|     @deco
#|      ^^^^
#|   File "<script>", line 2, in deco
#|     raise RuntimeError("deco")
#| RuntimeError: deco
---
def f(a=1/0):
    pass
#| Traceback (most recent call last):
#|   File "<script>", line 1, in <module>
#|     def f(a=1/0):
#|             ~^~
#| ZeroDivisionError: division by zero
---
x = 1 < 2 < "a"
#| Traceback (most recent call last):
#|   File "<script>", line 1, in <module>
#|     x = 1 < 2 < "a"
#|         ^^^^^^^^^^^
#| TypeError: '<' not supported between instances of 'int' and 'str'
---
f = lambda x: x / 0
f(1)
#| Traceback (most recent call last):
#|   File "<script>", line 2, in <module>
#|     f(1)
#|   File "<script>", line 1, in <lambda>
#|     f = lambda x: x / 0
#|                   ~~^~~
#| ZeroDivisionError: division by zero
---
name = "x"
s = f"{name}{1/0}"
#| Traceback (most recent call last):
#|   File "<script>", line 2, in <module>
#|     s = f"{name}{1/0}"
#|                  ~^~
#| ZeroDivisionError: division by zero
---
def outer():
    def inner():
        return [][0]
    return inner()
outer()
#| Traceback (most recent call last):
#|   File "<script>", line 5, in <module>
#|     outer()
#|   File "<script>", line 4, in outer
#|     return inner()
#|            ^^^^^^^
#|   File "<script>", line 3, in inner
#|     return [][0]
#|            ~~^^^
#| IndexError: list index out of range
---
x = [i for i in range(3) if i / 0]
#| Traceback (most recent call last):
#|   File "<script>", line 1, in <module>
#|     x = [i for i in range(3) if i / 0]
#|                                 ~~^~~
#| ZeroDivisionError: division by zero
---
def f():
    return {k: 1 / k for k in range(2)}
f()
#| Traceback (most recent call last):
#|   File "<script>", line 3, in <module>
#|     f()
#|   File "<script>", line 2, in f
#|     return {k: 1 / k for k in range(2)}
#|                ~~^~~
#| ZeroDivisionError: division by zero
---
class C:
    def __enter__(self):
        raise ValueError("enter")
    def __exit__(self, *a):
        pass
with C():
    pass
#| Traceback (most recent call last):
#|   File "<script>", line 6, in <module>
#|     with C():
#|   File "<script>", line 3, in __enter__
#|     raise ValueError("enter")
#| ValueError: enter
---
class C:
    def __enter__(self):
        return self
    def __exit__(self, *a):
        pass
with C() as c:
    c.missing
#| Traceback (most recent call last):
#|   File "<script>", line 7, in <module>
#|     c.missing
#| AttributeError: 'C' object has no attribute 'missing'
---
o = [1]
del o[5]
#| Traceback (most recent call last):
#|   File "<script>", line 2, in <module>
#|     del o[5]
#|         ~^^^
#| IndexError: list assignment index out of range
---
class A:
    pass
a = A()
del a.missing
#| Traceback (most recent call last):
#|   File "<script>", line 4, in <module>
#|     del a.missing
#|         ^^^^^^^^^
#| AttributeError: 'A' object has no attribute 'missing'
---
a, *b, c = [1]
#| Traceback (most recent call last):
#|   File "<script>", line 1, in <module>
#|     a, *b, c = [1]
#|     ^^^^^^^^
#| ValueError: not enough values to unpack (expected at least 2, got 1)
---
x = {"k": [1, 2]}
y = x["k"][2]
#| Traceback (most recent call last):
#|   File "<script>", line 2, in <module>
#|     y = x["k"][2]
#|         ~~~~~~^^^
#| IndexError: list index out of range
---
x = "abc"
y = x.upper().nothing()
#| Traceback (most recent call last):
#|   File "<script>", line 2, in <module>
#|     y = x.upper().nothing()
#|         ^^^^^^^^^^^^^^^^^
#| AttributeError: 'str' object has no attribute 'nothing'
---
import math
math.sqrt(-1)
#| Traceback (most recent call last):
#|   File "<script>", line 2, in <module>
#|     math.sqrt(-1)
#| ValueError: math domain error
---
import math
y = math.sqrt("a")
#| Traceback (most recent call last):
#|   File "<script>", line 2, in <module>
#|     y = math.sqrt("a")
#|         ^^^^^^^^^^^^^^
#| TypeError: must be real number, not str
---
x = int("1") + int("a")
#| Traceback (most recent call last):
#|   File "<script>", line 1, in <module>
#|     x = int("1") + int("a")
#|                    ^^^^^^^^
#| ValueError: invalid literal for int() with base 10: 'a'
---
try:
    1/0
except ZeroDivisionError:
    [][1]
#| Traceback (most recent call last):
#|   File "<script>", line 2, in <module>
#|     1/0
#|     ~^~
#| ZeroDivisionError: division by zero
#|
#| During handling of the above exception, another exception occurred:
#|
#| Traceback (most recent call last):
#|   File "<script>", line 4, in <module>
#|     [][1]
#|     ~~^^^
#| IndexError: list index out of range
---
def f():
    raise ValueError
f()
#| Traceback (most recent call last):
#|   File "<script>", line 3, in <module>
#|     f()
#|   File "<script>", line 2, in f
#|     raise ValueError
#| ValueError
---
x = 1
if x: y = 1 / 0
#| Traceback (most recent call last):
#|   File "<script>", line 2, in <module>
#|     if x: y = 1 / 0
#|               ~~^~~
#| ZeroDivisionError: division by zero
---
for i in range(3):
    if i == 2: {}[i]
#| Traceback (most recent call last):
#|   File "<script>", line 2, in <module>
#|     if i == 2: {}[i]
#|                ~~^^^
#| KeyError: 2
---
while True:
    raise KeyError("k")
#| Traceback (most recent call last):
#|   File "<script>", line 2, in <module>
#|     raise KeyError("k")
#| KeyError: 'k'
---
x = [1, 2,
     3][5]
#| Traceback (most recent call last):
#|   File "<script>", line 1, in <module>
#|     x = [1, 2,
#|         ^^^^^^
#| IndexError: list index out of range
---
x = foo(
    1)
#| Traceback (most recent call last):
#|   File "<script>", line 1, in <module>
#|     x = foo(
#|         ^^^
#| NameError: name 'foo' is not defined
---
def g():
    return 1
x = g(
    ) + "a"
#| Traceback (most recent call last):
#|   File "<script>", line 3, in <module>
#|     x = g(
#|         ^^
#| TypeError: unsupported operand type(s) for +: 'int' and 'str'
---
x = (
    1 / 0
)
#| Traceback (most recent call last):
#|   File "<script>", line 2, in <module>
#|     1 / 0
#|     ~~^~~
#| ZeroDivisionError: division by zero
---
assert False
#| Traceback (most recent call last):
#|   File "<script>", line 1, in <module>
#|     assert False
#| AssertionError
---
assert 1 + 1 == 3, "math"
#| Traceback (most recent call last):
#|   File "<script>", line 1, in <module>
#|     assert 1 + 1 == 3, "math"
#| AssertionError: math
---
x = not_defined.attr
#| Traceback (most recent call last):
#|   File "<script>", line 1, in <module>
#|     x = not_defined.attr
#|         ^^^^^^^^^^^
#| NameError: name 'not_defined' is not defined
---
x = [1][not_defined]
#| Traceback (most recent call last):
#|   File "<script>", line 1, in <module>
#|     x = [1][not_defined]
#|             ^^^^^^^^^^^
#| NameError: name 'not_defined' is not defined
---
y = 3
y -= "s"
#| Traceback (most recent call last):
#|   File "<script>", line 2, in <module>
#|     y -= "s"
#| TypeError: unsupported operand type(s) for -=: 'int' and 'str'
---
lst = []
lst.append(1, 2)
#| Traceback (most recent call last):
#|   File "<script>", line 2, in <module>
#|     lst.append(1, 2)
#| TypeError: list.append() takes exactly one argument (2 given)
---
x = len(5)
#| Traceback (most recent call last):
#|   File "<script>", line 1, in <module>
#|     x = len(5)
#|         ^^^^^^
#| TypeError: object of type 'int' has no len()
---
"abc"[10]
#| Traceback (most recent call last):
#|   File "<script>", line 1, in <module>
#|     "abc"[10]
#|     ~~~~~^^^^
#| IndexError: string index out of range
---
{"a": 1}["b"]
#| Traceback (most recent call last):
#|   File "<script>", line 1, in <module>
#|     {"a": 1}["b"]
#|     ~~~~~~~~^^^^^
#| KeyError: 'b'
---
class K:
    def __getitem__(self, k):
        raise IndexError("custom")
K()[0]
#| Traceback (most recent call last):
#|   File "<script>", line 4, in <module>
#|     K()[0]
#|     ~~~^^^
#|   File "<script>", line 3, in __getitem__
#|     raise IndexError("custom")
#| IndexError: custom
---
x = 1;  y = 1 / 0
#| Traceback (most recent call last):
#|   File "<script>", line 1, in <module>
#|     x = 1;  y = 1 / 0
#|                 ~~^~~
#| ZeroDivisionError: division by zero
---
x = [[0]*2 for _ in range(2)][2][0]
#| Traceback (most recent call last):
#|   File "<script>", line 1, in <module>
#|     x = [[0]*2 for _ in range(2)][2][0]
#|         ~~~~~~~~~~~~~~~~~~~~~~~~~^^^
#| IndexError: list index out of range
---
x = 10 ** 400 * 1.0
#| Traceback (most recent call last):
#|   File "<script>", line 1, in <module>
#|     x = 10 ** 400 * 1.0
#|         ~~~~~~~~~~^~~~~
#| OverflowError: int too large to convert to float
---
import sys
sys.exit("bye")
#| Traceback (most recent call last):
#|   File "<script>", line 2, in <module>
#|     sys.exit("bye")
#| SystemExit: bye
---
raise SystemExit(3)
#| Traceback (most recent call last):
#|   File "<script>", line 1, in <module>
#|     raise SystemExit(3)
#| SystemExit: 3
---
x = "é日本" + 1
#| Traceback (most recent call last):
#|   File "<script>", line 1, in <module>
#|     x = "é日本" + 1
#|         ~~~~~~~~^~~
#| TypeError: can only concatenate str (not "int") to str
---
s = "日本語"; t = s + 5
#| Traceback (most recent call last):
#|   File "<script>", line 1, in <module>
#|     s = "日本語"; t = s + 5
#|                       ~~^~~
#| TypeError: can only concatenate str (not "int") to str
---
a = b = c_undefined
#| Traceback (most recent call last):
#|   File "<script>", line 1, in <module>
#|     a = b = c_undefined
#|             ^^^^^^^^^^^
#| NameError: name 'c_undefined' is not defined
---
print("a" "b" + 1)
#| Traceback (most recent call last):
#|   File "<script>", line 1, in <module>
#|     print("a" "b" + 1)
#|           ~~~~~~~~^~~
#| TypeError: can only concatenate str (not "int") to str
---
def f(*a, **k):
    pass
class A:
    def m(self, *a): pass
    def __call__(self, *a): pass
f(*5)
#| Traceback (most recent call last):
#|   File "<script>", line 6, in <module>
#|     f(*5)
#| TypeError: __main__.f() argument after * must be an iterable, not int
---
def f(*a, **k):
    pass
class A:
    def m(self, *a): pass
    def __call__(self, *a): pass
f(1, *5)
#| Traceback (most recent call last):
#|   File "<script>", line 6, in <module>
#|     f(1, *5)
#| TypeError: Value after * must be an iterable, not int
---
def f(*a, **k):
    pass
class A:
    def m(self, *a): pass
    def __call__(self, *a): pass
f(*5, 1)
#| Traceback (most recent call last):
#|   File "<script>", line 6, in <module>
#|     f(*5, 1)
#| TypeError: Value after * must be an iterable, not int
---
def f(*a, **k):
    pass
class A:
    def m(self, *a): pass
    def __call__(self, *a): pass
print(*5)
#| Traceback (most recent call last):
#|   File "<script>", line 6, in <module>
#|     print(*5)
#| TypeError: print() argument after * must be an iterable, not int
---
def f(*a, **k):
    pass
class A:
    def m(self, *a): pass
    def __call__(self, *a): pass
[].append(*5)
#| Traceback (most recent call last):
#|   File "<script>", line 6, in <module>
#|     [].append(*5)
#| TypeError: list.append() argument after * must be an iterable, not int
---
def f(*a, **k):
    pass
class A:
    def m(self, *a): pass
    def __call__(self, *a): pass
A().m(*5)
#| Traceback (most recent call last):
#|   File "<script>", line 6, in <module>
#|     A().m(*5)
#| TypeError: __main__.A.m() argument after * must be an iterable, not int
---
def f(*a, **k):
    pass
class A:
    def m(self, *a): pass
    def __call__(self, *a): pass
A(*5)
#| Traceback (most recent call last):
#|   File "<script>", line 6, in <module>
#|     A(*5)
#| TypeError: __main__.A() argument after * must be an iterable, not int
---
def f(*a, **k):
    pass
class A:
    def m(self, *a): pass
    def __call__(self, *a): pass
f(**[1])
#| Traceback (most recent call last):
#|   File "<script>", line 6, in <module>
#|     f(**[1])
#| TypeError: __main__.f() argument after ** must be a mapping, not list
---
def f(*a, **k):
    pass
class A:
    def m(self, *a): pass
    def __call__(self, *a): pass
f(x=1, **{"x": 2})
#| Traceback (most recent call last):
#|   File "<script>", line 6, in <module>
#|     f(x=1, **{"x": 2})
#| TypeError: __main__.f() got multiple values for keyword argument 'x'
---
def f(*a, **k):
    pass
class A:
    def m(self, *a): pass
    def __call__(self, *a): pass
f(**{"x": 1}, **{"x": 2})
#| Traceback (most recent call last):
#|   File "<script>", line 6, in <module>
#|     f(**{"x": 1}, **{"x": 2})
#| TypeError: __main__.f() got multiple values for keyword argument 'x'
---
def f(*a, **k):
    pass
class A:
    def m(self, *a): pass
    def __call__(self, *a): pass
len(**[1])
#| Traceback (most recent call last):
#|   File "<script>", line 6, in <module>
#|     len(**[1])
#| TypeError: len() argument after ** must be a mapping, not list
---
def f(*a, **k):
    pass
class A:
    def m(self, *a): pass
    def __call__(self, *a): pass
(lambda: 0)(*5)
#| Traceback (most recent call last):
#|   File "<script>", line 6, in <module>
#|     (lambda: 0)(*5)
#| TypeError: __main__.<lambda>() argument after * must be an iterable, not int
---
def f(*a, **k):
    pass
class A:
    def m(self, *a): pass
    def __call__(self, *a): pass
f(*None)
#| Traceback (most recent call last):
#|   File "<script>", line 6, in <module>
#|     f(*None)
#| TypeError: __main__.f() argument after * must be an iterable, not NoneType
---
def f(*a, **k):
    pass
class A:
    def m(self, *a): pass
    def __call__(self, *a): pass
f(**None)
#| Traceback (most recent call last):
#|   File "<script>", line 6, in <module>
#|     f(**None)
#| TypeError: __main__.f() argument after ** must be a mapping, not NoneType
---
def f(*a, **k):
    pass
class A:
    def m(self, *a): pass
    def __call__(self, *a): pass
f(**{"x": 1}, y=2, x=3)
#| Traceback (most recent call last):
#|   File "<script>", line 6, in <module>
#|     f(**{"x": 1}, y=2, x=3)
#| TypeError: __main__.f() got multiple values for keyword argument 'x'
---
def f():
    try:
        1/0
    except ZeroDivisionError as e:
        if e: raise e
f()
#| Traceback (most recent call last):
#|   File "<script>", line 6, in <module>
#|     f()
#|   File "<script>", line 5, in f
#|     if e: raise e
#|           ^^^^^^^
#|   File "<script>", line 3, in f
#|     1/0
#|     ~^~
#| ZeroDivisionError: division by zero
---
class A:
    pass
x = [A()][0].nope
#| Traceback (most recent call last):
#|   File "<script>", line 3, in <module>
#|     x = [A()][0].nope
#|         ^^^^^^^^^^^^^
#| AttributeError: 'A' object has no attribute 'nope'
---
def g(x):
    return x
y = g(g(g(None))).attr + 1
#| Traceback (most recent call last):
#|   File "<script>", line 3, in <module>
#|     y = g(g(g(None))).attr + 1
#|         ^^^^^^^^^^^^^^^^^^
#| AttributeError: 'NoneType' object has no attribute 'attr'
---
d = {"a": {"b": 1}}
d["a"]["c"] += 1
#| Traceback (most recent call last):
#|   File "<script>", line 2, in <module>
#|     d["a"]["c"] += 1
#|     ~~~~~~^^^^^
#| KeyError: 'c'
---
x = [1, 2, 3]
y = x[1:2][5] if x else 0
#| Traceback (most recent call last):
#|   File "<script>", line 2, in <module>
#|     y = x[1:2][5] if x else 0
#|         ~~~~~~^^^
#| IndexError: list index out of range
---
lst = [1, 2]
lst[0], lst[5] = 1, 2
#| Traceback (most recent call last):
#|   File "<script>", line 2, in <module>
#|     lst[0], lst[5] = 1, 2
#|             ~~~^^^
#| IndexError: list assignment index out of range
---
def f(a, b):
    return a // b
print(f(1, 0), "never")
#| Traceback (most recent call last):
#|   File "<script>", line 3, in <module>
#|     print(f(1, 0), "never")
#|           ^^^^^^^
#|   File "<script>", line 2, in f
#|     return a // b
#|            ~~^^~~
#| ZeroDivisionError: integer division or modulo by zero
---
t = (1, 2)
t[0] = 5
#| Traceback (most recent call last):
#|   File "<script>", line 2, in <module>
#|     t[0] = 5
#|     ~^^^
#| TypeError: 'tuple' object does not support item assignment
---
s = "abc"
n = s.index("z")
#| Traceback (most recent call last):
#|   File "<script>", line 2, in <module>
#|     n = s.index("z")
#|         ^^^^^^^^^^^^
#| ValueError: substring not found
---
x = 1 +\
    "a"
#| Traceback (most recent call last):
#|   File "<script>", line 1, in <module>
#|     x = 1 +\
#|         ^^^^
#| TypeError: unsupported operand type(s) for +: 'int' and 'str'
---
x = [
    1 / 0
    for i in range(2)
]
#| Traceback (most recent call last):
#|   File "<script>", line 2, in <module>
#|     1 / 0
#|     ~~^~~
#| ZeroDivisionError: division by zero
---
def gen():
    return (i / 0 for i in range(2))
list(gen())
#| Traceback (most recent call last):
#|   File "<script>", line 3, in <module>
#|     list(gen())
#|   File "<script>", line 2, in <genexpr>
#|     return (i / 0 for i in range(2))
#|             ~~^~~
#| ZeroDivisionError: division by zero
---
obj = object()
obj.a = 1
#| Traceback (most recent call last):
#|   File "<script>", line 2, in <module>
#|     obj.a = 1
#|     ^^^^^
#| AttributeError: 'object' object has no attribute 'a'
---
class C:
    def __init__(self):
        self.x = 1
c = C()
del c.x
del c.x
#| Traceback (most recent call last):
#|   File "<script>", line 6, in <module>
#|     del c.x
#|         ^^^
#| AttributeError: 'C' object has no attribute 'x'
---
class A:
    pass
a = A()
a.n += 1
#| Traceback (most recent call last):
#|   File "<script>", line 4, in <module>
#|     a.n += 1
#|     ^^^
#| AttributeError: 'A' object has no attribute 'n'
---
t = (1, 2)
t[0] += 1
#| Traceback (most recent call last):
#|   File "<script>", line 2, in <module>
#|     t[0] += 1
#|     ~^^^
#| TypeError: 'tuple' object does not support item assignment
---
x += 1
#| Traceback (most recent call last):
#|   File "<script>", line 1, in <module>
#|     x += 1
#|     ^
#| NameError: name 'x' is not defined
---
def f():
    y += 1
f()
#| Traceback (most recent call last):
#|   File "<script>", line 3, in <module>
#|     f()
#|   File "<script>", line 2, in f
#|     y += 1
#|     ^
#| UnboundLocalError: cannot access local variable 'y' where it is not associated with a value
---
class P:
    @property
    def v(self):
        return 1
p = P()
p.v += 1
#| Traceback (most recent call last):
#|   File "<script>", line 6, in <module>
#|     p.v += 1
#|     ^^^
#| AttributeError: property 'v' of 'P' object has no setter
---
class Vault:
    def __init__(self):
        self.__key = 1
    def __open(self, n):
        return self.__key + self.__missing * n
v = Vault()
v._Vault__open(2)
#| Traceback (most recent call last):
#|   File "<script>", line 7, in <module>
#|     v._Vault__open(2)
#|   File "<script>", line 5, in __open
#|     return self.__key + self.__missing * n
#|                         ^^^^^^^^^^^^^^
#| AttributeError: 'Vault' object has no attribute '_Vault__missing'
