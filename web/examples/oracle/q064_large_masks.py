import torch

# Boolean-mask indexing on large masks: t[mask] reads and t[mask] = v writes
# go through nonzero, whose cub temporaries grow with the mask (a reduce temp
# storage past 4096 elements, one select tile state per 8448 elements), then
# the gather/scatter kernels; backward of a mask read scatters into zeros.
def mem(tag):
    print(f"{tag}: {torch.cuda.memory_allocated()} {torch.cuda.memory_reserved()} peak={torch.cuda.max_memory_allocated()}")
    torch.cuda.reset_peak_memory_stats()


for n in (4096, 4097, 100000, 1000000, 3000000):
    x = torch.randn(n, device="cuda")
    m = torch.ones(n, dtype=torch.bool, device="cuda")
    y = x[m]
    print(n, tuple(y.shape), y.dtype)
    mem(f"read {n}")
    x[m] = 0.5
    mem(f"write scalar {n}")
    x[m] = y * 2
    mem(f"write tensor {n}")
    del x, m, y
    mem(f"freed {n}")

w = torch.randn(512, 2048, device="cuda", requires_grad=True)
keep = torch.ones(512, 2048, dtype=torch.bool, device="cuda")
sel = w[keep]
print(type(sel.grad_fn).__name__, tuple(sel.shape))
mem("2-d mask read")
(sel * 3).sum().backward()
mem("2-d mask backward")
rows = torch.ones(512, dtype=torch.bool, device="cuda")
r = w[rows]
print(type(r.grad_fn).__name__, tuple(r.shape))
mem("row mask read")
r.sum().backward()
mem("row mask backward")
with torch.no_grad():
    w[keep] = 0.0
    w[rows] = w[rows] + 1
mem("no_grad writes")
del w, keep, sel, rows, r
mem("end")
