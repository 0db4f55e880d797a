import torch
import torch.nn as nn
from torch.utils.checkpoint import checkpoint

def mem(tag):
    print(f"{tag}: {torch.cuda.memory_allocated()} peak={torch.cuda.max_memory_allocated()}")

class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.a = nn.Linear(512, 2048)
        self.b = nn.Linear(2048, 512)

    def forward(self, x):
        return x + self.b(torch.relu(self.a(x)))

blocks = nn.ModuleList([Block() for _ in range(3)]).cuda()
x = torch.randn(512, 512, device="cuda", requires_grad=True)
for use in [False, True]:
    torch.cuda.reset_peak_memory_stats()
    h = x
    for b in blocks:
        h = checkpoint(b, h, use_reentrant=False) if use else b(h)
    loss = h.mean()
    mem(f"checkpoint={use} forward")
    loss.backward()
    mem(f"checkpoint={use} backward")
    x.grad = None
    blocks.zero_grad()
    del h, loss
