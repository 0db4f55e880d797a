# Displays built incrementally (*x, more than 30 elements, ** first), f-string
# fields on several lines, one-line while loops, calls with *args/**kwargs.
def f(x=0):
    return x
d = {
    **{"a": 1},
    "b": f(2),
}
---
def f(x=0):
    return x
x = [
    *[1, 2],
    f(3),
    4,
]
---
def f(x=0):
    return x
x = (
    f(1),
    *[2],
    f(3),
)
---
def f(x=0):
    return x
x = {
    f(1),
    *[2],
    f(3),
}
---
def f(x=0):
    return x
name = "n"
s = (f"{name}"
     f"{f(1)}"
     f"{name!r:>10}")
---
def f(x=0):
    return x
s = f"""{
f(1)
}x{
name}"""
---
def g():
    return (
        1
    )
g()
---
def g():
    return (
        "abc"
    )
g()
---
def f(x=0):
    return x
a = b = (f(1),
         f(2))
---
def f(x=0):
    return x
a = b = c = f(1)
---
def f(x=0):
    return x
x: int = (f(1) +
          f(2))
---
def f(x=0):
    return x
y: "list[int]"
z: list = [
    f(1),
]
---
def f(x=0):
    return x
n = 0
while f(n) < 2:
    n += 1
---
def f(x=0):
    return x
n = 0
while n < 2 and f(n) >= 0: n += 1
---
def f(x=0):
    return x
x = [
    f(0),
    f(1),
    f(2),
    f(3),
    f(4),
    f(5),
    f(6),
    f(7),
    f(8),
    f(9),
    f(10),
    f(11),
    f(12),
    f(13),
    f(14),
    f(15),
    f(16),
    f(17),
    f(18),
    f(19),
    f(20),
    f(21),
    f(22),
    f(23),
    f(24),
    f(25),
    f(26),
    f(27),
    f(28),
    f(29),
    f(30),
    f(31),
    f(32),
    f(33),
    f(34),
]
---
def f(x=0):
    return x
x = {
    0: f(0),
    1: f(1),
    2: f(2),
    3: f(3),
    4: f(4),
    5: f(5),
    6: f(6),
    7: f(7),
    8: f(8),
    9: f(9),
    10: f(10),
    11: f(11),
    12: f(12),
    13: f(13),
    14: f(14),
    15: f(15),
    16: f(16),
    17: f(17),
    18: f(18),
    19: f(19),
    20: f(20),
    21: f(21),
    22: f(22),
    23: f(23),
    24: f(24),
    25: f(25),
    26: f(26),
    27: f(27),
    28: f(28),
    29: f(29),
    30: f(30),
    31: f(31),
    32: f(32),
    33: f(33),
    34: f(34),
}
---
def f(x=0):
    return x
x = (
    f(0),
    f(1),
    f(2),
    f(3),
    f(4),
    f(5),
    f(6),
    f(7),
    f(8),
    f(9),
    f(10),
    f(11),
    f(12),
    f(13),
    f(14),
    f(15),
    f(16),
    f(17),
    f(18),
    f(19),
    f(20),
    f(21),
    f(22),
    f(23),
    f(24),
    f(25),
    f(26),
    f(27),
    f(28),
    f(29),
    f(30),
    f(31),
    f(32),
)
---
def f(x=0):
    return x
n = 0
while n < 2 and f(n) >= 0: n += 1
---
def f(x=0):
    return x
n = 0
while f(n) < 3: n += 1
print(n)
---
def f(x=0):
    return x
n = 0
while f(n) < 3: n += 1; f(n)
---
def f(x=0):
    return x
n = 0
while f(n) < 3:
    n += 1
---
def f(x=0):
    return x
n = 0
while f(n) < 4:
    n += 1
    if n == 2: continue
    f(0)
---
n = 0
while n < 3: n += 1
else: n = 10
---
def f(x=0):
    return x
n = 0
while True:
    n += 1
    if f(n) > 2: break
---
def g():
    return (
        None
    )
g()
---
def g():
    x = 1
    return (
        -1
    )
g()
---
def g():
    return \
        2
g()
---
def f(x=0):
    return x
a = b = [
    f(1),
]
---
def f(x=0):
    return x
a = \
    b = f(1)
---
def f(x=0):
    return x
class C:
    pass
c = C()
c.x = c.y = (
    f(1))
---
def f(x=0):
    return x
x: int = (
    f(1))
---
def f(x=0):
    return x
d = {**{"a": f(1)},
     **{"b": 2}}
---
def f(x=0):
    return x
x = f(
    *[1],
    **{})
---
def f(*a, **k):
    return a
x = f(1,
      *[2, 3],
      4)
---
def f(*a, **k):
    return a
x = f(
    k=1,
    **{"j": f(2)},
    m=f(3))
---
def f(x=0):
    return x
name = "n"
s = f"""{
f(1)
}x{
name}"""
---
def f(x=0):
    return x
s = (f"{f(1)}"
     "lit"
     f"{f(2)}")
---
def f(x=0):
    return x
s = f"""
{f(1)}"""
---
def f(x=0):
    return x
s = (f"a{f(1)}"
     f"{f(2)}b")
