import torch
import torch.nn as nn

def mem(tag):
    print(f"{tag}: {torch.cuda.memory_allocated()} {torch.cuda.memory_reserved()} peak={torch.cuda.max_memory_allocated()}")

model = nn.Sequential(nn.Linear(512, 1024), nn.ReLU(), nn.Linear(1024, 256)).cuda()
opt = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9, weight_decay=1e-4, nesterov=True)
x = torch.randn(128, 512, device="cuda")
crit = nn.MSELoss()
y = torch.randn(128, 256, device="cuda")
mem("setup")
for step in range(3):
    opt.zero_grad()
    loss = crit(model(x), y)
    loss.backward()
    mem(f"step {step} backward")
    torch.cuda.reset_peak_memory_stats()
    opt.step()
    mem(f"step {step} step")
print(len(opt.state))
