import torch
import torch.nn as nn

def mem(tag):
    print(f"{tag}: {torch.cuda.memory_allocated()} {torch.cuda.memory_reserved()} peak={torch.cuda.max_memory_allocated()}")

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(512, 1024), nn.GELU(), nn.Linear(1024, 1024), nn.GELU(), nn.Linear(1024, 10)).cuda()
opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
crit = nn.CrossEntropyLoss()
mem("init")
for step in range(4):
    x = torch.randn(256, 512, device="cuda")
    y = torch.randint(0, 10, (256,), device="cuda")
    loss = crit(model(x), y)
    mem(f"step {step} forward")
    loss.backward()
    mem(f"step {step} backward")
    norm = torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm=1.0)
    mem(f"step {step} clip")
    opt.step()
    mem(f"step {step} opt.step")
    opt.zero_grad(set_to_none=(step % 2 == 1))
    mem(f"step {step} zero_grad set_to_none={step % 2 == 1}")
print(norm.shape, norm.device, norm.dtype)
del norm, loss
mem("del loss")
# Gradient accumulation with zero_grad in the wrong place (every micro-batch).
for micro in range(4):
    opt.zero_grad()
    x = torch.randn(64, 512, device="cuda")
    y = torch.randint(0, 10, (64,), device="cuda")
    (crit(model(x), y) / 4).backward()
    mem(f"micro {micro}")
torch.nn.utils.clip_grad_norm_(model.parameters(), 0.5, foreach=False)
mem("clip foreach=False")
opt.step()
model.zero_grad(set_to_none=False)
mem("model.zero_grad(set_to_none=False)")
print(all(p.grad is not None for p in model.parameters()))
