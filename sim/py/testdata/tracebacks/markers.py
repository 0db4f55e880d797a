x = 1/0
#| Traceback (most recent call last):
#|   File "<script>", line 1, in <module>
#|     x = 1/0
#|         ~^~
#| ZeroDivisionError: division by zero
---
def f():
    return 1 / 0
y = f()
#| Traceback (most recent call last):
#|   File "<script>", line 3, in <module>
#|     y = f()
#|         ^^^
#|   File "<script>", line 2, in f
#|     return 1 / 0
#|            ~~^~~
#| ZeroDivisionError: division by zero
---
d = {}
print(d["missing"])
#| Traceback (most recent call last):
#|   File "<script>", line 2, in <module>
#|     print(d["missing"])
#|           ~^^^^^^^^^^^
#| KeyError: 'missing'
---
d = {}
v = d["a"] + 1
#| Traceback (most recent call last):
#|   File "<script>", line 2, in <module>
#|     v = d["a"] + 1
#|         ~^^^^^
#| KeyError: 'a'
---
class A:
    pass
A().nothing
#| Traceback (most recent call last):
#|   File "<script>", line 3, in <module>
#|     A().nothing
#| AttributeError: 'A' object has no attribute 'nothing'
---
a = [1, 2]
a[1] + a[5]
#| Traceback (most recent call last):
#|   File "<script>", line 2, in <module>
#|     a[1] + a[5]
#|            ~^^^
#| IndexError: list index out of range
---
undefined_name
#| Traceback (most recent call last):
#|   File "<script>", line 1, in <module>
#|     undefined_name
#| NameError: name 'undefined_name' is not defined
---
x = undefined_name + 1
#| Traceback (most recent call last):
#|   File "<script>", line 1, in <module>
#|     x = undefined_name + 1
#|         ^^^^^^^^^^^^^^
#| NameError: name 'undefined_name' is not defined
---
def g(a):
    return a
g(1, 2)
#| Traceback (most recent call last):
#|   File "<script>", line 3, in <module>
#|     g(1, 2)
#| TypeError: g() takes 1 positional argument but 2 were given
---
for i in 5:
    pass
#| Traceback (most recent call last):
#|   File "<script>", line 1, in <module>
#|     for i in 5:
#| TypeError: 'int' object is not iterable
---
a, b = 1, 2, 3
#| Traceback (most recent call last):
#|   File "<script>", line 1, in <module>
#|     a, b = 1, 2, 3
#|     ^^^^
#| ValueError: too many values to unpack (expected 2)
---
x = 1
x += "s"
#| Traceback (most recent call last):
#|   File "<script>", line 2, in <module>
#|     x += "s"
#| TypeError: unsupported operand type(s) for +=: 'int' and 'str'
---
x = [1]
x[0] += "s"
#| Traceback (most recent call last):
#|   File "<script>", line 2, in <module>
#|     x[0] += "s"
#| TypeError: unsupported operand type(s) for +=: 'int' and 'str'
---
assert 1 == 2, "msg"
#| Traceback (most recent call last):
#|   File "<script>", line 1, in <module>
#|     assert 1 == 2, "msg"
#| AssertionError: msg
---
raise ValueError("v")
#| Traceback (most recent call last):
#|   File "<script>", line 1, in <module>
#|     raise ValueError("v")
#| ValueError: v
---
if True: raise ValueError("v")
#| Traceback (most recent call last):
#|   File "<script>", line 1, in <module>
#|     if True: raise ValueError("v")
#|              ^^^^^^^^^^^^^^^^^^^^^
#| ValueError: v
---
def f(x):
    return x.attr.other
f(1)
#| Traceback (most recent call last):
#|   File "<script>", line 3, in <module>
#|     f(1)
#|   File "<script>", line 2, in f
#|     return x.attr.other
#|            ^^^^^^
#| AttributeError: 'int' object has no attribute 'attr'
---
x = [1, 2]
x[3] = 1
#| Traceback (most recent call last):
#|   File "<script>", line 2, in <module>
#|     x[3] = 1
#|     ~^^^
#| IndexError: list assignment index out of range
---
x = {}
x[[1]] = 2
#| Traceback (most recent call last):
#|   File "<script>", line 2, in <module>
#|     x[[1]] = 2
#|     ~^^^^^
#| TypeError: unhashable type: 'list'
---
class A:
    def m(self):
        return 1/0
