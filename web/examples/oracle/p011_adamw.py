import torch
import torch.nn as nn

def mem(tag):
    print(f"{tag}: {torch.cuda.memory_allocated()} {torch.cuda.memory_reserved()} peak={torch.cuda.max_memory_allocated()}")

model = nn.Sequential(nn.Linear(768, 3072), nn.GELU(), nn.Linear(3072, 768)).cuda()
opt = torch.optim.AdamW(model.parameters(), lr=1e-3, weight_decay=0.01)
x = torch.randn(32, 768, device="cuda")
mem("setup")
for step in range(2):
    opt.zero_grad()
    loss = model(x).square().sum()
    loss.backward()
    torch.cuda.reset_peak_memory_stats()
    opt.step()
    mem(f"step {step}")
del opt
mem("del optimizer frees state")
