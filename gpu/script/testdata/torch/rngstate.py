# The random-number state as a script sees it: torch.cuda.manual_seed and
# manual_seed_all (the CUDA generator only), get_rng_state/set_rng_state
# (CPU and CUDA), torch.random.fork_rng, checkpointed dropout recomputed
# with the forward's mask (preserve_rng_state), an LSTM with dropout after
# a reseed (PyTorch makes a new cuDNN dropout state and draws its seed).
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.checkpoint import checkpoint

torch.manual_seed(0)
a = torch.rand(3)
torch.cuda.manual_seed(1)
print(torch.rand(3), a)
print(torch.rand(3, device="cuda"))
torch.cuda.manual_seed_all(1)
print(torch.rand(3, device="cuda"))
s = torch.cuda.get_rng_state()
print(s)
print(s.dtype, s.shape, s.device)
u = torch.rand(4, device="cuda")
torch.cuda.set_rng_state(s)
print(torch.equal(u, torch.rand(4, device="cuda")))
c = torch.get_rng_state()
print(c.dtype, c.shape, c.device)
v = torch.randn(5)
torch.set_rng_state(c)
print(torch.equal(v, torch.randn(5)))
with torch.random.fork_rng():
    w = torch.rand(2, device="cuda")
print(torch.equal(w, torch.rand(2, device="cuda")))
print(torch.cuda.get_rng_state())

torch.manual_seed(3)
lin = nn.Linear(16, 16).cuda()
x = torch.randn(4, 16, device="cuda", requires_grad=True)


def block(t):
    return F.dropout(torch.relu(lin(t)), 0.5, training=True)


for reentrant in (True, False):
    torch.manual_seed(5)
    y = checkpoint(block, x, use_reentrant=reentrant)
    y.sum().backward()
    print(y[0])
    print(x.grad[0])
    print(lin.weight.grad[0, :4])
    x.grad = None
    lin.weight.grad = None
    lin.bias.grad = None

lstm = nn.LSTM(4, 6, num_layers=2, dropout=0.4).cuda()
xs = torch.randn(3, 2, 4, device="cuda")
lstm(xs)
print(torch.rand(2, device="cuda"))
torch.manual_seed(9)
lstm(xs)
print(torch.rand(2, device="cuda"))
lstm(xs)
print(torch.rand(2, device="cuda"))
