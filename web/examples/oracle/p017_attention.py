import torch
import torch.nn as nn
import torch.nn.functional as F

def mem(tag):
    print(f"{tag}: {torch.cuda.memory_allocated()} {torch.cuda.memory_reserved()}")

mha = nn.MultiheadAttention(embed_dim=256, num_heads=8, batch_first=True).cuda()
x = torch.randn(16, 128, 256, device="cuda")
mem("setup")
with torch.no_grad():
    out, w = mha(x, x, x)
print(out.shape, w.shape)
mem("mha no_grad")
del out, w
q = torch.randn(16, 8, 128, 32, device="cuda")
k = torch.randn(16, 8, 128, 32, device="cuda")
v = torch.randn(16, 8, 128, 32, device="cuda")
with torch.no_grad():
    o = F.scaled_dot_product_attention(q, k, v)
print(o.shape)
mem("sdpa no_grad")
