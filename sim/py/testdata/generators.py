# Generator functions: next, send, throw, close, yield from, PEP 479.
def batches(data, bs):
    for i in range(0, len(data), bs):
        yield data[i:i + bs]

for b in batches(list(range(7)), 3):
    print(b)
print(list(batches("abcdefg", 2)))
print(sum(x * x for x in batches([1, 2, 3], 1) for x in x))
g = batches([1, 2], 1)
print(type(g).__name__, g.__name__, g.__qualname__, iter(g) is g)
print(next(g), next(g), next(g, "end"))
#: [0, 1, 2]
#: [3, 4, 5]
#: [6]
#: ['ab', 'cd', 'ef', 'g']
#: 14
#: generator batches batches True
#: [1] [2] end
---
def gen():
    x = yield 1
    print("got", x)
    y = yield x * 2
    print("got", y)
    return x + y

g = gen()
print(g.send(None))
print(g.send(10))
try:
    g.send(5)
except StopIteration as e:
    print("stop", repr(e), e.value, e.args)
try:
    g.send(5)
except StopIteration as e:
    print("again", repr(e))
print(next(g, "dflt"))
#: 1
#: got 10
#: 20
#: got 5
#: stop StopIteration(15) 15 (15,)
#: again StopIteration()
#: dflt
---
def gen():
    yield 1
g = gen()
try:
    g.send(3)
except TypeError as e:
    print(e)
print(next(g))
for x in gen():
    print(x)
def ret_none():
    return None
    yield
try:
    next(ret_none())
except StopIteration as e:
    print(repr(e))
def ret_tuple():
    return (1, 2)
    yield
try:
    next(ret_tuple())
except StopIteration as e:
    print(repr(e), e.value)
#: can't send non-None value to a just-started generator
#: 1
#: 1
#: StopIteration()
#: StopIteration((1, 2)) (1, 2)
---
def gen2():
    try:
        yield 1
    except KeyError as e:
        print("caught", repr(e))
        yield 2
    yield 3
g = gen2()
print(next(g))
print(g.throw(KeyError("k")))
try:
    g.throw(TypeError("t"))
except TypeError as e:
    print("out", repr(e), repr(e.__context__))
print(next(g, "done"))
g = gen2()
try:
    g.throw(ValueError)
except ValueError as e:
    print("unstarted", repr(e))
print(next(g, "finished"))
g = gen2()
next(g)
print(g.throw(KeyError, "v"))
try:
    g.throw(1)
except TypeError as e:
    print(e)
#: 1
#: caught KeyError('k')
#: 2
#: out TypeError('t') KeyError('k')
#: done
#: unstarted ValueError()
#: finished
#: caught KeyError('v')
#: 2
#: exceptions must be classes or instances deriving from BaseException, not int
---
def gen():
    try:
        yield 1
        yield 2
    finally:
        print("finally")
g = gen()
print(next(g))
print(g.close())
print(g.close())
print(next(g, "closed"))
g = gen()
print(g.close(), "unstarted")
def gen6():
    try:
        yield 1
    finally:
        yield 2
g = gen6()
next(g)
try:
    g.close()
except RuntimeError as e:
    print(repr(e))
try:
    next(g)
except GeneratorExit:
    print("GeneratorExit re-raised")
def gen7():
    try:
        yield 1
    except GeneratorExit:
        print("exit seen")
        raise
g = gen7()
next(g)
g.close()
def gen8():
    try:
        yield 1
    except GeneratorExit:
        raise ValueError("bad close")
g = gen8()
next(g)
try:
    g.close()
except ValueError as e:
    print(repr(e), type(e.__context__).__name__)
def gen9():
    try:
        yield 1
    except GeneratorExit:
        return 5
g = gen9()
next(g)
print(g.close())
#: 1
#: finally
#: None
#: None
#: closed
#: None unstarted
#: RuntimeError('generator ignored GeneratorExit')
#: GeneratorExit re-raised
#: exit seen
#: ValueError('bad close') GeneratorExit
#: None
---
def inner():
    x = yield 1
    print("inner got", x)
    y = yield 2
    print("inner got", y)
    return "inner-result"

def outer():
    r = yield from inner()
    print("outer got", r)
    yield from [10, 11]
    r2 = yield from range(2)
    print("range result", r2)
    yield from (i * 3 for i in range(2))
    return "outer-result"

g = outer()
print(next(g))
print(g.send("a"))
print(g.send("b"))
print(list(g))
def twice():
    v = yield from outer()
    print("twice", v)
