x = 1
y = 2
if x:
    z = 3
else:
    z = 4
print(z)
---
for i in range(3):
    a = i
b = 0
---
i = 0
while i < 3:
    i += 1
done = True
---
def f(a):
    b = a + 1
    return b
c = f(1)
d = f(2)
---
class A:
    x = 1
    def m(self):
        return self.x
a = A()
a.m()
---
try:
    1 / 0
except ZeroDivisionError:
    pass
finally:
    q = 1
---
try:
    v = 1
except Exception:
    v = 2
else:
    v = 3
---
def deco(f):
    return f
@deco
def g():
    pass
g()
---
# sub-expressions on continuation lines fire their own line events
x = [
    1,
    2,
]
y = (1 +
     2)
---
for i in range(2): pass
z = 1
---
import math
s = 0
for i in range(3):
    if i == 1:
        continue
    s += i
print(s)
---
def outer():
    def inner():
        return 1
    return inner()
outer()
---
total = sum(i for i in range(3))
---
# py311-differs: 3.11 runs the comprehension in its own frame (5 events); 3.12 inlines it
# (PEP 709) and fires the header line on each backward jump (4 events).
sq = [i * i for i in range(3)]
