import torch
import torch.nn.functional as F

# Index backward (index_put_ with accumulate) and embedding backward sort
# their indices with cub: small and large index counts.
def mem(tag):
    print(f"{tag}: {torch.cuda.memory_allocated()} {torch.cuda.memory_reserved()} peak={torch.cuda.max_memory_allocated()}")
    torch.cuda.reset_peak_memory_stats()

w = torch.randn(4096, 64, device="cuda", requires_grad=True)
mem("setup")
for n in (100, 2304, 2305, 5000, 100000):
    rows = torch.arange(n, device="cuda") % 4096
    out = w[rows]
    mem(f"index {n}")
    out.sum().backward()
    mem(f"index backward {n}")
    w.grad = None
    del rows, out
    mem(f"freed {n}")

emb = torch.nn.Embedding(1000, 32).cuda()
mem("embedding")
for n in (64, 3072, 3073, 20000):
    ids = torch.arange(n, device="cuda") % 1000
    y = emb(ids)
    y.sum().backward()
    mem(f"embedding backward {n}")
    emb.weight.grad = None
    del ids, y
