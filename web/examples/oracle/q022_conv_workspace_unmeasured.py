import torch
import torch.nn as nn

# Convolutions whose shapes are NOT in the simulator's cuDNN workspace table (batch 16,
# 48 channels, 40x40 images): the simulator predicts their workspaces from the nearest
# measured shape; this case measures how far that prediction is from the GPU.
def mem(tag):
    print(f"{tag}: {torch.cuda.memory_allocated()} {torch.cuda.memory_reserved()} peak={torch.cuda.max_memory_allocated()}")
    torch.cuda.reset_peak_memory_stats()

c1 = nn.Conv2d(3, 48, 5, padding=2).cuda()
c2 = nn.Conv2d(48, 96, 3, stride=2, padding=1).cuda()
x = torch.randn(16, 3, 40, 40, device="cuda")
mem("setup")
h = torch.relu(c1(x))
mem("c1 forward")
y = c2(h)
mem("c2 forward")
y.mean().backward()
mem("backward")
