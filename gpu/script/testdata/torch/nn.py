# Neural-network ops with real values: layer_norm (+ backward), embedding
# (+ backward, padding_idx), indexing with an index tensor (+ backward),
# cat/stack (+ backward). Deterministic inputs (sin of aranges).
import math
import torch
import torch.nn as nn
import torch.nn.functional as F


def ar(*shape, scale=0.7, shift=0.0, dtype=torch.float32):
    n = 1
    for s in shape:
        n *= s
    return torch.tensor([math.sin(i * scale + shift) for i in range(n)], device="cuda").view(*shape).to(dtype)


# layer_norm over the last dim, with weight and bias, and its backward
x = ar(2, 3, 8).requires_grad_()
w = (1 + 0.1 * ar(8, shift=1.0)).requires_grad_()
b = (0.05 * ar(8, shift=2.0)).requires_grad_()
y = F.layer_norm(x, (8,), w, b)
print("ln y", y.tolist())
c = ar(2, 3, 8, scale=0.31, shift=0.5)
(y * c).sum().backward()
print("ln gx", x.grad.tolist())
print("ln gw", w.grad.tolist())
print("ln gb", b.grad.tolist())

# over the last two dims, no affine, another eps; a non-contiguous input
x2 = ar(4, 3, 5, scale=1.3).transpose(0, 1).requires_grad_()
y2 = F.layer_norm(x2, (4, 5), eps=1e-3)
print("ln2 y", y2.tolist())
(y2 * ar(3, 4, 5, scale=0.2)).sum().backward()
print("ln2 gx", x2.grad.tolist())

# nn.LayerNorm module, float16 and bfloat16 (opmath float32)
m = nn.LayerNorm(6).cuda()
x3 = ar(3, 6, scale=0.9)
print("ln module", m(x3).tolist())
print("ln f16", F.layer_norm(x3.half(), (6,)))
print("ln bf16", F.layer_norm(x3.bfloat16(), (6,)))

# embedding and its backward (repeated indices accumulate)
emb = nn.Embedding(5, 4).cuda()
with torch.no_grad():
    emb.weight.copy_(ar(5, 4, scale=0.45))
idx = torch.tensor([[0, 2, 4], [4, 3, 0]], device="cuda")
e = emb(idx)
print("emb", e.tolist())
(e * ar(2, 3, 4, scale=0.8)).sum().backward()
print("emb gw", emb.weight.grad.tolist())

# padding_idx: its row gets no gradient
embp = nn.Embedding(5, 3, padding_idx=2).cuda()
with torch.no_grad():
    embp.weight.copy_(ar(5, 3, scale=0.6))
ep = embp(torch.tensor([2, 1, 2, 4], device="cuda"))
print("embp", ep.tolist())
(ep * ar(4, 3, scale=0.3)).sum().backward()
print("embp gw", embp.weight.grad.tolist())

# indexing with an index tensor: rows, columns, a CPU index, negative indices
t = ar(4, 5, scale=0.37).requires_grad_()
r = t[torch.tensor([3, 0, 3], device="cuda")]
print("rows", r.tolist())
col = t[:, torch.tensor([[1, -1], [0, 2]])]
print("cols", col.tolist())
(r.sum() * 2 + (col * ar(4, 2, 2, scale=0.9)).sum()).backward()
print("index grad", t.grad.tolist())

# cat and stack, and their backwards (slices of the gradient)
a = ar(2, 3, scale=0.5).requires_grad_()
bb = ar(2, 2, scale=0.8).requires_grad_()
cc = torch.cat([a, bb], dim=1)
print("cat", cc.tolist())
s = torch.stack([a, a * 2, a.t().contiguous().t()], dim=1)
print("stack", s.tolist())
(cc * ar(2, 5, scale=0.21)).sum().backward()
print("cat ga", a.grad.tolist())
print("cat gb", bb.grad.tolist())
h = torch.cat([ar(3, 2).half(), ar(1, 2, shift=1.0).half()])
print("cat f16", h)
print("stack int", torch.stack([torch.arange(3, device="cuda"), torch.arange(2, 5, device="cuda")]))
