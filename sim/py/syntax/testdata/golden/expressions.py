-2**2
2**-1**2
a < b <= c == d != e > f >= g in h not in i is j is not k
not a and b or not c
a if b else c if d else e
a | b ^ c & d << e >> f + g - h * i / j // k % l @ m
~a + -b - +c
lambda: 0
lambda a, b=1, *c, d, **e: a
(y := f(x))
x[:, 0], x[..., None], x[1:2, ::3], x[::-1], x[a:b:c], x[i,], x[()]
f(a, *b, c=1, **d)
sum(x * 2 for x in range(10) if x % 2)
[x for x in a for y in b if x if y]
{k: v for k, v in d.items()}
{s for s in t}
(g for g in h)
[*a, *b], (*c, d), {*e}, {**f, 'k': 1}
(), (1,), [], {}, {1}, {1: 2}
a.b.c(d)[e].f
print(*[1], sep='')
x = yield_
