# The last gaps of the GPU backend (session 11, part 2): float64 and int32
# tensors through the index kernels, and the accumulating index forms
# (index_put_(accumulate=True), scatter_add, index_add, index backward)
# on float64 and the integer types. Values are integers or halves, so
# float64 sums are exact in any order.
import torch

dev = "cuda"
idx = torch.tensor([5, 0, 2, 2, -1], device=dev)
m = torch.tensor([True, False, True, False, False, True], device=dev)
rev = torch.tensor([5, 4, 3, 2, 1, 0], device=dev)
f = torch.tensor([0.5, -1.25, 3.0, 1e300, -7.5, 0.1], dtype=torch.float64, device=dev)
i = torch.tensor([-2147483648, -300, -1, 0, 300, 2147483647], dtype=torch.int32, device=dev)
for t in (f, i):
    tag = "float64" if t.dtype == torch.float64 else "exact int"
    r = t[rev]
    print(tag, "index", t[idx], t[m], t[1:4], t.index_select(0, idx[:4]))
    t2 = t.reshape(2, 3)
    print(tag, "gather", torch.gather(t2, 1, torch.tensor([[2, 0], [1, 1]], device=dev)))
    print(tag, "scatter", torch.zeros(2, 3, dtype=t.dtype, device=dev).scatter(1, torch.tensor([[2, 0], [1, 0]], device=dev), t2[:, :2]))
    c = t.clone()
    c[torch.tensor([0, 3], device=dev)] = torch.tensor([7, 9], dtype=t.dtype, device=dev)
    c[m] = 5
    print(tag, "index_put", c)
    print(tag, "multi", t2[torch.tensor([1, 0], device=dev), torch.tensor([2, 2], device=dev)], t2[:, torch.tensor([2, 0], device=dev)])
    print(tag, "cat", torch.cat([t, t[:2]]), torch.stack([t, r]), torch.cat([t2, t2], 1))

# accumulating forms, every integer type and float64
vals = [3, -4, 5, 100, -7, 9]
for dt in (torch.int64, torch.int32, torch.int16, torch.int8, torch.uint8, torch.float64):
    tag = "float64" if dt == torch.float64 else "exact int"
    base = torch.tensor([10, 20, 30, 40], dtype=dt, device=dev)
    v = torch.tensor(vals if dt != torch.uint8 else [3, 4, 5, 100, 7, 9], dtype=dt, device=dev)
    j = torch.tensor([1, 3, 1, 1, 0, 3], device=dev)
    a = base.clone()
    a.index_put_((j,), v, accumulate=True)
    print(tag, "index_put acc", dt, a.tolist())
    b = base.clone()
    b[torch.tensor([True, False, True, True], device=dev)] += v[:3]
    print(tag, "mask +=", dt, b.tolist())
    print(tag, "scatter_add", dt, base.scatter_add(0, j, v).tolist(), torch.zeros(2, 3, dtype=dt, device=dev).scatter_add_(1, torch.tensor([[0, 0, 2], [1, 1, 1]], device=dev), v.reshape(2, 3)).tolist())
    print(tag, "index_add", dt, base.index_add(0, j, v).tolist(), base.index_add(0, j, v, alpha=2).tolist())
    g = base.reshape(2, 2).clone()
    g.index_put_((torch.tensor([0, 0, 1], device=dev), torch.tensor([1, 1, 0], device=dev)), v[:3], accumulate=True)
    print(tag, "index_put2 acc", dt, g.tolist())

# wrap-around of integer sums (PyTorch wraps as the type)
big = torch.tensor([2**62, 2**62, 2**62], device=dev)
print("exact int", "wrap int64", torch.zeros(1, dtype=torch.int64, device=dev).index_add(0, torch.zeros(3, dtype=torch.int64, device=dev), big).tolist())
b32 = torch.tensor([2**30, 2**30, 2**30], dtype=torch.int32, device=dev)
print("exact int", "wrap int32", torch.zeros(1, dtype=torch.int32, device=dev).index_add(0, torch.zeros(3, dtype=torch.int64, device=dev), b32).tolist())
b8 = torch.tensor([100, 100, 100], dtype=torch.int8, device=dev)
print("exact int", "wrap int8", torch.zeros(1, dtype=torch.int8, device=dev).index_add(0, torch.zeros(3, dtype=torch.int64, device=dev), b8).tolist())
u8 = torch.tensor([200, 200], dtype=torch.uint8, device=dev)
print("exact int", "wrap uint8", torch.zeros(2, dtype=torch.uint8, device=dev).index_put_((torch.tensor([1, 1], device=dev),), u8, accumulate=True).tolist())

# float64 gradients through indexing and embedding
w = torch.arange(12, dtype=torch.float64, device=dev).reshape(4, 3).mul(0.5).requires_grad_()
y = w[torch.tensor([0, 2, 2, 3], device=dev)] * torch.tensor([1.0, 2.0, 3.0], dtype=torch.float64, device=dev)
y.sum().backward()
print("float64 index grad", w.grad)
w.grad = None
e = torch.nn.functional.embedding(torch.tensor([[1, 1], [3, 0]], device=dev), w)
(e * 2).sum().backward()
print("float64 embedding", e, w.grad)
w.grad = None
w[torch.tensor([True, False, True, True], device=dev)].sum().backward()
print("float64 mask grad", w.grad)
