import torch
import torch.nn as nn

def mem(tag):
    print(f"{tag}: {torch.cuda.memory_allocated()} {torch.cuda.memory_reserved()}")

model = nn.Linear(1024, 1024).cuda().eval()
batches = [torch.randn(256, 1024) for _ in range(6)]
kept = []
with torch.no_grad():
    for i, b in enumerate(batches):
        kept.append(model(b.cuda()))
        mem(f"gpu outputs kept {i}")
del kept
mem("after del kept")
kept = []
with torch.no_grad():
    for i, b in enumerate(batches):
        kept.append(model(b.cuda()).cpu())
        mem(f"cpu outputs kept {i}")
print(len(kept), kept[0].device)