A().m()
#| Traceback (most recent call last):
#|   File "<script>", line 4, in <module>
#|     A().m()
#|   File "<script>", line 3, in m
#|     return 1/0
#|            ~^~
#| ZeroDivisionError: division by zero
---
class A:
    def m(self):
        return 1/0
a = A()
r = (a
     .m())
#| Traceback (most recent call last):
#|   File "<script>", line 6, in <module>
#|     .m())
#|      ^^^
#|   File "<script>", line 3, in m
#|     return 1/0
#|            ~^~
#| ZeroDivisionError: division by zero
---
x = (1 +
     2 + "a")
#| Traceback (most recent call last):
#|   File "<script>", line 1, in <module>
#|     x = (1 +
#|          ^^^
#| TypeError: unsupported operand type(s) for +: 'int' and 'str'
---
def f(*a):
    raise KeyError(1)
f(1,
  2)
#| Traceback (most recent call last):
#|   File "<script>", line 3, in <module>
#|     f(1,
#|   File "<script>", line 2, in f
#|     raise KeyError(1)
#| KeyError: 1
---
x = [1/0 for i in range(3)]
#| Traceback (most recent call last):
#|   File "<script>", line 1, in <module>
#|     x = [1/0 for i in range(3)]
#|          ~^~
#| ZeroDivisionError: division by zero
---
x = (  1   +   "s"  )   
#| Traceback (most recent call last):
#|   File "<script>", line 1, in <module>
#|     x = (  1   +   "s"  )
#|         ~~~~^~~~~~~
#| TypeError: unsupported operand type(s) for +: 'int' and 'str'
---
x = 1 if (1/0) else 2
#| Traceback (most recent call last):
#|   File "<script>", line 1, in <module>
#|     x = 1 if (1/0) else 2
#|               ~^~
#| ZeroDivisionError: division by zero
---
x = -"a"
#| Traceback (most recent call last):
#|   File "<script>", line 1, in <module>
#|     x = -"a"
#|         ^^^^
#| TypeError: bad operand type for unary -: 'str'
---
x = 1 < "a"
#| Traceback (most recent call last):
#|   File "<script>", line 1, in <module>
#|     x = 1 < "a"
#|         ^^^^^^^
#| TypeError: '<' not supported between instances of 'int' and 'str'
---
x = [1][0:1][5]
#| Traceback (most recent call last):
#|   File "<script>", line 1, in <module>
#|     x = [1][0:1][5]
#|         ~~~~~~~~^^^
#| IndexError: list index out of range
---
x = [[1]][0][1]
#| Traceback (most recent call last):
#|   File "<script>", line 1, in <module>
#|     x = [[1]][0][1]
#|         ~~~~~~~~^^^
#| IndexError: list index out of range
---
with open_it() as f:
    pass
#| Traceback (most recent call last):
#|   File "<script>", line 1, in <module>
#|     with open_it() as f:
#|          ^^^^^^^
#| NameError: name 'open_it' is not defined
---
del undefined_thing
#| Traceback (most recent call last):
#|   File "<script>", line 1, in <module>
#|     del undefined_thing
#|         ^^^^^^^^^^^^^^^
#| NameError: name 'undefined_thing' is not defined
---
s = "é" + 1
#| Traceback (most recent call last):
#|   File "<script>", line 1, in <module>
#|     s = "é" + 1
#|         ~~~~~^~
#| TypeError: can only concatenate str (not "int") to str
---
s = "日本" + 1
#| Traceback (most recent call last):
#|   File "<script>", line 1, in <module>
#|     s = "日本" + 1
#|         ~~~~~~~^~~
#| TypeError: can only concatenate str (not "int") to str
---
x = int("z")
#| Traceback (most recent call last):
#|   File "<script>", line 1, in <module>
#|     x = int("z")
#|         ^^^^^^^^
#| ValueError: invalid literal for int() with base 10: 'z'
---
x = max([])
#| Traceback (most recent call last):
#|   File "<script>", line 1, in <module>
#|     x = max([])
#|         ^^^^^^^
#| ValueError: max() iterable argument is empty
---
print(1, 2, sep=1/0)
#| Traceback (most recent call last):
#|   File "<script>", line 1, in <module>
#|     print(1, 2, sep=1/0)
#|                     ~^~
#| ZeroDivisionError: division by zero
---
x = 1 // 0 # comment
#| Traceback (most recent call last):
#|   File "<script>", line 1, in <module>
#|     x = 1 // 0 # comment
#|         ~~^^~~
#| ZeroDivisionError: integer division or modulo by zero
---
x = (1) + "a"
#| Traceback (most recent call last):
#|   File "<script>", line 1, in <module>
#|     x = (1) + "a"
#|         ~~~~^~~~~
#| TypeError: unsupported operand type(s) for +: 'int' and 'str'
---
def f():
    pass
