import torch
import torch.nn as nn
import torch.nn.functional as F

# Shifts, repeats, scans and reductions of common model code: a diffusion
# noise schedule (cumprod), Swin's cyclic shift (roll), flip augmentation,
# grouped-query attention's repeat_interleave of k/v, repeat of a positional
# table, an InfoNCE loss (logsumexp), a product over a dim, and a padding
# mask without padding (nonzero, masked_select of token losses).
def mem(tag):
    print(f"{tag}: {torch.cuda.memory_allocated()} {torch.cuda.memory_reserved()} peak={torch.cuda.max_memory_allocated()}")
    torch.cuda.reset_peak_memory_stats()


T = 1000
betas = torch.linspace(1e-4, 0.02, T, device="cuda")
alphas = 1.0 - betas
alphas_cumprod = torch.cumprod(alphas, dim=0)
alphas_cumprod_prev = torch.cat([torch.ones(1, device="cuda"), alphas_cumprod[:-1]])
print(alphas_cumprod.shape, alphas_cumprod.dtype, alphas_cumprod_prev.shape)
mem("schedule")

x = torch.randn(8, 32, 32, 96, device="cuda", requires_grad=True)
shifted = torch.roll(x, shifts=(-4, -4), dims=(1, 2))
back = shifted.roll((4, 4), (1, 2))
flat = x.roll(7)
print(type(shifted.grad_fn).__name__, shifted.is_contiguous(), tuple(flat.shape))
img = torch.randn(16, 3, 64, 64, device="cuda", requires_grad=True)
aug = torch.flip(img, dims=[3])
vf = img.flip(2, 3)
print(type(aug.grad_fn).__name__, aug.stride())
mem("roll/flip")
(back.sum() + flat.mean() + aug.sum() + vf.mean()).backward()
mem("roll/flip backward")
del shifted, back, flat, aug, vf
x.grad = None
img.grad = None

B, Hkv, rep, L, E = 4, 2, 4, 256, 64
k = torch.randn(B, Hkv, L, E, device="cuda", requires_grad=True)
kk = k.repeat_interleave(rep, dim=1)
q = torch.randn(B, Hkv * rep, L, E, device="cuda")
att = (q @ kk.transpose(-2, -1)).softmax(-1)
pos = torch.randn(1, L, E, device="cuda", requires_grad=True)
pp = pos.repeat(B, 1, 1)
tiled = k.repeat(1, 1, 2, 1)
print(type(kk.grad_fn).__name__, tuple(kk.shape), type(pp.grad_fn).__name__, tuple(tiled.shape))
mem("repeat")
(att.sum() + pp.sum() + tiled.mean()).backward()
mem("repeat backward")
del kk, att, pp, tiled

z1 = torch.randn(256, 128, device="cuda", requires_grad=True)
z2 = torch.randn(256, 128, device="cuda", requires_grad=True)
sim = F.normalize(z1, dim=1) @ F.normalize(z2, dim=1).t() / 0.07
lse = torch.logsumexp(sim, dim=1)
loss = (lse - sim.diagonal()).mean()
print(type(lse.grad_fn).__name__, lse.shape)
p = torch.sigmoid(z1).prod(dim=1)
pk = z2.prod(1, keepdim=True)
csum = z1.cumsum(dim=0)
print(type(p.grad_fn).__name__, pk.shape, type(csum.grad_fn).__name__)
mem("infonce")
(loss + p.sum() + pk.sum() + csum.mean()).backward()
mem("infonce backward")
del sim, lse, loss, p, pk, csum
z1.grad = None
z2.grad = None

attention_mask = torch.ones(8, 128, dtype=torch.long, device="cuda")
nz = attention_mask.nonzero()
rows, cols = torch.nonzero(attention_mask, as_tuple=True)
position_ids = attention_mask.cumsum(-1) - 1
print(tuple(nz.shape), nz.dtype, tuple(rows.shape), position_ids.dtype)
tok = torch.randn(8, 128, device="cuda", requires_grad=True)
losses = tok * 2
sel = losses.masked_select(attention_mask.bool())
print(type(sel.grad_fn).__name__, tuple(sel.shape))
mem("mask")
sel.mean().backward()
mem("mask backward")
del nz, rows, cols, position_ids, losses, sel
mem("end")
