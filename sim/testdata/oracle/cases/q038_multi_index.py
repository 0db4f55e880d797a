import torch

# Advanced indexing with several index tensors (no autograd): logits at
# targets, broadcast index shapes, adjacent and separated index dims (where
# the result's dims go), None/Ellipsis/ints/slices among them, host, list
# and int32 indices, a bool mask with another index, index assignment with
# numbers and tensors, index_put_ with accumulate, and PyTorch's errors.
def mem(tag):
    print(f"{tag}: {torch.cuda.memory_allocated()} {torch.cuda.memory_reserved()} peak={torch.cuda.max_memory_allocated()}")
    torch.cuda.reset_peak_memory_stats()

B, C = 512, 1000
logits = torch.randn(B, C, device="cuda")
y = torch.arange(B, device="cuda") * 7 % C
mem("setup")
picked = logits[torch.arange(B, device="cuda"), y]
print(picked.shape, picked.stride())
mem("logits at targets")
x = torch.zeros(64, 128, device="cuda")
i = torch.tensor([0, 5, 9, 63], device="cuda")
j = torch.tensor([1, 2, 3, 127], device="cuda")
a = x[i, j]
b = x[i[:, None], j]
print(a.shape, b.shape, b.stride())
mem("pairs and broadcast grid")
c = x[i][:, j]
print(c.shape, c.stride())
mem("two steps")
x3 = torch.zeros(16, 32, 48, device="cuda")
r1 = x3[:, i % 32, j % 48]
print(r1.shape, r1.stride())
r2 = x3[i % 16, :, j % 48]
print(r2.shape, r2.stride())
r3 = x3[..., i % 32, j % 48]
r4 = x3[None, i % 16, 1:9, j % 48]
r5 = x3[i % 16, 3, j % 48]
r6 = x3[3, i % 32, j % 48]
print(r3.shape, r4.shape, r5.shape, r6.shape)
mem("adjacent and separated dims")
k = torch.tensor([[0, 1, 2], [3, 4, 5]], device="cuda")
r7 = x3[k, :, k[0]]
r8 = x3[:, k[:, :1], k]
print(r7.shape, r8.shape, r8.stride())
mem("two-d index shapes")
del r1, r2, r3, r4, r5, r6, r7, r8, a, b, c
mem("freed views")
ci = torch.tensor([0, 5, 9, 63])
cj = torch.tensor([1, 2, 3, 127])
h1 = x[ci, cj]
h2 = x[ci[:, None], cj]
h3 = x[ci, j]
print(h1.shape, h2.shape, h3.shape)
mem("host indices")
l1 = x[[0, 1, 2], [4, 5, 6]]
l2 = x[[0, 1, 2], j[:3]]
print(l1.shape, l2.shape)
mem("list indices")
i32 = i.to(torch.int32)
n1 = x[i32, j]
n2 = x[i32[:, None], j]
print(n1.shape, n2.shape)
mem("int32 indices")
m = x[:, 0] == 0  # every row: the simulator cannot know a mask's count
rows = torch.arange(64, device="cuda") % 128
s1 = x[m, rows]
s2 = x3[m[:16], 2, :5]
print(s1.shape, s2.shape)
mem("mask with another index")
del h1, h2, h3, l1, l2, n1, n2, s1, s2
x[i, j] = 1.5
mem("put number")
x[i, j] = torch.full((4,), 2.5, device="cuda")
mem("put tensor")
x[i[:, None], j] = torch.ones(4, 4, device="cuda")
mem("put grid")
x[ci, cj] = 3.5
mem("put host indices")
x[m, rows] = 0.25
mem("put mask")
x3[:, i % 32, j % 48] = torch.ones(16, 1, device="cuda")
x3[i % 16, :, j % 48] = 4.0
mem("put adjacent and separated")
big = torch.arange(20000, device="cuda")
x.index_put_((big % 64, big % 128), torch.ones(20000, device="cuda"), accumulate=True)
mem("index_put_ accumulate")
x.index_put_((i, j), torch.tensor(1.0, device="cuda"), accumulate=True)
x3.index_put_((i % 16, j % 32), torch.ones(48, device="cuda"), accumulate=True)
mem("index_put_ accumulate broadcast")
z = x.index_put((i, j), torch.zeros(4, device="cuda"))
print(z.shape, z.stride(), x.sum().dim())
mem("index_put")
del z
for bad in ((torch.tensor([0, 1, 2], device="cuda"), torch.tensor([0, 1], device="cuda")),
            (i, j, i),
            (i.float(), j),
            (m[:10], j)):
    try:
        x[bad]
    except Exception as e:
        print(type(e).__name__, e)
try:
    x[i, torch.tensor([0, 1], device="cuda")] = 1.0
except Exception as e:
    print(type(e).__name__, e)
mem("errors")