f()()
#| Traceback (most recent call last):
#|   File "<script>", line 3, in <module>
#|     f()()
#| TypeError: 'NoneType' object is not callable
---
x = {"a": 1}["b"]
#| Traceback (most recent call last):
#|   File "<script>", line 1, in <module>
#|     x = {"a": 1}["b"]
#|         ~~~~~~~~^^^^^
#| KeyError: 'b'
---
def foo():
    return 1/0

x = foo()
#| Traceback (most recent call last):
#|   File "<script>", line 4, in <module>
#|     x = foo()
#|         ^^^^^
#|   File "<script>", line 2, in foo
#|     return 1/0
#|            ~^~
#| ZeroDivisionError: division by zero
---
try:
    {}["a"]
except KeyError:
    raise ValueError("v")
#| Traceback (most recent call last):
#|   File "<script>", line 2, in <module>
#|     {}["a"]
#|     ~~^^^^^
#| KeyError: 'a'
#|
#| During handling of the above exception, another exception occurred:
#|
#| Traceback (most recent call last):
#|   File "<script>", line 4, in <module>
#|     raise ValueError("v")
#| ValueError: v
---
try:
    1/0
except ZeroDivisionError as e:
    raise RuntimeError("r") from e
#| Traceback (most recent call last):
#|   File "<script>", line 2, in <module>
#|     1/0
#|     ~^~
#| ZeroDivisionError: division by zero
#|
#| The above exception was the direct cause of the following exception:
#|
#| Traceback (most recent call last):
#|   File "<script>", line 4, in <module>
#|     raise RuntimeError("r") from e
#| RuntimeError: r
---
def g():
    raise ValueError("x")
x = [
    1,
    g(),
]
#| Traceback (most recent call last):
#|   File "<script>", line 5, in <module>
#|     g(),
#|     ^^^
#|   File "<script>", line 2, in g
#|     raise ValueError("x")
#| ValueError: x
---
x = 2
y = (x - 1) * (x + "a")
#| Traceback (most recent call last):
#|   File "<script>", line 2, in <module>
#|     y = (x - 1) * (x + "a")
#|                    ~~^~~~~
#| TypeError: unsupported operand type(s) for +: 'int' and 'str'
---
z = ((1)) + "a"
#| Traceback (most recent call last):
#|   File "<script>", line 1, in <module>
#|     z = ((1)) + "a"
#|         ~~~~~~^^~~~
#| TypeError: unsupported operand type(s) for +: 'int' and 'str'
---
w = ([1])[(0)] + "a"
#| Traceback (most recent call last):
#|   File "<script>", line 1, in <module>
#|     w = ([1])[(0)] + "a"
#|         ~~~~~~~~~~~^~~~~
#| TypeError: unsupported operand type(s) for +: 'int' and 'str'
---
v = (2 ** (3)) / (1 - 1)
#| Traceback (most recent call last):
#|   File "<script>", line 1, in <module>
#|     v = (2 ** (3)) / (1 - 1)
#|         ~~~~~~~~~~~^~~~~~~~~
#| ZeroDivisionError: division by zero
---
u = ([1, 2]
     [5])
#| Traceback (most recent call last):
#|   File "<script>", line 1, in <module>
#|     u = ([1, 2]
#|          ^^^^^^
#| IndexError: list index out of range
---
def f(*a):
    return a[9]
r = (f)(1, (2))
#| Traceback (most recent call last):
#|   File "<script>", line 3, in <module>
#|     r = (f)(1, (2))
#|         ^^^^^^^^^^^
#|   File "<script>", line 2, in f
#|     return a[9]
#|            ~^^^
#| IndexError: tuple index out of range
---
q = (
    1 + 2 +
    3) / 0
#| Traceback (most recent call last):
#|   File "<script>", line 1, in <module>
#|     q = (
#|         ^
#| ZeroDivisionError: division by zero
---
class B:
    def __bool__(self):
        raise ValueError("no")
b = B()
x = 1
if x and b:
    pass
