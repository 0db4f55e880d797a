import torch
import torch.nn as nn

def mem(tag):
    print(f"{tag}: {torch.cuda.memory_allocated()} {torch.cuda.memory_reserved()}")

model = nn.Sequential(nn.Linear(1000, 1000), nn.ReLU(), nn.Linear(1000, 1000))
mem("cpu model")
model.cuda()
mem("cuda()")
model.half()
mem("half()")
model.float()
mem("float()")
model.to(torch.bfloat16)
mem("bfloat16")
print(model[0].weight.dtype)
model.to("cpu")
mem("to cpu")
model = model.to(device="cuda", dtype=torch.float32)
mem("to cuda float32")
sd = {k: v.clone() for k, v in model.state_dict().items()}
mem("cloned state dict")
model.load_state_dict(sd)
mem("load_state_dict copies in place")
del sd
model.cpu()
torch.cuda.empty_cache()
mem("end")
