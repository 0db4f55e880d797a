def gen():
    x = 1
    yield x
    y = 2
    yield (x +
           y)
    z = yield
    return 3
g = gen()
for v in g:
    pass
---
def g2():
    try:
        yield 1
        yield 2
    finally:
        print("fin")
h = g2()
next(h)
h.close()
---
def gen():
    yield 1
def g3():
    yield from gen()
    yield from [1,
       2]
    r = yield from (
        gen())
list(g3())
---
def gen():
    for i in range(3):
        if i:
            yield i
        else:
            yield (
                i)
print(sum(gen()))
---
def gen():
    try:
        yield 1
    except KeyError:
        x = 1
        yield 2
    yield 3
g = gen()
next(g)
g.throw(KeyError)
next(g)
next(g, None)
---
def gen():
    while True:
        v = yield
        if v is None:
            return
g = gen()
next(g)
g.send(1)
g.send(2)
next(g, None)
---
def gen():
    try:
        yield 1
    finally:
        x = 2
g = gen()
next(g)
del g
y = 3
---
def gen():
    yield 1; yield 2
    x = (yield
         3)
print(list(gen()))
---
def gen(): yield 1
print(list(gen()))
f = lambda: (yield 1)
print(list(f()))
---
def gen():
    yield 1
    raise ValueError
try:
    for x in gen():
        pass
except ValueError:
    pass
