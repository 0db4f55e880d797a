import torch
import torch.nn as nn

def mem(tag):
    print(f"{tag}: {torch.cuda.memory_allocated()} {torch.cuda.memory_reserved()} peak={torch.cuda.max_memory_allocated()}")

model = nn.Linear(1024, 512).cuda()
opt = torch.optim.SGD(model.parameters(), lr=0.1)
x = torch.randn(256, 1024, device="cuda")
y = torch.randn(256, 512, device="cuda")
mem("setup")
for step in range(3):
    out = model(x)
    loss = ((out - y) ** 2).mean()
    mem(f"step {step} forward")
    loss.backward()
    mem(f"step {step} backward")
    opt.step()
    opt.zero_grad()
    mem(f"step {step} after step")
print(model.weight.grad)