print(list(twice()))
#: 1
#: inner got a
#: 2
#: inner got b
#: outer got inner-result
#: 10
#: range result None
#: [11, 0, 1, 0, 3]
#: inner got None
#: inner got None
#: outer got inner-result
#: range result None
#: twice outer-result
#: [1, 2, 10, 11, 0, 1, 0, 3]
---
def inner():
    try:
        yield 1
        yield 2
    except KeyError:
        print("inner caught")
        yield "recovered"
    finally:
        print("inner finally")

def outer():
    try:
        yield from inner()
    finally:
        print("outer finally")
g = outer()
print(next(g))
print(g.throw(KeyError))
g.close()
print("--")
g = outer()
next(g)
try:
    g.throw(ValueError("v"))
except ValueError as e:
    print("propagated", e)
print("--")
g = outer()
next(g)
del g
print("deleted")
#: 1
#: inner caught
#: recovered
#: inner finally
#: outer finally
#: --
#: inner finally
#: outer finally
#: propagated v
#: --
#: inner finally
#: outer finally
#: deleted
---
def sub():
    yield 1
class It:
    def __init__(self):
        self.n = 0
    def __iter__(self):
        return self
    def __next__(self):
        self.n += 1
        if self.n > 3:
            raise StopIteration
        return self.n
    def send(self, v):
        print("It.send", v)
        return self.__next__()
    def throw(self, e):
        print("It.throw", repr(e))
        return 42
    def close(self):
        print("It.close")
def deleg():
    r = yield from It()
    print("result", r)
g = deleg()
print(next(g), g.send("x"), g.throw(KeyError("q")))
g.close()
g = deleg()
print(list(g))
#: It.send x
#: It.throw KeyError('q')
#: 1 2 42
#: It.close
#: result None
#: [1, 2, 3]
---
def gen3():
    yield 1
    raise StopIteration(5)
try:
    list(gen3())
except RuntimeError as e:
    print(repr(e), repr(e.__cause__), repr(e.__context__), e.__suppress_context__)
def gen4():
    next(iter([]))
    yield
try:
    next(gen4())
except RuntimeError as e:
    print(repr(e))
def gen5():
    yield g5.__next__()
g5 = gen5()
try:
    next(g5)
except ValueError as e:
    print(repr(e))
def gen6():
    print(g6.gi_running)
    yield g6.send(1)
g6 = gen6()
print(g6.gi_running)
try:
    next(g6)
except ValueError as e:
    print(repr(e))
#: RuntimeError('generator raised StopIteration') StopIteration(5) StopIteration(5) True
#: RuntimeError('generator raised StopIteration')
#: ValueError('generator already executing')
#: False
#: True
#: ValueError('generator already executing')
---
import sys
def gen():
    try:
        raise KeyError("a")
    except KeyError:
        yield sys.exc_info()[0].__name__
        yield sys.exc_info()[0].__name__
    yield sys.exc_info()[0]
g = gen()
print(next(g))
try:
    raise ValueError
except ValueError:
    print(sys.exc_info()[0].__name__)
    print(next(g))
    print(sys.exc_info()[0].__name__)
print(next(g))
print(sys.exc_info())
#: KeyError
#: ValueError
#: KeyError
#: ValueError
#: None
#: (None, None, None)
---
def gen(a, b=2, *args, k, **kw):
    yield a, b, args, k, kw
try:
    gen(1)
except TypeError as e:
    print(e)
try:
    gen()
except TypeError as e:
    print(e)
g = gen(1, k=3, z=4)
print(next(g))
print(next(gen(1, 2, 3, 4, k=5)))
#: gen() missing 1 required keyword-only argument: 'k'
#: gen() missing 1 required positional argument: 'a'
#: (1, 2, (), 3, {'z': 4})
#: (1, 2, (3, 4), 5, {})
---
class Model:
    def __init__(self, layers):
        self.layers = layers
    def parameters(self):
        for l in self.layers:
            yield from l
    def named(self, prefix=""):
        for i, l in enumerate(self.layers):
            for j, p in enumerate(l):
                yield f"{prefix}{i}.{j}", p
m = Model([[1, 2], [3]])
print(list(m.parameters()))
print(dict(m.named("m.")))
print(max(m.parameters()), sorted(m.parameters(), reverse=True))
def counter():
    n = 0
    def bump():
        nonlocal n
        n += 1
        yield n
    return bump
b = counter()
print(next(b()), next(b()), list(b()))
print(list(zip(m.parameters(), "abc")), list(enumerate(m.parameters())))
print(any(x > 2 for x in m.parameters()), 3 in m.parameters(), tuple(m.parameters()))
a, *rest = m.parameters()
print(a, rest)
f = lambda: (yield 1)
g = f()
print(next(g), next(g, "end"))
g = f()
next(g)
try:
    g.send(5)
except StopIteration as e:
    print(repr(e))
