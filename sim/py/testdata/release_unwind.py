# Exceptions unwinding: pending temporaries are popped off the value stack
# from the top (the most recent push first).
class D:
    def __init__(self, name):
        self.name = name
    def __del__(self):
        print("del", self.name)
    def __add__(self, o):
        return D(self.name + "+" + o.name)
    def __getitem__(self, k):
        return D(self.name + "[]")
    def m(self, *a, **k):
        return D("r")
def boom():
    raise ValueError("boom")
def f(*a, **k):
    pass
def t(s):
    try:
        s()
    except ValueError:
        print("caught")

t(lambda: f(D("a"), D("b"), boom()))
t(lambda: f(D("a"), k=D("k"), j=boom()))
t(lambda: f(D("a"), *[D("s")], D("b"), boom()))
t(lambda: f(D("a"), *[D("s")], k=D("k"), **{"x": D("x")}, j=D("j"), q=boom()))
t(lambda: f(*[D("s")], k=D("k"), j=boom()))
t(lambda: f(*[D("s")], **{"x": D("x")}, j=boom()))
t(lambda: D("self").m(D("a"), boom()))
t(lambda: D("self").m(D("a"), *[boom()]))
print("end")
#: del b
#: del a
#: caught
#: del k
#: del a
#: caught
#: del b
#: del s
#: del a
#: caught
#: del j
#: del k
#: del x
#: del s
#: del a
#: caught
#: del k
#: del s
#: caught
#: del x
#: del s
#: caught
#: del a
#: del self
#: caught
#: del a
#: del self
#: caught
#: end
---
class D:
    def __init__(self, name):
        self.name = name
    def __del__(self):
        print("del", self.name)
    def __add__(self, o):
        return D(self.name + "+" + o.name)
    def __getitem__(self, k):
        return D(self.name + "[]")
    def m(self, *a, **k):
        return D("r")
def boom():
    raise ValueError("boom")
def f(*a, **k):
    pass
def t(s):
    try:
        s()
    except ValueError:
        print("caught")

t(lambda: [D("a"), D("b"), boom()])
t(lambda: (D("a"), D("b"), boom()))
t(lambda: {D("a"), D("b"), boom()})
t(lambda: {"a": D("a"), "b": D("b"), "c": boom()})
t(lambda: {"a": D("a"), D("bk"): boom()})
t(lambda: {"a": D("a"), **{"b": D("b")}, "c": boom()})
t(lambda: [D("a"), *[D("s1"), D("s2")], D("b"), boom()])
t(lambda: (D("a"), *[D("s1")], D("b"), boom()))
print("end")
#: del b
#: del a
#: caught
#: del b
#: del a
#: caught
#: del b
#: del a
#: caught
#: del b
#: del a
#: caught
#: del bk
#: del a
#: caught
#: del a
#: del b
#: caught
#: del b
#: del s2
#: del s1
#: del a
#: caught
#: del b
#: del s1
#: del a
#: caught
#: end
---
class D:
    def __init__(self, name):
        self.name = name
    def __del__(self):
        print("del", self.name)
    def __add__(self, o):
        return D(self.name + "+" + o.name)
    def __getitem__(self, k):
        return D(self.name + "[]")
    def m(self, *a, **k):
        return D("r")
def boom():
    raise ValueError("boom")
def f(*a, **k):
    pass
def t(s):
    try:
        s()
    except ValueError:
        print("caught")

t(lambda: D("a") + (D("b") + boom()))
t(lambda: D("a")[D("b"), boom()])
t(lambda: D("a")[D("b"):boom()])
t(lambda: D("a").m(D("b")) + boom())
t(lambda: D("x") if boom() else D("y"))
t(lambda: D("a") and boom())
t(lambda: f'{D("a").name}{boom()}')
t(lambda: [D("c") for _ in range(2)] + [boom()])
print("end")
#: del b
#: del a
#: caught
#: del b
#: del a
#: caught
#: del b
#: del a
#: caught
#: del a
#: del b
#: del r
#: caught
#: caught
#: del a
#: caught
#: del a
#: caught
#: del c
#: del c
#: caught
#: end
---
class D:
    def __init__(self, name):
        self.name = name
    def __del__(self):
        print("del", self.name)
    def __add__(self, o):
        return D(self.name + "+" + o.name)
    def __getitem__(self, k):
        return D(self.name + "[]")
    def m(self, *a, **k):
        return D("r")
