import torch
import torch.nn as nn

def mem(tag):
    print(f"{tag}: {torch.cuda.memory_allocated()} {torch.cuda.memory_reserved()} peak={torch.cuda.max_memory_allocated()}")

torch.manual_seed(0)
E, H, L, B = 256, 8, 128, 16
mha = nn.MultiheadAttention(E, H, batch_first=True).cuda()
norm = nn.LayerNorm(E).cuda()
ff = nn.Sequential(nn.Linear(E, 4 * E), nn.ReLU(), nn.Linear(4 * E, E)).cuda()
params = list(mha.parameters()) + list(norm.parameters()) + list(ff.parameters())
opt = torch.optim.Adam(params, lr=1e-4)
mem("init")
for step in range(3):
    x = torch.randn(B, L, E, device="cuda")
    a, w = mha(x, x, x)
    mem(f"step {step} attn (need_weights)")
    h = norm(x + a)
    out = ff(h) + h
    loss = out.pow(2).mean()
    mem(f"step {step} forward")
    loss.backward()
    mem(f"step {step} backward")
    opt.step()
    opt.zero_grad()
    del a, w, h, out, loss
    mem(f"step {step} end")
x = torch.randn(B, L, E, device="cuda")
a, w = mha(x, x, x, need_weights=False)
print(w)
mem("need_weights=False")
mask = torch.zeros(L, L, device="cuda")
mask[:, L // 2:] = float("-inf")
a2, w2 = mha(x, x, x, attn_mask=mask, need_weights=False)
print(a2.shape, w2)
mem("float mask, no weights")
(a.sum() + a2.sum()).backward()
mem("backward")
