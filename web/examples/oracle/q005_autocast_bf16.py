import torch
import torch.nn as nn

def mem(tag):
    print(f"{tag}: {torch.cuda.memory_allocated()} {torch.cuda.memory_reserved()} peak={torch.cuda.max_memory_allocated()}")

model = nn.Sequential(nn.Linear(1024, 1024), nn.GELU(), nn.LayerNorm(1024), nn.Linear(1024, 10)).cuda()
x = torch.randn(256, 1024, device="cuda")
t = torch.randint(0, 10, (256,), device="cuda")
mem("setup")
with torch.autocast(device_type="cuda", dtype=torch.bfloat16):
    logits = model(x)
    loss = nn.functional.cross_entropy(logits, t)
print(logits.dtype, loss.dtype)
mem("bf16 forward")
loss.backward()
mem("bf16 backward")
with torch.no_grad(), torch.autocast(device_type="cuda", dtype=torch.bfloat16):
    y = model(x)
mem("bf16 inference")
