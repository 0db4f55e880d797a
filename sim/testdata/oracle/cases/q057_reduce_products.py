import torch
import torch.nn as nn
import torch.nn.functional as F

# Reductions and small products of common model code: running statistics
# (var_mean/std_mean), quantisation ranges (aminmax), sparsity counts
# (count_nonzero), a drawdown with cummax, a log-space running sum
# (logcumsumexp), finite differences (diff), trace and dist regularisers,
# a matrix-vector head (mv/addmv/inner), addbmm and kron layers, a cross
# product of 3-d vectors, and prototype/k-NN distances (cdist: matmul path
# for many points, direct kernel for few).
def mem(tag):
    print(f"{tag}: {torch.cuda.memory_allocated()} {torch.cuda.memory_reserved()} peak={torch.cuda.max_memory_allocated()}")
    torch.cuda.reset_peak_memory_stats()


torch.manual_seed(0)
x = torch.randn(32, 256, 64, device="cuda", requires_grad=True)
var, mean = torch.var_mean(x, dim=(0, 1), keepdim=True)
std, mean2 = torch.std_mean(x, dim=-1)
xn = (x - mean) / (var + 1e-5).sqrt()
print(type(var.grad_fn).__name__, type(std.grad_fn).__name__, tuple(var.shape), tuple(std.shape))
with torch.no_grad():
    lo, hi = torch.aminmax(x)
    lo1, hi1 = x.aminmax(dim=1)
    nz = torch.count_nonzero(x > 0.5, dim=-1)
    print(lo.shape, tuple(hi1.shape), nz.dtype, tuple(nz.shape))
mem("stats")

prices = torch.randn(16, 2000, device="cuda").cumsum(-1).requires_grad_()
peak, where = torch.cummax(prices, dim=1)
low, _ = prices.cummin(dim=1)
drawdown = (peak - prices).amax(dim=1)
lse = torch.logcumsumexp(prices, dim=1)
d1 = torch.diff(prices, dim=1)
d2 = prices.diff(n=2, dim=-1, prepend=prices[:, :1])
print(type(peak.grad_fn).__name__, where.dtype, type(lse.grad_fn).__name__, tuple(d1.shape), tuple(d2.shape))
loss = (xn.pow(2).mean() + std.mean() + mean2.mean() + drawdown.mean() + lse[:, -1].mean()
        + d1.abs().mean() + d2.pow(2).mean() + low.mean())
mem("series")
loss.backward()
mem("series backward")
del var, mean, std, mean2, xn, lo, hi, lo1, hi1, nz, peak, where, low, drawdown, lse, d1, d2, loss
x.grad = None
prices.grad = None
mem("series freed")

W = torch.randn(512, 512, device="cuda", requires_grad=True)
v = torch.randn(512, device="cuda", requires_grad=True)
b = torch.zeros(512, device="cuda", requires_grad=True)
M = torch.randn(8, 64, 512, device="cuda", requires_grad=True)
N = torch.randn(8, 512, 128, device="cuda", requires_grad=True)
C = torch.zeros(64, 128, device="cuda", requires_grad=True)
A = torch.randn(32, 32, device="cuda", requires_grad=True)
B = torch.randn(4, 4, device="cuda", requires_grad=True)
y = torch.mv(W, v)
z = torch.addmv(b, W, y.tanh(), alpha=0.5)
s = torch.inner(z, v)
P = torch.addbmm(C, M, N, beta=0.0)
K = torch.kron(A, B)
print(type(y.grad_fn).__name__, type(z.grad_fn).__name__, type(s.grad_fn).__name__,
      type(P.grad_fn).__name__, type(K.grad_fn).__name__, tuple(K.shape))
reg = torch.trace(W) * 1e-3 + torch.dist(W, torch.eye(512, device="cuda")) * 1e-3
loss = s + P.pow(2).mean() + K.abs().sum() + reg
mem("products")
loss.backward()
mem("products backward")
del y, z, s, P, K, reg, loss

pos = torch.randn(4096, 3, device="cuda", requires_grad=True)
vel = torch.randn(4096, 3, device="cuda", requires_grad=True)
L = torch.linalg.cross(pos, vel)
tq = torch.cross(pos, L, dim=1)
print(type(L.grad_fn).__name__, tuple(tq.shape))
feats = torch.randn(1024, 128, device="cuda", requires_grad=True)
protos = torch.randn(64, 128, device="cuda", requires_grad=True)
dmat = torch.cdist(feats, protos)
few = torch.cdist(feats[:16], protos[:8])
l1 = torch.cdist(feats[:256], protos, p=1)
print(type(dmat.grad_fn).__name__, type(few.grad_fn).__name__, type(l1.grad_fn).__name__, tuple(dmat.shape))
logits = -dmat
loss = F.cross_entropy(logits, torch.arange(1024, device="cuda") % 64) + few.mean() + l1.mean() + tq.pow(2).mean()
mem("distances")
loss.backward()
mem("distances backward")
del L, tq, dmat, few, l1, logits, loss
mem("end")
