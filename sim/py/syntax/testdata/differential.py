x = (1 +
---
x = (1 +
y = 2
---
if x
  pass
---
if x:
pass
---
if x:
    a
  b
---
  x = 1
---
x = 1
  y = 2
---
f() = 1
---
f() += 1
---
1 = x
---
[a b]
---
f(a b)
---
x = 'abc
---
x = '''abc
---
x = 1abc
---
x = 012
---
x = $
---
x = a ! b
---
print 'x'
---
x = )
---
x = (]
---
x = (

]
---
if x = 1:
  pass
---
f(a.b=1)
---
f(a=1, 2)
---
def f(a=1, b): pass
---
return 1
---
break
---
x = f'{'
---
x = f'{}'
---
x = f'}'
---
x = f'{x!z}'
---
x = f'{a b}'  # nocol
---
x = \
---
x = 1 \ 2
---
def f(a, a): pass
---
f(a=1, a=2)
---
x = *a
---
*a = 1
---
a, *b, *c = 1
---
del f()
---
for f() in x: pass
---
try:
  pass
x = 1
---
x = 1 if y
---
f(x for x in y, 1)
---
from a import b,
---
x = 'a' 'b
---
x = ‘a’
---
x = b'é'
---
if x:
	pass
        pass
---
x = [1, 2
y = 3
---
x = {1: 2, 3}
---
class A(
---
x.1
---
a + = 1
---
f(**a, *b)
---
f(**a, b)
---
x = 0b102
---
x = 0x
---
x = 1_
---
x = 1__0
---
x = '\x1'
---
x = b'\x1'
---
else:
  pass
---
def f(:
  pass
---
x = [i for i in range(3) if]
---
x ++= 1
---
import a.b as c.d
---
x = a if b else
---
with open(x) as f, open(y) as g
  pass
---
x = (a, b = 3)
---
a = 1; ; b = 2
---
def f():
    return
  x = 1
---
for x in range(3):
    pass
  else:
    pass
---
x = {**a: 1}
---
f(*)
---
nonlocal x
---
def f():
    x = 1
    global x
---
(a, b) += 1
---
x = not
---
True = 1
---
x.None = 1
---
f(True=1)
---
class A:
pass
---
def f():
pass
---
for x in y:
pass
---
while x:
pass
---
with x:
pass
---
try:
pass
---
try:
  pass
except:
pass
---
try:
  pass
finally:
pass
---
if x:
  pass
else:
pass
---
if x:
  pass
elif y:
pass
---
if x: pass
else:
  pass
  else:
  pass
---
x = [
  1,
  2
---
x = (1, 2))
---
import a.b as c
---
import a, b
---
from a.b import c, d as e
---
from a import (x, y)
---
from a import (x,
    y,
)
---
from a import *
---
def f(a, b=1, *args, c, d=2, **kwargs):
    pass
---
def f(a, /, b, *, c):
    return a
---
def f(*, a=1): pass
---
def f(a: int, b: "str" = "x", *args: int, **kw: dict) -> None:
    ...
---
class A: pass
---
class A(B, C, metaclass=M, **kw):
    x: int = 3
    y: list[int]
    def f(self): return self.x
---
@property
def f(self): pass
---
@staticmethod
@torch.no_grad()
@a.b[1](2)
def f(): pass
---
f = lambda: 0
g = lambda x, *a, y=1, **k: (x, a, y, k)
---
if a:
    pass
elif b:
    pass
elif c: pass
else:
    pass
---
for i in range(3):
    if i: break
    else: continue
else:
    pass
---
while x:
    x -= 1
else:
    y = 2
---
with a as b, c as (d, e), f:
    pass
---
with (a as b, c as d):
    pass
---
with (a, b):
    pass
---
with (a, b) as c:
    pass
---
with (yield_) as c: pass
---
with (open(x)) as f, (open(y)):
    pass
---
with (a.b as c,):
    pass
---
try:
    pass
except E as e:
    pass
except (A, B):
    pass
except:
    pass
else:
    pass
finally:
    pass
---
try:
    pass
finally:
    pass
---
raise
---
raise X from Y
---
raise X("msg") from None
---
assert x
assert x, "msg"
---
del a, b.c, d[0], (e, f), [g]
---
del (a), [b, c]
---
del a,
---
def f():
    global a, b
    nonlocal_ = 1
    def g():
        nonlocal nonlocal_
---
a = b = c = 1
a, b = b, a
a, *b = c
[a, b] = c
(a, b), c = d
a.b = c[1] = d[1:2] = 3
x, = y
*a, b = c
[*a, b] = c
---
x += 1; x -= 1; x *= 2; x /= 2; x //= 2; x %= 2; x **= 2; x @= y
x >>= 1; x <<= 1; x &= 1; x |= 1; x ^= 1
a.b += 1; a[0] -= 1
---
x: int = 3
(y): int = 4
a.b: str
c[0]: float = 1.0
---
x = -2**2
y = 2**-1
z = not a and b or c
w = a if b else c if d else e
v = a < b < c <= d != e is not f not in g in h is i
u = a | b ^ c & d << e >> f + g - h * i / j // k % l @ m
t = ~a + -b - +c
---
if (n := len(a)) > 10: pass
print(y := 3)
[y for x in data if (y := f(x))]
---
a = [x for x in y]
b = {x for x in y}
c = {k: v for k, v in d.items()}
d = (x for x in y)
e = [x for x in y if x if not x for z in x]
f = [(a, b) for a in range(3) for b in range(a)]
g = sum(x for x in y)
h = f(x for x in y)
i = [x for x, in y]
j = [*a for a in b] if False else None
---
f(*args, **kwargs)
f(a, *b, c, *d, e=1, **f, g=2)
f(a, b=1, *c, **d)
f(**a, b=1)
f(x, )
---
x[:, 0]
x[..., None]
x[1:2, ::3]
x[::]
x[:]
x[a:b:c]
x[1:]
x[:-1]
x[::-1]
x[i, j]
x[i,]
x[()]
x[*a]
x[a:=1]
x[1:2, *b]
---
a = [*b, *c]
b = (*c, d)
c = {*a, *b}
d = {**a, 'b': 1, **c}
e = *a, b
f = ()
g = (1,)
h = [1, 2, 3,]
i = {1: 2,}
---
s = "abc" 'def' """ghi""" '''jkl'''
t = r"\d" R'\w' u"x" U'y'
b = b"abc" rb"\x00" Br'\n' B"x"
---
f"{x}"
f'{x!r}' f"{x!s:>10}" f"{x!a}"
f"{x:{width}.{precision}f}"
f"{x=}" f"{x = }" f"{x=!s}" f"{x=:10}"
f"{{literal}}" f"}}{{"
rf"\d{x}" fr'{x}\n' F"{x}" Rf"{x}"
f"{'nested'}" f'{"nested"}'
f"{a['b']}"
f"""{
x
}"""
f"{x:}" f"{x!r:}"
f"{ x }"
f"{x:%Y-%m-%d}"
f"{3.14:.2f} {1e3:,}"
f"{a, b}"
f"{(lambda: 1)()}"
f"{x:{'>'}{10}}"
f"{x!r:^{w}}"
f"{d['k']!r}"
---
x = 1_000_000
y = 0x_ff + 0XFF + 0o17 + 0O17 + 0b1010 + 0B1
z = 1e-3 + .5 + 1_0.0 + 1. + 1.5e+10 + 1E5 + 0.0 + 00.5
w = 1j + 2.5J + 1e3j + 0j
v = 0 + 00 + 0_0
u = 123456789012345678901234567890
t = 1if x else 2
---
s = '\x41\u0042\U00000043\101\n\t\\\'\"\a\b\f\v\0'
b = b'\x41\101\n'
t = '\d\w'
---
x = (1 +
     2)
y = [1,
2]
z = 1 + \
    2
---
if x:
	pass
---
if x:
    # comment

    pass
# trailing comment
---
def f():
    pass
    
  
x = 1
---
class A:
    def f(self):
        if x:
            return 1
        return 2
x = A()
---
x = 1 # no newline at end
---
pass;
---
x = 1; y = 2;
---
if x: a = 1; b = 2
---
print(1, end="")
---
match = 1
match.x = 2
match[1] = 3
print(match)
type = 3
type(x)
case = 1
_ = 2
---
x = f"{'a' if b else 'c'}"
---
y = x if x else(1)
---
a = b[c](d).e[f:g]
---
x = [
    1,  # one
    2,  # two
]
---
def f(a, b): return a, b
def g(*a): return *a, 1
---
for x, *y in z: pass
for [a, b] in c: pass
for (a), b in c: pass
for x in *a, *b: pass
---
a = not not not x
b = - - - x
c = lambda: lambda: lambda: 0
---
x = (yield_ := 1)
---
print(*[1], *(2,), sep='')
---
x = {}
y = {1}
z = {1: 2}
---
assert isinstance(x, (int, float)), f"bad {x!r}"
---
x = = 1
---
x = 1 +
---
def f(:
    pass
---
class A(:
    pass
---
for x in :
    pass
---
if True:
    x = 1
     y = 2
---
def f():
    return 1
  x = 2
---
x = """abc
---
x = (1, 2
y = 3
---
x = [1, 2
---
x = {1: 2
---
foo(1, 2
---
print "hello"
---
exec "code"
---
a b
---
[1 2]
---
{1 2}
---
(a b c)
---
x[1 2]
---
if x = 1:
    pass
---
while x = 1:
    pass
---
a + 1 = 2
---
a + 1 += 2
---
[a, f()] = 1
---
a, f() = 1, 2
---
x = f() = 1
---
del a + b
---
del *a
---
for 1 in x: pass
---
with a as f(): pass
---
[x for 1 in y]
---
None = 1
---
... = 1
---
'a' = 1
---
f"x" = 1
---
return
---
continue
---
def f():
    break
---
for x in y:
    def g():
        continue
---
class A:
    return 1
---
def f(a, *, a): pass
---
lambda a, a: 1
---
f(**a, 2)
---
f(1, x for x in y)
---
f(1=2)
---
def f(*): pass
---
def f(*, **k): pass
---
def f(**k, a): pass
---
def f(a, /, /): pass
---
def f(/): pass
---
def f(*a=1): pass
---
def f(*a, *b): pass
---
x = 1 if y else
---
x = lambda: 
---
from a import (b, c
---
import
---
from a import
---
x = 0b2
---
x = 0o8
---
x = 0xg
---
x = 1e
---
x = 1.2.3
---
x = '\u12'
---
x = b'a' 'b'
---
x = 'a' b'b'
---
x = ]
---
x = [
    1,
)
---
if x:
    pass
  else:
    pass
---
if x:
        pass
	pass
---
try:
    pass
x = 1
---
try:
    pass
---
try:
    pass
except:
pass
---
try:
    pass
except E, F:
    pass
---
try:
    pass
except E
    pass
---
try
    pass
except:
    pass
---
else:
    pass
---
elif x:
    pass
---
if x:
    pass
elif y
    pass
---
while x
    pass
---
for x in y
    pass
---
with x
    pass
---
class A
    pass
---
def f()
    pass
---
def f
    pass
---
def f(): -> int
    pass
---
x = f'{x!}'
---
x = f'{x'  # nocol
---
x = f'{#}'
---
x = f"{x:{y:{z:{w}}}}"
---
x = f'{)}'
---
x = 1 +* 2
---
x = {1: 2, 3: }
---
[a] += 1
---
x: int, y: int = 1, 2
---
a, b: int
---
[a]: int
---
f(): int
---
x = (*a)
---
print(*a for a in b)
---
[*a for a in b]
---
x = <>
---
x = 1 if 2
y = 3
---
def f():
    print(x)
    global x
---
def f(x):
    global x
---
x = (1 +
     2
y = 3
---
x = [1, 2,
     3
def f():
    pass
---
if x:
    a = 1
        b = 2
---
def f():
---
class A:
---
for x in y:
---
x = [
---
x = (
    1,
    2,
---
"""unterminated
docstring
---
a = 1
b = (
c = 3
---
f(a)(b c)
---
print("a" "b" c)
---
x = [1, 2 3]
---
x = lambda x=1, y: x
---
import a as
---
f"{lambda: 1}"  # nocol
---
f(), a = 1, 2
---
x, f() = 1
---
(a, f()) = 1
---
a, f() = b = 1
---
a, (f()) = 1
---
f() = 1, 2
---
a, b + 1 = 1
---
a, f() = not b
---
a, f() = 1 < 2
---
f() = 1 < 2
---
f() = not 1
---
x = a, f() = 1
---
a, *f() = 1
---
a, f().b, g() = 1
---
f() = yield_
---
f() = *a, b
---
f(x for x in y,)
---
f(x for x in y)(1)
---
def f(*,): pass
---
lambda *: 1
---
lambda *, **k: 1
---
x = 'a' 'b' b'c'
---
x = f'{x!'
---
x = f'{x!r'
---
x = f'{x:'
---
x = {1: }
---
x = {1:}
---
{*a for a in b}
---
{**a for a in b}
---
del *a, b
---
del (a, *b)
---
if x:
  pass
 else:
  pass
---
f(**a, *b, c)
---
x = 'a' \
  'b' c
---
x = (a for a in b, c)
---
f(a, b for b in c)
---
x = [a for a in b, c]
---
with a as b c: pass
---
def f() -> : pass
---
def f():
    import x
    global x
---
def f():
    x: int
    global x
---
x: int
global x
---
x = 1
global x
---
def f():
    def x(): pass
    global x
---
def f():
    for x in y: pass
    global x
---
def f():
    nonlocal x
---
def f():
    x = 1
    def g():
        nonlocal x
---
def f():
    x = 1
    class C:
        def g():
            nonlocal x
---
def f():
  def g():
    nonlocal x
  x = 2
---
def f():
    global x
    nonlocal x
---
def f():
    x = 1
    def g():
        global x
        nonlocal x
---
def f():
    global x
    x: int = 1
---
def f():
    [x for x in y]
    global x
---
def f():
    lambda: x
    global x
---
def f():
    del x
    global x
---
def f(a, a):
    nonlocal b
---
def f():
    nonlocal b
def g(a, a): pass
---
def f():
    x += 1
    global x
---
class A:
    x = 1
    global x
---
def f():
    global x, x
---
def f():
    (x := 1)
    global x
---
def f():
    with a as x: pass
    global x
---
def f():
    try: pass
    except E as x: pass
    global x
---
yield 1
---
x = yield
---
class C:
    yield 1
---
def f():
    [ (yield x) for x in y]
---
def f():
    {(yield x) for x in y}
---
def f():
    {x: (yield) for x in y}
---
def f():
    list((yield x) for x in y)
---
def f():
    [x for x in (yield)]
---
def f(a=(yield)): pass
---
def f(a: (yield)): pass
---
def f():
    def g(a: (yield)): pass
---
def f():
    return yield 1
---
def f():
    f(yield 1)
---
def f():
    x = 1 + yield 2
---
def f():
    x = yield from
---
def f():
    yield from a, b
---
def f():
    x = yield a, *b
---
def f():
    yield *a, b
---
lambda: (yield)
---
def f():
    x: int = yield 3
---
def f():
    x += yield
---
def f():
    (yield) = 3
---
def f():
    yield = 3
---
def f():
    del (yield)
---
def f():
    for (yield) in x: pass
---
def f():
    f"{yield}"
---
def f():
    x = [(yield)]
---
def f():
    print((yield from x))
---
def f():
    x = (yield) + 1
---
def f():
    with (yield) as x: pass
---
x = 1
yield
y = 2
return 5
---
def f():
   class C:
     x = yield
---
def f():
    yield x := 3
---
def f():
    x = yield y = 3
---
def f():
    yield += 1
---
def f():
    yield *a
---
def f():
    x = yield *a
---
def f():
    x = [yield]
---
def f():
    (yield x for x in y)
---
def f():
    (yield a, b)
---
def f():
    yield from
---
def f():
    yield from *a
---
def f():
    yield from (yield)
---
def f():
    x = yield = 3
---
def f():
    a, b = yield
---
return 1
yield 2
---
list((yield) for x in y)
---
def f():
    [x for x in (yield)]
    [(yield) for y in x]
---
def f():
    yield
class D:
    x = [(yield) for a in b]
---
def f():
    yield 1, 
---
def f():
    x = yield,
---
def f():
    yield; yield
---
def f():
    print(yield)
---
def f():
    x = lambda: (yield)
---
def f():
    x = lambda: yield
---
def f():
    return (yield)
---
def f():
    assert (yield)
---
def f():
    if (yield): pass
---
def f():
    x = f"{yield from a}"
---
def f():
    x = {(yield): 1}
---
def f():
    x: (yield)
---
class C:
    def f(self):
        yield
    x = (yield)
