import torch
import torch.nn as nn
from torch.utils.checkpoint import checkpoint_sequential

def mem(tag):
    print(f"{tag}: {torch.cuda.memory_allocated()} peak={torch.cuda.max_memory_allocated()}")

model = nn.Sequential(*[nn.Sequential(nn.Linear(1024, 1024), nn.ReLU()) for _ in range(8)]).cuda()
x = torch.randn(256, 1024, device="cuda", requires_grad=True)
torch.cuda.reset_peak_memory_stats()
out = checkpoint_sequential(model, 4, x, use_reentrant=False)
mem("forward, 4 segments")
out.sum().backward()
mem("backward")
