# Indexing with real values: t[idx] = v (tensor values, numbers, broadcast
# rows, a view's columns, CPU and list indices), bool masks (t[mask] and
# its backward, t[mask] = v), index_select (+ backward) and
# F.max_pool2d(return_indices=True). Deterministic inputs (sin of aranges).
import math
import torch
import torch.nn as nn
import torch.nn.functional as F


def ar(*shape, scale=0.7, shift=0.0, dtype=torch.float32):
    n = 1
    for s in shape:
        n *= s
    return torch.tensor([math.sin(i * scale + shift) for i in range(n)], device="cuda").view(*shape).to(dtype)


# t[idx] = v: rows from a tensor, a number, a row broadcast to the index
t = ar(5, 3)
t[torch.tensor([4, 0, 2], device="cuda")] = ar(3, 3, scale=0.3, shift=1.0)
print("put rows", t)
t[torch.tensor([1], device="cuda")] = 7.5
print("put number", t)
t[torch.tensor([-4, 3], device="cuda")] = ar(3, scale=1.1)
print("put broadcast", t)

# t[:, idx] = v and t[i, idx] = v (the index after basic items), CPU index
t[:, torch.tensor([2, 0], device="cuda")] = ar(5, 2, scale=0.5, shift=2.0)
print("put cols", t)
t[1, torch.tensor([0, 2])] = -1.0
print("put row cols", t)

# list indices: read and write
print("list read", t[[3, 1]])
t[[0, 4]] = 2.25
print("list put", t)

# half types
h = ar(4, 2, dtype=torch.float16)
h[torch.tensor([3, 1], device="cuda")] = torch.tensor([[1.5, 2.5], [3.5, 4.5]], device="cuda", dtype=torch.float16)
print("put f16", h)
bh = ar(3, 2, dtype=torch.bfloat16)
bh[torch.tensor([2], device="cuda")] = 0.5
print("put bf16", bh)

# bool masks: t[mask] (a count the values decide), rows, columns, backward
x = ar(3, 4, scale=0.9)
m = x > 0
print("mask", m)
sel = x[m]
print("masked", sel, sel.shape)
print("row mask", x[torch.tensor([True, False, True], device="cuda")])
print("col mask", x[:, torch.tensor([False, True, True, False], device="cuda")])
xr = ar(3, 4, scale=0.9).requires_grad_()
s = xr[xr.detach() > 0.2]
(s * s).sum().backward()
print("mask grad", xr.grad)

# t[mask] = v: a number, then as many values as the mask selects
y = ar(3, 4, scale=0.6)
y[y < 0] = 0.0
print("mask put number", y)
m2 = y > 0.5
n = int(m2.sum().item())
y[m2] = torch.arange(n, device="cuda", dtype=torch.float32)
print("mask put values", n, y)

# index_select (+ backward: repeated indices accumulate)
z = ar(3, 4, scale=0.4).requires_grad_()
i = torch.tensor([3, 0, 3], device="cuda")
zs = torch.index_select(z, 1, i)
print("index_select", zs)
(zs * ar(3, 3, scale=0.8)).sum().backward()
print("index_select grad", z.grad)
print("index_select rows", z.detach().index_select(0, torch.tensor([2, 2, 0], device="cuda")))

# F.max_pool2d(return_indices=True) and nn.MaxPool2d(return_indices=True)
p = ar(1, 2, 4, 4, scale=1.7).requires_grad_()
out, ind = F.max_pool2d(p, 2, return_indices=True)
print("pool", out)
print("pool indices", ind)
(out * ar(1, 2, 2, 2, scale=0.9)).sum().backward()
print("pool grad", p.grad)
out2, ind2 = nn.MaxPool2d(3, stride=1, padding=1, return_indices=True)(p.detach())
print("pool3 indices", ind2)
print("pool3", out2)
