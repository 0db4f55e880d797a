import torch
import torch.nn as nn

def mem(tag):
    print(f"{tag}: {torch.cuda.memory_allocated()} {torch.cuda.memory_reserved()}")

bn = nn.BatchNorm1d(256).cuda()
ln = nn.LayerNorm(256).cuda()
emb = nn.Embedding(10000, 256).cuda()
flat = nn.Flatten()
ident = nn.Identity()
mem("modules")
print(sum(b.numel() for b in bn.buffers()), bn.num_batches_tracked.dtype)
x = torch.randn(128, 256, device="cuda", requires_grad=True)
y = bn(x)
mem("batchnorm train forward")
y.sum().backward()
mem("batchnorm backward")
z = ln(x)
mem("layernorm forward")
z.mean().backward()
mem("layernorm backward")
ids = torch.randint(0, 10000, (32, 64), device="cuda")
e = emb(ids)
print(e.shape)
mem("embedding forward")
e.sum().backward()
mem("embedding backward")
f = flat(torch.randn(4, 3, 8, 8, device="cuda"))
print(f.shape, ident(f) is f)
bn.eval()
with torch.no_grad():
    w = bn(x)
mem("batchnorm eval")
