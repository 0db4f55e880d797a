import torch
import torch.nn.functional as F

# Indexing and index assignment: list and tensor indices, boolean masks
# (all true), index_select and max_pool2d's indices, with and without autograd.
def mem(tag):
    print(f"{tag}: {torch.cuda.memory_allocated()} {torch.cuda.memory_reserved()} peak={torch.cuda.max_memory_allocated()}")
    torch.cuda.reset_peak_memory_stats()

t = torch.zeros(1024, 256, device="cuda")
v = torch.ones(2, 256, device="cuda")
mem("setup")
t[[0, 2]] = v
mem("list index put")
idx = torch.tensor([1, 3, 5, 7], device="cuda")
t[idx] = 2.0
mem("tensor index put, number")
t[idx] = torch.full((4, 256), 3.0, device="cuda")
mem("tensor index put, tensor")
t[:, idx] = 4.0
mem("column index put")
cpu_idx = torch.tensor([9, 11])
t[cpu_idx] = 5.0
mem("cpu index put")
g = t[idx]
mem("gather rows")
s = t.index_select(1, idx)
mem("index_select")
mask = t[:, 0] >= 0  # every row: the simulator cannot know a mask's count
sel = t[mask]
print(sel.shape)
mem("boolean mask select")
t[mask] = 0.5
mem("boolean mask put")
del g, s, sel, mask
mem("freed")

w = torch.randn(512, 128, device="cuda", requires_grad=True)
rows = torch.tensor([0, 5, 5, 100], device="cuda")
out = w[rows] * 2
mem("index with grad")
out.sum().backward()
mem("index backward")
w.grad = None
sel = torch.index_select(w, 0, rows)
sel.sum().backward()
mem("index_select backward")
w.grad = None
m = w[:, 0] == w[:, 0]
pos = w[m]
pos.sum().backward()
mem("mask backward")
del out, sel, pos, m
w.grad = None

x = torch.randn(8, 16, 32, 32, device="cuda", requires_grad=True)
y, ind = F.max_pool2d(x, 2, return_indices=True)
print(y.shape, ind.dtype, ind.shape)
mem("max_pool2d with indices")
y.sum().backward()
mem("max_pool2d backward")
