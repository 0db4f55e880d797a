# PyTorch's CPU generator (mt19937): a seeded model initialised on the CPU
# (kaiming_uniform_/uniform_ of nn.Linear, normal_ of nn.Embedding), moved
# to CUDA and run; CPU rand/randn (per-element and the 16-wide Box–Muller
# fill), randint, randperm and dropout of CPU tensors. The inputs of the
# forward are deterministic.
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 4)).cuda()
for name, p in model.named_parameters():
    print(name, p.tolist())
x = torch.tensor([math.sin(0.7 * i) for i in range(16)], device="cuda").view(2, 8)
y = model(x)
print("y", y.tolist())
loss = F.cross_entropy(y, torch.tensor([1, 3], device="cuda"))
print("loss", loss.item())
loss.backward()
print("grad0", model[0].weight.grad.sum().item())

torch.manual_seed(42)
print("rand", torch.rand(5).tolist())
print("randn20", torch.randn(20).tolist())
print("randn3", torch.randn(3).tolist())
print("randn3 again", torch.randn(3).tolist())
print("rand f64", torch.rand(3, dtype=torch.float64).tolist())
print("randn f16", torch.randn(17, dtype=torch.float16).tolist())
print("randint", torch.randint(0, 10, (8,)).tolist())
print("randint wide", torch.randint(-5, 2**33, (4,)).tolist())
print("randperm", torch.randperm(12).tolist())
emb = nn.Embedding(5, 3)
print("emb", emb.weight.tolist())
conv = nn.Conv2d(1, 2, 3)
print("conv w", conv.weight.tolist())
print("conv b", conv.bias.tolist())
w = torch.empty(3, 4)
nn.init.uniform_(w, -2.0, 3.0)
print("uniform_", w.tolist())
nn.init.normal_(w, 1.0, 0.5)
print("normal_", w.tolist())
nn.init.xavier_uniform_(w)
print("xavier", w.tolist())

torch.manual_seed(5)
print("dropout", F.dropout(torch.ones(12), p=0.5).tolist())
print("dropout 2d", F.dropout(torch.arange(6, dtype=torch.float32).view(2, 3), p=0.25).tolist())
m = emb.cuda()
print("emb cuda", m(torch.tensor([0, 4], device="cuda")).sum().item())
