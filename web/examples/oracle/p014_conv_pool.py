import torch
import torch.nn as nn

def mem(tag):
    print(f"{tag}: {torch.cuda.memory_allocated()}")

conv1 = nn.Conv1d(16, 32, kernel_size=3, padding=1).cuda()
x1 = torch.randn(8, 16, 100, device="cuda")
y1 = conv1(x1)
print(y1.shape)
mem("conv1d")
conv = nn.Conv2d(3, 16, kernel_size=3, stride=1, padding=1).cuda()
x = torch.randn(16, 3, 64, 64, device="cuda")
with torch.no_grad():
    y = conv(x)
print(y.shape)
mem("conv2d no_grad")
mp = nn.MaxPool2d(2)
ap = nn.AvgPool2d(2)
aap = nn.AdaptiveAvgPool2d((1, 1))
with torch.no_grad():
    a = mp(y)
    b = ap(y)
    c = aap(y)
print(a.shape, b.shape, c.shape)
mem("pools")
