def f(a: int, b: undefined_name = 2) -> int:
    return a
#| Traceback (most recent call last):
#|   File "<script>", line 1, in <module>
#|     def f(a: int, b: undefined_name = 2) -> int:
#|                      ^^^^^^^^^^^^^^
#| NameError: name 'undefined_name' is not defined
---
def f(a: int,
      b: (1 +
          "s")) -> int:
    return a
#| Traceback (most recent call last):
#|   File "<script>", line 2, in <module>
#|     b: (1 +
#|         ^^^
#| TypeError: unsupported operand type(s) for +: 'int' and 'str'
---
class K:
    x: int = 1
    y: (
        undefined_name)
#| Traceback (most recent call last):
#|   File "<script>", line 1, in <module>
#|     class K:
#|   File "<script>", line 4, in K
#|     undefined_name)
#|     ^^^^^^^^^^^^^^
#| NameError: name 'undefined_name' is not defined
---
class K:
    del __annotations__
    x: int = 1
#| Traceback (most recent call last):
#|   File "<script>", line 1, in <module>
#|     class K:
#|   File "<script>", line 3, in K
#|     x: int = 1
#| NameError: name '__annotations__' is not defined
---
x: int = 1
y: list[undefined_name]
#| Traceback (most recent call last):
#|   File "<script>", line 2, in <module>
#|     y: list[undefined_name]
#|             ^^^^^^^^^^^^^^
#| NameError: name 'undefined_name' is not defined
---
def g():
    o.x: int
g()
#| Traceback (most recent call last):
#|   File "<script>", line 3, in <module>
#|     g()
#|   File "<script>", line 2, in g
#|     o.x: int
#|     ^
#| NameError: name 'o' is not defined
---
d = {}
d[undefined_name]: int
#| Traceback (most recent call last):
#|   File "<script>", line 2, in <module>
#|     d[undefined_name]: int
#|       ^^^^^^^^^^^^^^
#| NameError: name 'undefined_name' is not defined
---
__annotations__ = None
x: int = 2
#| Traceback (most recent call last):
#|   File "<script>", line 2, in <module>
#|     x: int = 2
#| TypeError: 'NoneType' object does not support item assignment