#| Traceback (most recent call last):
#|   File "<script>", line 6, in <module>
#|     if x and b:
#|              ^
#|   File "<script>", line 3, in __bool__
#|     raise ValueError("no")
#| ValueError: no
---
class B:
    def __bool__(self):
        raise ValueError("no")
def g():
    return B()
while g(): pass
#| Traceback (most recent call last):
#|   File "<script>", line 6, in <module>
#|     while g(): pass
#|           ^^^
#|   File "<script>", line 3, in __bool__
#|     raise ValueError("no")
#| ValueError: no
---
class B:
    def __bool__(self):
        raise ValueError("no")
b = B()
y = 1 if (b) else 2
#| Traceback (most recent call last):
#|   File "<script>", line 5, in <module>
#|     y = 1 if (b) else 2
#|               ^
#|   File "<script>", line 3, in __bool__
#|     raise ValueError("no")
#| ValueError: no
---
class B:
    def __bool__(self):
        raise ValueError("no")
b = B()
y = [1 for i in range(3) if not b]
#| Traceback (most recent call last):
#|   File "<script>", line 5, in <module>
#|     y = [1 for i in range(3) if not b]
#|                                     ^
#|   File "<script>", line 3, in __bool__
#|     raise ValueError("no")
#| ValueError: no
---
class B:
    def __bool__(self):
        raise ValueError("no")
    def __lt__(self, o):
        return self
b = B()
if 1 and (b <
      b): pass
#| Traceback (most recent call last):
#|   File "<script>", line 7, in <module>
#|     if 1 and (b <
#|               ^^^
#|   File "<script>", line 3, in __bool__
#|     raise ValueError("no")
#| ValueError: no
---
import math
x = (math
  .floor(
   "a"))
#| Traceback (most recent call last):
#|   File "<script>", line 2, in <module>
#|     x = (math
#|          ^^^^
#| TypeError: must be real number, not str
---
import math
def f():
    return (math
      .floor("a"))
f()
#| Traceback (most recent call last):
#|   File "<script>", line 5, in <module>
#|     f()
#|   File "<script>", line 3, in f
#|     return (math
#|             ^^^^
#| TypeError: must be real number, not str
---
import math
def f():
    math = 3
    return (math
      .floor("a"))
f()
#| Traceback (most recent call last):
#|   File "<script>", line 6, in <module>
#|     f()
#|   File "<script>", line 5, in f
#|     .floor("a"))
#|      ^^^^^
#| AttributeError: 'int' object has no attribute 'floor'
---
class R:
    def __repr__(self):
        raise ValueError("r")
x = 5
s = f"ab{x:zz}cd"
#| Traceback (most recent call last):
#|   File "<script>", line 5, in <module>
#|     s = f"ab{x:zz}cd"
#|             ^^^^^^
#| ValueError: Unknown format code 'z' for object of type 'int'
---
class R:
    def __repr__(self):
        raise ValueError("r")
x = 5
s = f"ab{R()!r:>3} {x}"
#| Traceback (most recent call last):
#|   File "<script>", line 5, in <module>
#|     s = f"ab{R()!r:>3} {x}"
#|             ^^^^^^^^^^
#|   File "<script>", line 3, in __repr__
#|     raise ValueError("r")
#| ValueError: r
---
x = 5
s = (f"ab{x}"
  f"q{x:zz}cd")
#| Traceback (most recent call last):
#|   File "<script>", line 3, in <module>
#|     f"q{x:zz}cd")
#|        ^^^^^^
#| ValueError: Unknown format code 'z' for object of type 'int'
---
x = 5
s = f"ab{x:{x}zz}cd"
#| Traceback (most recent call last):
#|   File "<script>", line 2, in <module>
#|     s = f"ab{x:{x}zz}cd"
#|             ^^^^^^^^^
#| ValueError: Invalid format specifier '5zz' for object of type 'int'
---
x = 5
s = f"""{x:{
2}{3}x{
x
}}"""
#| Traceback (most recent call last):
#|   File "<script>", line 2, in <module>
#|     s = f"""{x:{
#|             ^^^^
#| ValueError: Invalid format specifier '23x5' for object of type 'int'
---
def f(*a, **k):
    pass
def g(x):
    return x
f(k=g(1),
  *5)
#| Traceback (most recent call last):
#|   File "<script>", line 5, in <module>
#|     f(k=g(1),
#| TypeError: __main__.f() argument after * must be an iterable, not int