def boom():
    raise ValueError("boom")
def f(*a, **k):
    pass
def t(s):
    try:
        s()
    except ValueError:
        print("caught")

def g():
    x = [D(i) for i in ("a", "b", "c") if i != "c" or boom()]
def h():
    return {i: D(i) for i in "ab"} | {boom(): 1}
def k():
    return [D("outer")] + [D(i) + boom() for i in "ab"]
t(g)
t(h)
t(k)
print("end")
#: del b
#: del a
#: caught
#: del a
#: del b
#: caught
#: del a
#: del outer
#: caught
#: end
---
class D:
    def __init__(self, name):
        self.name = name
    def __del__(self):
        print("del", self.name)
    def __add__(self, o):
        return D(self.name + "+" + o.name)
    def __getitem__(self, k):
        return D(self.name + "[]")
    def m(self, *a, **k):
        return D("r")
def boom():
    raise ValueError("boom")
def f(*a, **k):
    pass
def t(s):
    try:
        s()
    except ValueError:
        print("caught")

class CM:
    def __init__(self, name):
        self.name = name
    def __del__(self):
        print("del", self.name)
    def __enter__(self):
        print("enter", self.name)
        return D("as-" + self.name)
    def __exit__(self, *a):
        print("exit", self.name)
        return False
def w():
    with CM("c1") as a, CM("c2") as b:
        D("tmp") + boom()
t(w)
def w2():
    with CM("c3"):
        return D("ret")
print(w2().name)
def w3():
    with CM("c4") as x:
        pass
    print("after with")
w3()
print("end")
#: enter c1
#: enter c2
#: del tmp
#: exit c2
#: del c2
#: exit c1
#: del c1
#: caught
#: del as-c1
#: del as-c2
#: enter c3
#: del as-c3
#: exit c3
#: del c3
#: del ret
#: ret
#: enter c4
#: exit c4
#: del c4
#: after with
#: del as-c4
#: end
---
class D:
    def __init__(self, name):
        self.name = name
    def __del__(self):
        print("del", self.name)
def boom():
    raise ValueError("boom")
def t(s):
    try:
        s()
    except ValueError:
        print("caught")

