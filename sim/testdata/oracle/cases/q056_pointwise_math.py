import math

import torch
import torch.nn as nn
import torch.nn.functional as F

# Pointwise math of common model code: a hand-written erf GELU, a stable
# softplus via log1p/expm1, a polar (hypot/atan2) feature head, a
# log-space mixture (logaddexp), an entropy term (xlogy), nan_to_num and
# clamp_min guards, an isfinite check on the loss and allclose/isclose
# comparisons of two forward passes, then in-place variants under autograd.
def mem(tag):
    print(f"{tag}: {torch.cuda.memory_allocated()} {torch.cuda.memory_reserved()} peak={torch.cuda.max_memory_allocated()}")
    torch.cuda.reset_peak_memory_stats()


torch.manual_seed(0)
d = 512
fc1 = nn.Linear(d, 2 * d).cuda()
fc2 = nn.Linear(2 * d, d).cuda()
x = torch.randn(64, 128, d, device="cuda")
mem("model")

h = fc1(x)
g = 0.5 * h * (1.0 + torch.erf(h / math.sqrt(2.0)))
sp = torch.log1p(torch.exp(-h.abs())) + h.clamp_min(0)
em = torch.expm1(sp.clamp_max(5.0))
print(type(g.grad_fn).__name__, type(sp.grad_fn).__name__, type(em.grad_fn).__name__)
re, im = g.chunk(2, dim=-1)
mag = torch.hypot(re, im)
ang = torch.atan2(im, re)
print(type(mag.grad_fn).__name__, type(ang.grad_fn).__name__, tuple(mag.shape), mag.stride())
mix = torch.logaddexp(torch.log_softmax(mag, dim=-1), torch.log_softmax(ang, dim=-1))
p = torch.softmax(mix, dim=-1)
ent = -torch.xlogy(p, p).sum(-1).mean()
safe = torch.nan_to_num(em, nan=0.0, posinf=1e4, neginf=-1e4)
y = fc2(torch.cat([g, safe], dim=-1)[..., : 2 * d])
loss = (y.pow(2).mean() + ent + torch.erfc(mix).mean() + torch.frac(safe).mean()
        + torch.sgn(y).mul(y).mean() + torch.erfinv(torch.tanh(y) * 0.5).mean())
print(type(ent.grad_fn).__name__, type(safe.grad_fn).__name__, type(loss.grad_fn).__name__)
print(torch.isfinite(loss).dtype, torch.isfinite(y).shape)
mem("forward")
loss.backward()
mem("backward")
del h, g, sp, em, re, im, mag, ang, mix, p, ent, safe, y, loss
mem("freed")

with torch.no_grad():
    a = fc2(fc1(x)[..., :d].repeat(1, 1, 2))
    b = fc2(fc1(x)[..., :d].repeat(1, 1, 2))
    close = torch.isclose(a, b, rtol=1e-4, atol=1e-6)
    print(close.dtype, tuple(close.shape), type(torch.allclose(a, b)).__name__)
    eq = torch.isclose(a, b, equal_nan=True)
    mem("compare")
    del a, b, close, eq

z = torch.randn(256, 1024, device="cuda", requires_grad=True)
w = z * 2
w.log1p_()
w.clamp_min_(0.0)
w.expm1_()
print(type(w.grad_fn).__name__)
u = z.sin() * z.cos() + torch.atan(z) + torch.log2(z.abs() + 1)
print(type(u.grad_fn).__name__)
(w.sum() + u.sum()).backward()
mem("inplace")
del w, u
z.grad = None
mem("end")
