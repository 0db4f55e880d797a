# float64 elementwise ops, selections, reductions and losses of CUDA
# tensors, computed in float64 (PyTorch's opmath for double is double),
# forward and backward. The model has no torch.set_printoptions: values are
# printed through tolist() (Python's repr, 17 digits) on lines tagged
# "float64", which the comparator checks to 1e-12.
import torch
import torch.nn.functional as F

d = torch.float64


def t(n, shape, a=0.37, b=1.1):
    return torch.tanh(torch.arange(n, dtype=d, device="cuda") * a - b).view(shape)


def show(name, v):
    print("float64 " + name, v.tolist())


x = t(12, (3, 4)) * 3
p = t(12, (3, 4), 0.29, 0.4) * 0.45 + 0.5
show("exp", torch.exp(x))
show("log", torch.log(p))
show("log special", torch.log(torch.tensor([0.0, -1.0, 1e-310, 1.0], device="cuda", dtype=d)))
show("pow 2.5", p ** 2.5)
show("pow -1.5", torch.pow(p, -1.5))
show("pow negative base", torch.pow(x, 3.0))
show("gelu", F.gelu(x))
show("gelu wide", F.gelu(t(16, (16,), 0.9, 7) * 7))
show("silu", F.silu(x))
show("leaky_relu", F.leaky_relu(x, 0.3))
show("where", torch.where(x > 0.5, x, p))
show("masked_fill", x.masked_fill(x < -1, 0.1))
show("clamp", torch.clamp(x, -0.3, 0.7))
show("clamp_min", torch.clamp(x, min=0.1))
show("clamp_max", torch.clamp(x, max=-0.2))
show("maximum", torch.maximum(x, p))
show("tril", torch.tril(x))
show("triu", torch.triu(x, 1))
print(x.exp())

# backward
xg = x.clone().requires_grad_()
g = t(12, (3, 4), 0.41, 0.9)
for name, f in [
    ("exp", torch.exp),
    ("gelu", F.gelu),
    ("silu", F.silu),
    ("leaky_relu", lambda v: F.leaky_relu(v, 0.3)),
    ("clamp", lambda v: v.clamp(-0.3, 0.7)),
    ("pow", lambda v: v.abs() ** 2.5),
    ("masked_fill", lambda v: v.masked_fill(v < -1, 0.1)),
    ("where", lambda v: torch.where(v > 0.5, v, v * 2)),
    ("tril", torch.tril),
]:
    xg.grad = None
    f(xg).backward(g)
    show(name + " backward", xg.grad)
pg = p.clone().requires_grad_()
torch.log(pg).backward(g)
show("log backward", pg.grad)

# dropout (values from the Philox stream: only the kept scale is printed)
torch.manual_seed(0)
dr = F.dropout(x, 0.3)
kept = dr != 0
show("dropout kept", (dr[kept] / x[kept]))

# reductions
show("max", x.max())
show("min", x.min())
v, i = x.max(dim=1)
show("max dim", v)
print("float64 max dim indices", i.tolist())
v, i = x.min(dim=0)
show("min dim", v)
print("float64 min dim indices", i.tolist())
print("float64 argmax", x.argmax().item(), x.argmax(dim=1).tolist(), x.argmin(dim=0).tolist())
show("var", x.var())
show("var dim", x.var(dim=1))
show("std", x.std(dim=0, correction=0))
show("norm", x.norm())
show("norm dim", x.norm(dim=1))

# losses
tgt = t(12, (3, 4), 0.17, 0.5)
show("mse_loss", F.mse_loss(x, tgt))
show("mse_loss sum", F.mse_loss(x, tgt, reduction="sum"))
show("mse_loss none", F.mse_loss(x, tgt, reduction="none"))
yt = (t(12, (3, 4), 0.31, 1.7) + 1) / 2
show("binary_cross_entropy", F.binary_cross_entropy(p, yt))
show("binary_cross_entropy none", F.binary_cross_entropy(p, yt, reduction="none"))
xg = x.clone().requires_grad_()
F.mse_loss(xg, tgt).backward()
show("mse_loss backward", xg.grad)
pg = p.clone().requires_grad_()
F.binary_cross_entropy(pg, yt).backward()
show("binary_cross_entropy backward", pg.grad)
xg = x.clone().requires_grad_()
(xg.max(dim=1)[0].sum() + xg.var() + xg.norm()).backward()
show("reductions backward", xg.grad)

# layer_norm (weight and bias) and its backward
ln = torch.nn.LayerNorm(4, dtype=d, device="cuda")
with torch.no_grad():
    ln.weight.copy_(t(4, (4,), 0.5, 0.3) + 1)
    ln.bias.copy_(t(4, (4,), 0.7, 1.2))
xg = x.clone().requires_grad_()
y = ln(xg)
show("layer_norm", y)
(y * g).sum().backward()
show("layer_norm backward", xg.grad)
show("layer_norm weight grad", ln.weight.grad)
show("layer_norm bias grad", ln.bias.grad)
show("layer_norm no affine", F.layer_norm(x, (3, 4), eps=0.1))

# batch_norm: training (running statistics updated), evaluation, backward
bn = torch.nn.BatchNorm2d(3, dtype=d, device="cuda")
with torch.no_grad():
    bn.weight.copy_(t(3, (3,), 0.6, 0.2) + 1)
    bn.bias.copy_(t(3, (3,), 0.8, 1.0))
xb = (t(2 * 3 * 2 * 2, (2, 3, 2, 2), 0.23, 1.4) * 2).requires_grad_()
yb = bn(xb)
show("batch_norm", yb)
show("batch_norm running", torch.cat([bn.running_mean, bn.running_var]))
(yb * t(24, (2, 3, 2, 2), 0.19, 0.6)).sum().backward()
show("batch_norm backward", xb.grad)
show("batch_norm weight grad", bn.weight.grad)
bn.eval()
show("batch_norm eval", bn(xb.detach()))
