def gen(n):
    for i in range(n):
        yield 10 // (i - 2)
for x in gen(5):
    pass
#| Traceback (most recent call last):
#|   File "<script>", line 4, in <module>
#|     for x in gen(5):
#|   File "<script>", line 3, in gen
#|     yield 10 // (i - 2)
#|           ~~~^^~~~~~~~~
#| ZeroDivisionError: integer division or modulo by zero
---
def gen():
    x = yield 1
    yield x + "s"
g = gen()
next(g)
g.send(1)
#| Traceback (most recent call last):
#|   File "<script>", line 6, in <module>
#|     g.send(1)
#|   File "<script>", line 3, in gen
#|     yield x + "s"
#|           ~~^~~~~
#| TypeError: unsupported operand type(s) for +: 'int' and 'str'
---
def gen():
    yield 1
g = gen()
g.throw(ValueError("x"))
#| Traceback (most recent call last):
#|   File "<script>", line 4, in <module>
#|     g.throw(ValueError("x"))
#|   File "<script>", line 1, in gen
#|     def gen():
#| ValueError: x
---
def gen():
    try:
        yield 1
    except KeyError:
        yield 2
g = gen()
next(g)
g.throw(KeyError("k"))
g.throw(TypeError("t"))
#| Traceback (most recent call last):
#|   File "<script>", line 3, in gen
#|     yield 1
#| KeyError: 'k'
#|
#| During handling of the above exception, another exception occurred:
#|
#| Traceback (most recent call last):
#|   File "<script>", line 9, in <module>
#|     g.throw(TypeError("t"))
#|   File "<script>", line 5, in gen
#|     yield 2
#| TypeError: t
---
def gen():
    yield 1
    raise StopIteration(5)
list(gen())
#| Traceback (most recent call last):
#|   File "<script>", line 3, in gen
#|     raise StopIteration(5)
#| StopIteration: 5
#|
#| The above exception was the direct cause of the following exception:
#|
#| Traceback (most recent call last):
#|   File "<script>", line 4, in <module>
#|     list(gen())
#| RuntimeError: generator raised StopIteration
---
def inner():
    yield 1
    return 1 / 0
def outer():
    r = yield from inner()
    yield r
list(outer())
#| Traceback (most recent call last):
#|   File "<script>", line 7, in <module>
#|     list(outer())
#|   File "<script>", line 5, in outer
#|     r = yield from inner()
#|         ^^^^^^^^^^^^^^^^^^
#|   File "<script>", line 3, in inner
#|     return 1 / 0
#|            ~~^~~
#| ZeroDivisionError: division by zero
---
def inner():
    yield 1
def outer():
    yield from inner()
g = outer()
next(g)
g.throw(KeyError("deep"))
#| Traceback (most recent call last):
#|   File "<script>", line 7, in <module>
#|     g.throw(KeyError("deep"))
#|   File "<script>", line 4, in outer
#|     yield from inner()
#|   File "<script>", line 2, in inner
#|     yield 1
#| KeyError: 'deep'
---
def gen():
    try:
        yield 1
    finally:
        yield 2
g = gen()
next(g)
g.close()
#| Traceback (most recent call last):
#|   File "<script>", line 8, in <module>
#|     g.close()
#| RuntimeError: generator ignored GeneratorExit
---
def gen():
    yield g.send(None)
g = gen()
next(g)
#| Traceback (most recent call last):
#|   File "<script>", line 4, in <module>
#|     next(g)
#|   File "<script>", line 2, in gen
#|     yield g.send(None)
#|           ^^^^^^^^^^^^
#| ValueError: generator already executing
---
def gen(a, b):
    yield a
gen(1)
#| Traceback (most recent call last):
#|   File "<script>", line 3, in <module>
#|     gen(1)
#| TypeError: gen() missing 1 required positional argument: 'b'
---
def gen():
    value = (yield)
    yield value.missing
g = gen()
next(g)
g.send(3)
#| Traceback (most recent call last):
#|   File "<script>", line 6, in <module>
#|     g.send(3)
#|   File "<script>", line 3, in gen
#|     yield value.missing
#|           ^^^^^^^^^^^^^
#| AttributeError: 'int' object has no attribute 'missing'
---
def gen():
    yield from 5
list(gen())
#| Traceback (most recent call last):
#|   File "<script>", line 3, in <module>
#|     list(gen())
#|   File "<script>", line 2, in gen
#|     yield from 5
#| TypeError: 'int' object is not iterable
