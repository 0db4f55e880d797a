import torch
import torch.nn as nn

def mem(tag):
    print(f"{tag}: {torch.cuda.memory_allocated()} {torch.cuda.memory_reserved()} peak={torch.cuda.max_memory_allocated()}")

model = nn.Sequential(nn.Linear(1024, 4096), nn.GELU(), nn.Linear(4096, 1024)).to("cuda", torch.bfloat16)
mem("bf16 weights")
opt = torch.optim.AdamW(model.parameters(), lr=1e-4)
x = torch.randn(256, 1024, device="cuda", dtype=torch.bfloat16)
for step in range(2):
    loss = model(x).float().square().mean()
    loss.backward()
    opt.step()
    opt.zero_grad()
    mem(f"step {step}")
