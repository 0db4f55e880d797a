import torch
import torch.nn as nn

def mem(tag):
    print(f"{tag}: {torch.cuda.memory_allocated()} {torch.cuda.memory_reserved()}")

model = nn.Sequential(nn.Linear(1024, 2048), nn.ReLU(), nn.Linear(2048, 1024)).cuda().eval()
x = torch.randn(512, 1024, device="cuda")
mem("setup")
y = model(x)
mem("eval only keeps graph")
print(y.requires_grad, y.grad_fn is not None)
del y
with torch.no_grad():
    y = model(x)
mem("no_grad")
print(y.requires_grad, y.grad_fn)
del y
with torch.inference_mode():
    y = model(x)
mem("inference_mode")
print(y.requires_grad, y.is_inference())
del y
torch.set_grad_enabled(False)
y = model(x)
print(y.requires_grad)
torch.set_grad_enabled(True)
with torch.no_grad():
    with torch.enable_grad():
        z = model(x)
print(z.requires_grad)
mem("enable_grad inside no_grad")
