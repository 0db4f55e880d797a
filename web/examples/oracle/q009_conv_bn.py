import torch
import torch.nn as nn

def mem(tag):
    print(f"{tag}: {torch.cuda.memory_allocated()} {torch.cuda.memory_reserved()} peak={torch.cuda.max_memory_allocated()}")

model = nn.Sequential(
    nn.Conv2d(3, 32, 3, padding=1), nn.BatchNorm2d(32), nn.ReLU(), nn.MaxPool2d(2),
    nn.Conv2d(32, 64, 3, padding=1), nn.BatchNorm2d(64), nn.ReLU(), nn.AdaptiveAvgPool2d(1),
    nn.Flatten(), nn.Linear(64, 10),
).cuda()
opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
crit = nn.CrossEntropyLoss()
x = torch.randn(32, 3, 64, 64, device="cuda")
t = torch.randint(0, 10, (32,), device="cuda")
mem("setup")
for step in range(2):
    loss = crit(model(x), t)
    mem(f"step {step} forward")
    loss.backward()
    mem(f"step {step} backward")
    opt.step()
    opt.zero_grad()
    mem(f"step {step} step")
