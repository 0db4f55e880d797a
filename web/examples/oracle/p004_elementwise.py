import torch

def mem(tag):
    print(f"{tag}: {torch.cuda.memory_allocated()} {torch.cuda.memory_reserved()}")

a = torch.randn(512, 1024, device="cuda")
b = torch.randn(1024, device="cuda")
c = torch.randn(512, 1, device="cuda")
mem("start")
s = a + b
m = a * c
mem("broadcast")
h = torch.randn(512, 1024, device="cuda", dtype=torch.float16)
p = h + a
print(p.dtype)
q = h * 2.5
print(q.dtype)
n = torch.arange(1024, device="cuda")
r = n * 0.5
print(n.dtype, r.dtype)
mem("promotion")
e = a + b * c - 1
mem("expression temporaries")
w = torch.where(a > 0, a, b)
mem("where")
cat = torch.cat([a, a, a], dim=0)
st = torch.stack([a, a], dim=0)
print(cat.shape, st.shape)
mem("cat stack")
ex = torch.exp(a).log().sqrt().abs()
mem("chain")
cmp = (a > 0.5) & (a < 1.0)
print(cmp.dtype)
mem("compare")
del a, b, c, s, m, h, p, q, n, r, e, w, cat, st, ex, cmp
mem("end")
