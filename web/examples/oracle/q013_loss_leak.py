import torch
import torch.nn as nn

def mem(tag):
    print(f"{tag}: {torch.cuda.memory_allocated()}")

model = nn.Sequential(nn.Linear(512, 512), nn.ReLU(), nn.Linear(512, 1)).cuda()
x = torch.randn(256, 512, device="cuda")
total = 0
for i in range(5):
    loss = model(x).mean()
    total += loss
    mem(f"leaky step {i}")
del total, loss
mem("after del")
total = 0.0
for i in range(5):
    loss = model(x).mean()
    total += loss.item()
    mem(f"item step {i}")
print(type(total).__name__)
