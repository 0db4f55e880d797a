import torch
import torch.nn as nn
import torch.nn.functional as F

def mem(tag):
    print(f"{tag}: {torch.cuda.memory_allocated()} {torch.cuda.memory_reserved()} peak={torch.cuda.max_memory_allocated()}")

# a small 3-d CNN on video clips (C3D-style): Conv3d, BatchNorm3d, MaxPool3d,
# AvgPool3d, AdaptiveAvgPool3d
torch.manual_seed(0)

class Clip3D(nn.Module):
    def __init__(self, classes=10):
        super().__init__()
        self.conv1 = nn.Conv3d(3, 16, 3, padding=1)
        self.bn1 = nn.BatchNorm3d(16)
        self.pool1 = nn.MaxPool3d(2)
        self.conv2 = nn.Conv3d(16, 32, 3, padding=1)
        self.bn2 = nn.BatchNorm3d(32)
        self.pool2 = nn.AvgPool3d(2)
        self.head = nn.AdaptiveAvgPool3d(1)
        self.fc = nn.Linear(32, classes)

    def forward(self, x):
        x = self.pool1(F.relu(self.bn1(self.conv1(x))))
        x = self.pool2(F.relu(self.bn2(self.conv2(x))))
        return self.fc(torch.flatten(self.head(x), 1))

model = Clip3D().cuda()
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
mem("model")
clips = torch.randn(4, 3, 16, 16, 16, device="cuda")
labels = torch.randint(0, 10, (4,), device="cuda")
for step in range(2):
    opt.zero_grad(set_to_none=True)
    loss = F.cross_entropy(model(clips), labels)
    mem(f"step {step} forward")
    loss.backward()
    mem(f"step {step} backward")
    opt.step()
    mem(f"step {step} optimizer")
del loss

# mixed precision
opt.zero_grad(set_to_none=True)
with torch.autocast("cuda", dtype=torch.bfloat16):
    out = model(clips)
    loss = F.cross_entropy(out, labels)
mem("bf16 forward")
loss.backward()
mem("bf16 backward")
del out, loss

# pooling with indices, on a strided view
model.eval()
with torch.no_grad():
    v = clips[:, :, ::2]
    y, idx = F.max_pool3d(v, 2, return_indices=True)
    mem("max_pool3d with indices")
    z = F.adaptive_max_pool3d(clips, (2, 4, 4))
    mem("adaptive_max_pool3d")
    del y, idx, z
mem("end")
