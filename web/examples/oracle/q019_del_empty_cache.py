import torch
import torch.nn as nn

def mem(tag):
    print(f"{tag}: {torch.cuda.memory_allocated()} {torch.cuda.memory_reserved()}")

model = nn.Linear(4096, 4096).cuda()
inp = torch.randn(1024, 4096, device="cuda")
output = model(inp).detach()
mem("detach")
del output
mem("del")
torch.cuda.empty_cache()
mem("empty_cache")
with torch.no_grad():
    output = model(inp)
mem("no_grad")
output = output.cpu()
mem("to cpu")
model = model.half()
inp = inp.half()
mem("half")
torch.cuda.empty_cache()
mem("empty_cache")