d = {"a": D("1"), "a": D("2"), "b": D("3")}
print("--")
del d
t(lambda: {i: D(str(i)) for i in range(3)} | {boom(): 0})
t(lambda: {0: D("0"), 1: D("1"), 2: D("2"), 3: D("3"), 4: D("4"), 5: D("5"), 6: D("6"), 7: D("7"), 8: D("8"), 9: D("9"), 10: D("10"), 11: D("11"), 12: D("12"), 13: D("13"), 14: boom()})
print(15)
t(lambda: {0: D("0"), 1: D("1"), 2: D("2"), 3: D("3"), 4: D("4"), 5: D("5"), 6: D("6"), 7: D("7"), 8: D("8"), 9: D("9"), 10: D("10"), 11: D("11"), 12: D("12"), 13: D("13"), 14: D("14"), 15: boom()})
print(16)
t(lambda: {0: D("0"), 1: D("1"), 2: D("2"), 3: D("3"), 4: D("4"), 5: D("5"), 6: D("6"), 7: D("7"), 8: D("8"), 9: D("9"), 10: D("10"), 11: D("11"), 12: D("12"), 13: D("13"), 14: D("14"), 15: D("15"), 16: boom()})
print(17)
t(lambda: {0: D("0"), 1: D("1"), 2: D("2"), 3: D("3"), 4: D("4"), 5: D("5"), 6: D("6"), 7: D("7"), 8: D("8"), 9: D("9"), 10: D("10"), 11: D("11"), 12: D("12"), 13: D("13"), 14: D("14"), 15: D("15"), 16: D("16"), 17: boom()})
print(18)
t(lambda: {0: D("0"), 1: D("1"), 2: D("2"), 3: D("3"), 4: D("4"), 5: D("5"), 6: D("6"), 7: D("7"), 8: D("8"), 9: D("9"), 10: D("10"), 11: D("11"), 12: D("12"), 13: D("13"), 14: D("14"), 15: D("15"), 16: D("16"), 17: D("17"), 18: D("18"), 19: D("19"), 20: D("20"), 21: D("21"), 22: D("22"), 23: D("23"), 24: D("24"), 25: D("25"), 26: D("26"), 27: D("27"), 28: D("28"), 29: D("29"), 30: D("30"), 31: D("31"), 32: D("32"), 33: boom()})
print(34)
t(lambda: {0: D("0"), 1: D("1"), 2: D("2"), 3: D("3"), 4: D("4"), 5: D("5"), 6: D("6"), 7: D("7"), 8: D("8"), 9: D("9"), 10: D("10"), 11: D("11"), 12: D("12"), 13: D("13"), 14: D("14"), 15: D("15"), 16: D("16"), 17: D("17"), 18: D("18"), 19: D("19"), 20: D("20"), 21: D("21"), 22: D("22"), 23: D("23"), 24: D("24"), 25: D("25"), 26: D("26"), 27: D("27"), 28: D("28"), 29: D("29"), 30: D("30"), 31: D("31"), 32: D("32"), 33: D("33"), 34: boom()})
print(35)
t(lambda: {0: D("0"), 1: D("1"), 2: D("2"), 3: D("3"), 4: D("4"), 5: D("5"), 6: D("6"), 7: D("7"), 8: D("8"), 9: D("9"), 10: D("10"), 11: D("11"), 12: D("12"), 13: D("13"), 14: D("14"), 15: D("15"), 16: D("16"), 17: D("17"), 18: D("18"), 19: D("19"), **{"x": D("x")}, 99: D("99"), 100: boom()})
x = {0: D("0"), 1: D("1"), 2: D("2"), 3: D("3"), 4: D("4"), 5: D("5"), 6: D("6"), 7: D("7"), 8: D("8"), 9: D("9"), 10: D("10"), 11: D("11"), 12: D("12"), 13: D("13"), 14: D("14"), 15: D("15"), 16: D("16"), 17: D("17"), 18: D("18"), 19: D("19"), 5: D("dup")}
print("built")
del x
#: del 1
#: --
#: del 2
#: del 3
#: del 0
#: del 1
#: del 2
#: caught
#: del 13
#: del 12
#: del 11
#: del 10
#: del 9
#: del 8
#: del 7
#: del 6
#: del 5
#: del 4
#: del 3
#: del 2
#: del 1
#: del 0
#: caught
#: 15
#: del 0
#: del 1
#: del 2
#: del 3
#: del 4
#: del 5
#: del 6
#: del 7
#: del 8
#: del 9
#: del 10
#: del 11
#: del 12
#: del 13
#: del 14
#: caught
#: 16
#: del 0
#: del 1
#: del 2
#: del 3
#: del 4
#: del 5
#: del 6
#: del 7
#: del 8
#: del 9
#: del 10
#: del 11
#: del 12
#: del 13
#: del 14
#: del 15
#: caught
#: 17
#: del 0
#: del 1
#: del 2
#: del 3
#: del 4
#: del 5
#: del 6
#: del 7
#: del 8
#: del 9
#: del 10
#: del 11
#: del 12
#: del 13
#: del 14
#: del 15
#: del 16
#: caught
#: 18
#: del 17
#: del 18
#: del 19
#: del 20
#: del 21
#: del 22
#: del 23
#: del 24
#: del 25
#: del 26
#: del 27
#: del 28
#: del 29
#: del 30
#: del 31
#: del 32
#: del 0
#: del 1
#: del 2
#: del 3
#: del 4
#: del 5
#: del 6
#: del 7
#: del 8
#: del 9
#: del 10
#: del 11
#: del 12
#: del 13
#: del 14
#: del 15
#: del 16
#: caught
#: 34
#: del 0
#: del 1
#: del 2
#: del 3
#: del 4
#: del 5
#: del 6
#: del 7
#: del 8
#: del 9
#: del 10
#: del 11
#: del 12
#: del 13
#: del 14
#: del 15
#: del 16
#: del 17
#: del 18
#: del 19
#: del 20
#: del 21
#: del 22
#: del 23
#: del 24
#: del 25
#: del 26
#: del 27
#: del 28
#: del 29
#: del 30
#: del 31
#: del 32
#: del 33
#: caught
#: 35
#: del 99
#: del 0
#: del 1
#: del 2
#: del 3
#: del 4
#: del 5
#: del 6
#: del 7
#: del 8
#: del 9
#: del 10
#: del 11
#: del 12
#: del 13
#: del 14
#: del 15
#: del 16
#: del 17
#: del 18
#: del 19
#: del x
#: caught
#: del 5
#: built
#: del 0
#: del 1
#: del 2
#: del 3
#: del 4
#: del dup
#: del 6
#: del 7
#: del 8
#: del 9
#: del 10
#: del 11
#: del 12
#: del 13
#: del 14
#: del 15
#: del 16
#: del 17
#: del 18
#: del 19
---
class D:
    def __init__(self, name):
        self.name = name
    def __del__(self):
        print("del", self.name)
    def __lt__(self, o):
        return True
    def __getitem__(self, k):
        return 1
    def __setitem__(self, k, v):
        pass
