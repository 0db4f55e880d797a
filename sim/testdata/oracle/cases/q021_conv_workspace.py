import torch
import torch.nn as nn

# cuDNN workspaces of a ResNet-style stem in training, batch 8 (shapes measured in the
# simulator's workspace table): each is allocated after the op's output and freed at once,
# so it shows only in the peaks.
def mem(tag):
    print(f"{tag}: {torch.cuda.memory_allocated()} {torch.cuda.memory_reserved()} peak={torch.cuda.max_memory_allocated()}")
    torch.cuda.reset_peak_memory_stats()

stem = nn.Conv2d(3, 64, 7, stride=2, padding=3, bias=False).cuda()
block = nn.Conv2d(64, 64, 3, padding=1, bias=False).cuda()
down = nn.Conv2d(64, 128, 3, stride=2, padding=1, bias=False).cuda()
x = torch.randn(8, 3, 224, 224, device="cuda")
mem("setup")
h = stem(x)
mem("stem forward")
h = nn.functional.max_pool2d(h, 3, stride=2, padding=1)
h = block(h)
mem("block forward")
y = down(h)
mem("down forward")
y.float().sum().backward()
mem("backward")
del h, y
torch.cuda.empty_cache()
mem("end")
