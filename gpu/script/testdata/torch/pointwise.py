# Pointwise ops with real values: silu (+ backward), clamp, comparisons
# into bool, logical ops, isnan/isinf/isfinite, where (+ backward), dtype
# casts through bool and int64, mixed-dtype arithmetic, sums of bools.
import torch
import torch.nn.functional as F

x = torch.arange(12, dtype=torch.float32, device="cuda").view(3, 4) * 0.5 - 2.5
print(F.silu(x))
print(F.silu(x.half()))
w = x.clone().requires_grad_(True)
F.silu(w).sum().backward()
print(w.grad)
print(x.clamp(-1.0, 1.5))
print(torch.clamp(x, min=0.25))
print(x.clamp(max=-0.5))
y = torch.tanh(torch.arange(12, dtype=torch.float32, device="cuda").view(3, 4) * 0.7 - 3.5) * 3
print(x == y, x != y)
print(x < y, x <= y)
print(x > y, x >= y)
print(x > 0.5, x <= -1.0, x == 1.0, x != 0.0)
print(y.half() < x.half())
m = x > 0
n = y < 1
print(torch.logical_not(m))
print(m.float(), m.long(), m.half())
print(x.long(), y.bool())
print(torch.logical_not(x.long()))
z = torch.tensor([1.0, 0.0, -1.0], device="cuda")
r = z / torch.zeros(3, device="cuda")
print(r, torch.isnan(r), torch.isinf(r), torch.isnan(z))
print(torch.where(m, x, y))
print(torch.where(x > y, x.half(), y.half()))
a = x.clone().requires_grad_(True)
b = y.clone().requires_grad_(True)
torch.where(a > b, a * 2, b * 3).sum().backward()
print(a.grad, b.grad)
i = torch.arange(6, device="cuda")
print(i * 0.5, i + 1.5, i / 4)
print(i.float() + x.view(-1)[:6], x.view(-1)[:6].half() * i.half())
print(m.sum(), (x > y).sum().item(), (x == x).sum(dim=1))
print((i == torch.tensor([0, 2, 2, 3, 0, 5], device="cuda")).float().mean().item())
t = x.clone()
t.sigmoid_()
print(t)
t.tanh_()
print(t)
t.exp_()
print(t)
t.sqrt_()
t.reciprocal_()
print(t)