#: [1, 2, 3]
#: {'m.0.0': 1, 'm.0.1': 2, 'm.1.0': 3}
#: 3 [3, 2, 1]
#: 1 2 [3]
#: [(1, 'a'), (2, 'b'), (3, 'c')] [(0, 1), (1, 2), (2, 3)]
#: True True (1, 2, 3)
#: 1 [2, 3]
#: 1 end
#: StopIteration(5)
---
def gen():
    x = 0
    while True:
        x = yield x
        if x is None:
            break
        x += 1
g = gen()
print(next(g), g.send(1), g.send(10))
print(next(g, "stopped"))
def fib():
    a, b = 0, 1
    while True:
        yield a
        a, b = b, a + b
out = []
for i, v in enumerate(fib()):
    if i > 10:
        break
    out.append(v)
print(out)
#: 0 2 11
#: stopped
#: [0, 1, 1, 2, 3, 5, 8, 13, 21, 34, 55]
---
def gen():
    yield 1
g = gen()
r = repr(g)
print(r.startswith("<generator object gen at 0x"), r.endswith(">"))
def outer():
    def inner():
        yield
    return inner()
print(repr(outer()).split(" at ")[0])
class C:
    def m(self):
        yield
print(repr(C().m()).split(" at ")[0])
print(repr((x for x in [])).split(" at ")[0])
#: True True
#: <generator object outer.<locals>.inner
#: <generator object C.m
#: <generator object <genexpr>
---
def me_from():
    yield from me
me = me_from()
try:
    next(me)
except ValueError as e:
    print(repr(e))
def closes_itself():
    c.close()
    yield
c = closes_itself()
try:
    next(c)
except ValueError as e:
    print(repr(e))
def throws_itself():
    t.throw(KeyError)
    yield
t = throws_itself()
try:
    next(t)
except ValueError as e:
    print(repr(e))
print(next(t, "finished"))
#: ValueError('generator already executing')
#: ValueError('generator already executing')
#: ValueError('generator already executing')
#: finished
---
class CM:
    def __init__(self, name):
        self.name = name
    def __enter__(self):
        print("enter", self.name)
        return self
    def __exit__(self, typ, val, tb):
        print("exit", self.name, typ.__name__ if typ else None)
        return False
def gen():
    with CM("a") as a:
        yield 1
        with CM("b"):
            yield 2
    yield 3
g = gen()
print(next(g), next(g))
g.close()
g = gen()
next(g)
try:
    g.throw(KeyError("x"))
except KeyError as e:
    print("got", repr(e))
print(list(gen()))
#: enter a
#: enter b
#: 1 2
#: exit b GeneratorExit
#: exit a GeneratorExit
#: enter a
#: exit a KeyError
#: got KeyError('x')
#: enter a
#: enter b
#: exit b None
#: exit a None
#: [1, 2, 3]
---
def gen():
    for i in range(3):
        try:
            yield i
        except ValueError:
            print("skip", i)
            continue
        finally:
            print("finally", i)
g = gen()
print(next(g))
print(g.throw(ValueError))
print(g.send(None))
print(next(g, "end"))
#: 0
#: skip 0
#: finally 0
#: 1
#: finally 1
#: 2
#: finally 2
#: end
---
def chain(*its):
    for it in its:
        yield from it
def take(n, it):
    for x in it:
        if n <= 0:
            return
        n -= 1
        yield x
def naturals():
    n = 0
    while True:
        yield n
        n += 1
print(list(take(5, chain([1, 2], naturals()))))
import itertools
print(list(itertools.islice(naturals(), 3)))
squares = (x * x for x in take(4, naturals()))
print(list(squares))
def pairs(xs):
    it = iter(xs)
    for a in it:
        yield a, next(it, None)
print(list(pairs(range(5))))
print(dict(pairs("abcd")))
print(sorted(take(3, naturals()), key=lambda v: -v))
#: [1, 2, 0, 1, 2]
#: [0, 1, 2]
#: [0, 1, 4, 9]
#: [(0, 1), (2, 3), (4, None)]
#: {'a': 'b', 'c': 'd'}
#: [2, 1, 0]
---
def inner():
    for i in range(4):
        yield i
def outer(g):
    yield next(g)
    yield from g
i = inner()
o = outer(i)
print(next(o), next(i), next(o), next(i, "x"), list(o), list(i))
def ping(p):
    while True:
        v = yield
        if v > 3:
            return v
        p.send(v + 1)
def pong():
    while True:
        v = yield
        print("pong", v)
        if v > 2:
            break
        pinger.send(v + 1)
pinger = ping(pong_g := pong())
next(pinger)
next(pong_g)
try:
    pinger.send(1)
except ValueError as e:
    print(repr(e))
#: 0 1 2 3 [] []
#: pong 2
#: ValueError('generator already executing')
