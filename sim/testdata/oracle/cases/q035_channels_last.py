import torch
import torch.nn as nn

def mem(tag):
    print(f"{tag}: {torch.cuda.memory_allocated()} {torch.cuda.memory_reserved()} peak={torch.cuda.max_memory_allocated()}")

torch.manual_seed(0)
model = nn.Sequential(nn.Conv2d(3, 32, 3, padding=1), nn.BatchNorm2d(32), nn.ReLU(), nn.MaxPool2d(2), nn.Flatten(), nn.Linear(32 * 16 * 16, 10)).cuda()
mem("model")
model = model.to(memory_format=torch.channels_last)
print(model[0].weight.is_contiguous(), model[0].weight.is_contiguous(memory_format=torch.channels_last))
mem("model channels_last")
x = torch.randn(64, 3, 32, 32, device="cuda")
mem("input")
xc = x.to(memory_format=torch.channels_last)
print(xc.stride(), xc.is_contiguous())
mem("input channels_last")
xc2 = xc.contiguous(memory_format=torch.channels_last)
print(xc2.data_ptr() == xc.data_ptr())
mem("contiguous(channels_last) no copy")
y = model[0](xc)
print(y.is_contiguous(memory_format=torch.channels_last))
mem("conv forward")
del y
out = model(xc)
mem("forward")
out.sum().backward()
mem("backward")
del out
model.zero_grad()
mem("zero_grad")
