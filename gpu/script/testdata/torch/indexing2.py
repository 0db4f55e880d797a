# Advanced indexing with several index tensors, real values: x[i, j]
# (pairs, broadcast grids, adjacent and separated index dims, ints and
# slices among them, negative, host, list and mask indices), their
# backward (duplicates accumulate), x[i, j] = v and index_put_ with and
# without accumulate, f16/bf16. Deterministic inputs (sin of aranges).
import math
import torch


def ar(*shape, scale=0.7, shift=0.0, dtype=torch.float32):
    n = 1
    for s in shape:
        n *= s
    return torch.tensor([math.sin(i * scale + shift) for i in range(n)], device="cuda").view(*shape).to(dtype)


x = ar(4, 5)
i = torch.tensor([0, 3, -1, 2], device="cuda")
j = torch.tensor([1, 4, 0, -2], device="cuda")
print("pairs", x[i, j])
print("grid", x[i[:2, None], j])
print("logits at targets", x[torch.arange(4, device="cuda"), torch.tensor([4, 0, 2, 1], device="cuda")])
x3 = ar(3, 4, 5, scale=0.37)
print("adjacent", x3[:, i, j])
print("separated", x3[torch.tensor([2, 0], device="cuda"), :, torch.tensor([1, 3], device="cuda")])
print("separated 2d", x3[torch.tensor([[2], [0]], device="cuda"), 1:3, torch.tensor([1, 3, 4], device="cuda")])
print("int between", x3[torch.tensor([1, 2], device="cuda"), 2, torch.tensor([0, 4], device="cuda")])
print("ellipsis", x3[..., torch.tensor([3, 0], device="cuda"), torch.tensor([2, 2], device="cuda")])
print("none", x3[None, torch.tensor([0, 2], device="cuda"), :, torch.tensor([4, 1], device="cuda")])
print("host", x[torch.tensor([1, 2]), torch.tensor([3, 0])])
print("list", x[[0, 3, 1], [2, 2, 4]])
m = x[:, 0] > 0
print("mask", m, x[m, torch.tensor([4], device="cuda")])
print("mask rows", x3[torch.tensor([True, False, True], device="cuda"), torch.tensor([3, 1], device="cuda")])

# backward: duplicate pairs accumulate
w = ar(4, 5, scale=0.5).requires_grad_()
idx_i = torch.tensor([0, 3, 0, 2, 0], device="cuda")
idx_j = torch.tensor([1, 4, 1, 0, 3], device="cuda")
(w[idx_i, idx_j] * torch.arange(1, 6, device="cuda")).sum().backward()
print("grad pairs", w.grad)
w.grad = None
(w[idx_i[:3, None], idx_j[:2]] ** 2).sum().backward()
print("grad grid", w.grad)
w3 = ar(3, 4, 5, scale=0.21).requires_grad_()
(w3[torch.tensor([2, 0, 2], device="cuda"), :, torch.tensor([1, 3, 1], device="cuda")] * ar(3, 4)).sum().backward()
print("grad separated", w3.grad)
w3.grad = None
w3[:, torch.tensor([1, 1], device="cuda"), torch.tensor([2, 2], device="cuda")].sum().backward()
print("grad adjacent", w3.grad)

# assignment
t = ar(4, 5, scale=0.3)
t[torch.tensor([0, 2], device="cuda"), torch.tensor([4, 1], device="cuda")] = 9.0
print("put number", t)
t[torch.tensor([1, 3, 3], device="cuda"), torch.tensor([0, 2, 4], device="cuda")] = torch.tensor([-1.0, -2.0, -3.0], device="cuda")
print("put tensor", t)
t[torch.tensor([[0], [3]], device="cuda"), torch.tensor([1, 3], device="cuda")] = ar(2, 2, scale=1.3)
print("put grid", t)
t[torch.tensor([2, 1]), torch.tensor([2, 3])] = 0.5
print("put host", t)
t3 = ar(3, 4, 5, scale=0.11)
t3[torch.tensor([0, 2], device="cuda"), :, torch.tensor([4, 0], device="cuda")] = ar(4, scale=0.9)
print("put separated", t3)
t.index_put_((torch.tensor([0, 0, 1], device="cuda"), torch.tensor([2, 2, 2], device="cuda")), torch.tensor([1.0, 2.0, 4.0], device="cuda"), accumulate=True)
print("accumulate", t)
u = t.index_put((torch.tensor([3], device="cuda"), torch.tensor([1], device="cuda")), torch.tensor(6.0, device="cuda"))
print("index_put", u, t[3, 1].item())

# assignment under autograd: x's grad is zero where overwritten, v's is gathered
a = ar(3, 4, scale=0.6).requires_grad_()
v = ar(3, scale=0.8).requires_grad_()
h = a * 2
h[torch.tensor([0, 2, 1], device="cuda"), torch.tensor([3, 0, 1], device="cuda")] = v
(h * ar(3, 4, scale=0.45)).sum().backward()
print("put grads", a.grad, v.grad)
a.grad = None
v.grad = None
h = a * 1
h.index_put_((torch.tensor([1, 1], device="cuda"), torch.tensor([2, 2], device="cuda")), v[:2], accumulate=True)
(h * h).sum().backward()
print("accumulate grads", a.grad, v.grad)

# half types
xh = ar(4, 5, dtype=torch.float16)
print("f16", xh[i, j])
xb = ar(4, 5, dtype=torch.bfloat16)
xb[i[:2], j[:2]] = torch.tensor([1.5, -2.5], device="cuda", dtype=torch.bfloat16)
print("bf16", xb)
