import torch
import torch.nn as nn

def mem(tag):
    print(f"{tag}: {torch.cuda.memory_allocated()} {torch.cuda.memory_reserved()} peak={torch.cuda.max_memory_allocated()}")

model = nn.Sequential(nn.Linear(2048, 2048), nn.ReLU(), nn.Linear(2048, 2048)).cuda()
mem("fp32 weights")
model.half()
mem("fp16 weights")
x = torch.randn(512, 2048, device="cuda").half()
opt = torch.optim.SGD(model.parameters(), lr=0.01)
loss = model(x).float().mean()
mem("half forward")
loss.backward()
opt.step()
mem("half step")
