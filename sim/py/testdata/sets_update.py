# set/dict iterators: changed size during iteration; {*x} merged as SET_UPDATE does
s = {1, 2, 3}
try:
    for x in s:
        s.add(x + 10)
except RuntimeError as e:
    print(e)
s = {1, 2, 3}
for x in s:
    s.discard(x); s.add(x)
print(s)
d = {1: 2, 3: 4}
try:
    for k in d:
        d[k + 10] = 1
except RuntimeError as e:
    print(e)
it = iter(d)
d[100] = 1
for i in range(2):
    try:
        next(it)
    except RuntimeError as e:
        print(e)
d = {1: 2, 3: 4}
try:
    for k in d:
        del d[k]
        d[k + 100] = 0
except RuntimeError as e:
    print("B", e)
print(d)
d = {1: 2, 3: 4}
try:
    for k, v in d.items():
        d.pop(k)
except RuntimeError as e:
    print(e)
s = {1, 2}
it = iter(s)
s.add(5)
for i in range(2):
    try:
        print(next(it))
    except RuntimeError as e:
        print(e)
s.discard(5)
try:
    print(next(it))
except RuntimeError as e:
    print(e)
print(list(it))
#: Set changed size during iteration
#: {1, 2, 3}
#: dictionary changed size during iteration
#: dictionary changed size during iteration
#: dictionary changed size during iteration
#: B dictionary keys changed during iteration
#: {101: 0, 103: 0}
#: dictionary changed size during iteration
#: Set changed size during iteration
#: Set changed size during iteration
#: Set changed size during iteration
### "RuntimeError: Set changed size during iteration"
---
s = {5, 1, 17, 33, 2}
d = {9: 1, 1: 2, 65: 3, 7: 4}
print({*s}, {*d}, {0, *s, 100, *d, 3})
a = set(range(0, 200, 7))
b = {*a, *range(3, 100, 11)}
print(b)
print({*{(1, 2), (3, 4), (8, 1)}, (5, 6)})
print({*[64, 1, 128, 2], 256})
t = frozenset({40, 8, 72})
print({*t, 1}, {1, *t})
try:
    x = {1, *5}
except TypeError as e:
    print(e)
try:
    x = {1, *[[1]]}
except TypeError as e:
    print(e)
big = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 100, 64, 128}
print(big)
def f(v):
    print("f", v)
    return v
class H:
    def __init__(self, h): self.h = h
    def __hash__(self):
        print("hash", self.h)
        return self.h
    def __eq__(self, o): return self is o
    def __repr__(self): return "H%d" % self.h
print({f(H(1)), f(H(2)), *f([H(3)]), f(H(4))})
big = {f(1), 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 100, 64, H(128)}
print(big)
#: {1, 2, 33, 17, 5} {65, 9, 1, 7} {0, 1, 2, 33, 100, 5, 65, 7, 3, 9, 17}
#: {0, 3, 196, 133, 70, 7, 69, 140, 77, 14, 80, 147, 84, 21, 25, 154, 91, 28, 161, 98, 35, 36, 168, 105, 42, 175, 112, 49, 47, 182, 119, 56, 58, 189, 126, 63}
#: {(1, 2), (3, 4), (5, 6), (8, 1)}
#: {64, 1, 2, 128, 256}
#: {40, 8, 72, 1} {40, 1, 72, 8}
#: 'int' object is not iterable
#: unhashable type: 'list'
#: {128, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 64, 100}
#: f H1
#: f H2
#: hash 1
#: hash 2
#: f [H3]
#: hash 3
#: f H4
#: hash 4
#: {H1, H2, H3, H4}
#: f 1
#: hash 128
#: {H128, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 64, 100}
