import torch
import torch.nn as nn

def mem(tag):
    print(f"{tag}: {torch.cuda.memory_allocated()} {torch.cuda.memory_reserved()} peak={torch.cuda.max_memory_allocated()}")

model = nn.Sequential(nn.Linear(1024, 4096), nn.ReLU(), nn.Linear(4096, 1024)).cuda()
x = torch.randn(512, 1024, device="cuda")
mem("setup")
with torch.autocast(device_type="cuda", dtype=torch.float16):
    out = model(x)
    mem("inside autocast (cast cache holds fp16 weights)")
    loss = out.float().pow(2).mean()
print(out.dtype, loss.dtype)
mem("after autocast exit")
loss.backward()
mem("backward")
print(model[0].weight.grad.dtype)
