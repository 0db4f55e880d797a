import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.utils import parametrize
from torch.nn.utils.parametrizations import weight_norm, spectral_norm

# A GAN step with the usual regularised layers: a generator whose convs use
# weight_norm (parametrizations), a discriminator with spectral_norm, both
# wrapped in nn.DataParallel (one GPU: the module is called directly);
# forward/backward/step, state_dict keys, parametrize.cached(), the older
# nn.utils.weight_norm/spectral_norm hooks in eval, and DDP's error.
def mem(tag):
    print(f"{tag}: {torch.cuda.memory_allocated()} {torch.cuda.memory_reserved()} peak={torch.cuda.max_memory_allocated()}")
    torch.cuda.reset_peak_memory_stats()


torch.manual_seed(0)
gen = nn.Sequential(
    weight_norm(nn.Conv1d(80, 256, 7, padding=3)), nn.LeakyReLU(0.1),
    weight_norm(nn.Conv1d(256, 256, 5, padding=2)), nn.LeakyReLU(0.1),
    weight_norm(nn.Conv1d(256, 1, 7, padding=3)), nn.Tanh())
disc = nn.Sequential(
    spectral_norm(nn.Conv1d(1, 64, 15, stride=4, padding=7)), nn.LeakyReLU(0.2),
    spectral_norm(nn.Conv1d(64, 128, 11, stride=4, padding=5)), nn.LeakyReLU(0.2),
    nn.Flatten(), spectral_norm(nn.Linear(128 * 25, 1)))
mem("built")
G = nn.DataParallel(gen)
D = nn.DataParallel(disc)
mem("DataParallel")
print(type(G.module).__name__, list(G.state_dict().keys())[:4])
print(list(D.state_dict().keys())[:5])
print(parametrize.is_parametrized(gen[0]), parametrize.is_parametrized(gen[0], "weight"),
      type(gen[0].parametrizations.weight[0]).__name__,
      tuple(gen[0].parametrizations.weight.original0.shape), tuple(gen[0].parametrizations.weight.original1.shape))
opt_g = torch.optim.Adam(G.parameters(), lr=2e-4)
opt_d = torch.optim.Adam(D.parameters(), lr=2e-4)
mel = torch.randn(16, 80, 400, device="cuda")
real = torch.randn(16, 1, 400, device="cuda")
for step in range(2):
    fake = G(mel)
    print(tuple(fake.shape), type(fake.grad_fn).__name__) if step == 0 else None
    mem(f"G forward {step}")
    d_loss = F.softplus(D(fake.detach())).mean() + F.softplus(-D(real)).mean()
    mem(f"D forward {step}")
    d_loss.backward()
    opt_d.step()
    opt_d.zero_grad(set_to_none=True)
    mem(f"D step {step}")
    g_loss = F.softplus(-D(fake)).mean() + F.l1_loss(fake, real)
    g_loss.backward()
    opt_g.step()
    opt_g.zero_grad(set_to_none=True)
    del fake, d_loss, g_loss
    mem(f"G step {step}")

w = gen[0].weight
print(type(w.grad_fn).__name__, tuple(w.shape))
del w
G.eval()
with torch.no_grad(), parametrize.cached():
    y = G(mel)
    y = G(mel)
mem("cached eval")
del y

# the older hook-based versions
old = nn.Sequential(nn.utils.weight_norm(nn.Linear(512, 512)), nn.ReLU(),
                    nn.utils.spectral_norm(nn.Linear(512, 10))).cuda()
print(sorted(n for n, _ in old.named_parameters()), sorted(n for n, _ in old.named_buffers()))
mem("old built")
x = torch.randn(256, 512, device="cuda", requires_grad=True)
out = old(x)
print(type(out.grad_fn).__name__, type(old[0].weight.grad_fn).__name__)
out.sum().backward()
mem("old backward")
old.eval()
with torch.no_grad():
    out = old(x)
mem("old eval")
try:
    nn.parallel.DistributedDataParallel(old)
except (RuntimeError, ValueError, NotImplementedError) as e:
    print("DDP:", type(e).__name__)
del out, x, old
mem("done")
