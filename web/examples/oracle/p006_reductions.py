import torch

def mem(tag):
    print(f"{tag}: {torch.cuda.memory_allocated()} {torch.cuda.memory_reserved()}")

x = torch.randn(1024, 2048, device="cuda")
mem("start")
s = x.sum()
m = x.mean(dim=1)
mx = x.max()
vals, idx = x.max(dim=0)
mn = x.min(dim=1, keepdim=True)
am = x.argmax(dim=1)
mem("sum mean max min argmax")
v = x.var(dim=0)
n = x.norm()
n2 = torch.norm(x, dim=1)
mem("var norm")
sm = torch.softmax(x, dim=1)
lsm = torch.log_softmax(x, dim=-1)
mem("softmax")
print(s.shape, m.shape, vals.shape, idx.dtype, mn.values.shape, am.dtype)
t = x.sum().item()
print(type(t).__name__)
del x, s, m, mx, vals, idx, mn, am, v, n, n2, sm, lsm
mem("end")
