import math

import torch
import torch.nn as nn
import torch.nn.functional as F

# torch.einsum in a self-attention block (the "bthd,bshd->bhts" style of many
# pasted snippets), a cosine-similarity/normalize loss, AdamW, then the small
# linear-algebra ops: einsum with 1 and 3 operands, tensordot, outer, dot,
# baddbmm, addcmul/addcdiv/lerp (out of place and in place).
def mem(tag):
    print(f"{tag}: {torch.cuda.memory_allocated()} {torch.cuda.memory_reserved()} peak={torch.cuda.max_memory_allocated()}")
    torch.cuda.reset_peak_memory_stats()


class EinsumAttention(nn.Module):
    def __init__(self, d, heads):
        super().__init__()
        self.heads = heads
        self.qkv = nn.Linear(d, 3 * d)
        self.proj = nn.Linear(d, d)

    def forward(self, x):
        B, T, C = x.shape
        hd = C // self.heads
        q, k, v = self.qkv(x).split(C, dim=2)
        q = q.view(B, T, self.heads, hd)
        k = k.view(B, T, self.heads, hd)
        v = v.view(B, T, self.heads, hd)
        att = torch.einsum("bthd,bshd->bhts", q, k) * (1.0 / math.sqrt(hd))
        att = att.softmax(dim=-1)
        y = torch.einsum("bhts,bshd->bthd", att, v).reshape(B, T, C)
        return self.proj(y)


torch.manual_seed(0)
model = EinsumAttention(256, 8).cuda()
opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
mem("model")
for step in range(3):
    x = torch.randn(8, 128, 256, device="cuda")
    target = torch.randn(8, 128, 256, device="cuda")
    out = model(x)
    if step == 0:
        print(type(out.grad_fn).__name__, tuple(out.shape))
    mem(f"step {step} forward")
    z = F.normalize(out, dim=-1)
    loss = (1 - F.cosine_similarity(z, target, dim=-1)).mean()
    if step == 0:
        print(type(z.grad_fn).__name__, type(loss.grad_fn).__name__)
    mem(f"step {step} loss")
    opt.zero_grad()
    loss.backward()
    mem(f"step {step} backward")
    opt.step()
    mem(f"step {step} opt")
del x, target, out, z, loss
mem("after loop")

a = torch.randn(64, 256, 96, device="cuda", requires_grad=True)
b = torch.randn(64, 96, 128, device="cuda", requires_grad=True)
c = torch.einsum("bij,bjk->bik", a, b)
tr = torch.einsum("bii->b", torch.randn(64, 96, 96, device="cuda", requires_grad=True))
s = torch.einsum("bij->bj", a)
print(type(c.grad_fn).__name__, tuple(c.shape), c.stride(), type(tr.grad_fn).__name__, type(s.grad_fn).__name__, tuple(s.shape))
mem("einsum bmm/trace/sum")
(c.sum() + tr.sum() + s.sum()).backward()
mem("einsum backward")
del c, tr, s
w = torch.randn(32, 256, 128, device="cuda", requires_grad=True)
u = torch.randn(64, 256, device="cuda", requires_grad=True)
vv = torch.randn(64, 128, device="cuda", requires_grad=True)
bil = torch.einsum("bn,anm,bm->ba", u, w, vv)
print(type(bil.grad_fn).__name__, tuple(bil.shape))
mem("einsum bilinear")
bil.sum().backward()
mem("bilinear backward")
del bil, w, u, vv
a.grad = None
b.grad = None

td = torch.tensordot(a, b, dims=([0, 2], [0, 1]))
print(type(td.grad_fn).__name__, tuple(td.shape))
mem("tensordot")
td.sum().backward()
mem("tensordot backward")
del td
p = torch.randn(1000, device="cuda", requires_grad=True)
q = torch.randn(2000, device="cuda", requires_grad=True)
o = torch.outer(p, q)
d = torch.dot(p, p)
print(type(o.grad_fn).__name__, tuple(o.shape), type(d.grad_fn).__name__, tuple(d.shape))
mem("outer/dot")
(o.sum() + d).backward()
mem("outer/dot backward")
del o, d
m = torch.randn(64, 256, 128, device="cuda", requires_grad=True)
bb = torch.baddbmm(m, a, b, beta=0.5, alpha=2.0)
bb2 = torch.baddbmm(m[0], a, b)
print(type(bb.grad_fn).__name__, tuple(bb2.shape))
mem("baddbmm")
(bb.sum() + bb2.sum()).backward()
mem("baddbmm backward")
del bb, bb2
t1 = torch.randn(512, 1024, device="cuda", requires_grad=True)
t2 = torch.randn(512, 1024, device="cuda", requires_grad=True)
ac = torch.addcmul(t2[0], t1, t2, value=0.1)
ad = torch.addcdiv(t1, t1, t2.exp(), value=-0.5)
lp = torch.lerp(t1, t2, 0.25)
print(type(ac.grad_fn).__name__, type(ad.grad_fn).__name__, type(lp.grad_fn).__name__)
mem("addcmul/addcdiv/lerp")
(ac.sum() + ad.sum() + lp.sum()).backward()
mem("pointwise backward")
with torch.no_grad():
    buf = torch.zeros_like(t1)
    buf.addcmul_(t1, t2, value=0.9).addcdiv_(t1, t2.abs() + 1).lerp_(t2, 0.5)
mem("in place")
del ac, ad, lp, buf, t1, t2, m, a, b, p, q
mem("end")
