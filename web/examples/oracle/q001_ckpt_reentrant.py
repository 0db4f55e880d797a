import torch
import torch.nn as nn
from torch.utils.checkpoint import checkpoint

def mem(tag):
    print(f"{tag}: {torch.cuda.memory_allocated()} peak={torch.cuda.max_memory_allocated()}")

layers = nn.ModuleList([nn.Sequential(nn.Linear(1024, 1024), nn.GELU()) for _ in range(4)]).cuda()
x = torch.randn(256, 1024, device="cuda", requires_grad=True)
base = torch.cuda.memory_allocated()
torch.cuda.reset_peak_memory_stats()
h = x
for l in layers:
    h = checkpoint(l, h, use_reentrant=True)
loss = h.sum()
mem("reentrant forward")
loss.backward()
mem("reentrant backward")
print(x.grad.shape)