def boom():
    raise ValueError("boom")
def t(s):
    try:
        s()
    except ValueError:
        print("caught")
class H:
    pass
h = H()

def a():
    D("obj")[D("key")] = boom()
def b():
    D("obj")[D("key")] += boom()
def c():
    return D("x") < D("y") < boom()
def d():
    h.attr = D("v"), boom()
def e():
    x, y = D("a"), boom()
def f():
    return [D("c") for i in range(2) if boom()]
def g():
    return D("a"), [D("b"), D("c") + boom()]
def i():
    return print(D("p"), sep=boom())
def j():
    return slice(D("a"), D("b"), boom())
def k():
    return not (D("n") and boom())
def l():
    D("t")[D("k1"), D("k2"):boom()]
def m():
    return (lambda *a: 0)(D("a"), *(D("b"), boom()))
for fn in (a, b, c, d, e, f, g, i, j, k, l, m):
    t(fn)
print("end")
#: caught
#: del key
#: del obj
#: caught
#: del x
#: del y
#: caught
#: del v
#: caught
#: del a
#: caught
#: caught
#: del c
#: del b
#: del a
#: caught
#: del p
#: caught
#: del b
#: del a
#: caught
#: del n
#: caught
#: del k2
#: del k1
#: del t
#: caught
#: del b
#: del a
#: caught
#: end
---
class D:
    def __init__(self, name):
        self.name = name
    def __del__(self):
        print("del", self.name)
    def __lt__(self, o):
        return True
    def __getitem__(self, k):
        return 1
    def __setitem__(self, k, v):
        pass
def boom():
    raise ValueError("boom")
def t(s):
    try:
        s()
    except ValueError:
        print("caught")
class H:
    pass
h = H()

class CM:
    def __init__(self, name):
        self.name = name
    def __del__(self):
        print("del", self.name)
    def __enter__(self):
        return self
    def __exit__(self, *a):
        print("exit", self.name)
def w():
    with CM("a") as a, CM("b"), D("notcm"):
        print("body")
t(w)
def w2():
    with CM("x"), CM(boom()):
        pass
t(w2)
print("end")
#: del notcm
#: exit b
#: del b
#: exit a
#: del a
### "TypeError: 'D' object does not support the context manager protocol"
