# float64 computed in float64 (PyTorch's opmath for double is double): the
# map kernels (fill, casts, + − × ÷ with alpha, neg, reciprocal, abs, sqrt)
# and sum/mean accumulate in f64. Lines tagged "float64" are compared to
# 1e-12 (an f32 computation is off by ~1e-8); tensors print as PyTorch's
# formatter decides from the float64 values (1 + 1e-9 is not an integer, so
# 4 decimals; a ratio above 1000 switches to scientific notation).
import math
import torch

d = torch.float64
x = torch.tensor([math.sin(0.7 * i) for i in range(12)], device="cuda", dtype=d).view(3, 4)
y = torch.tensor([math.cos(0.3 * i) + 1.5 for i in range(12)], device="cuda", dtype=d).view(3, 4)
print("float64 add", (x + y).sum().item())
print("float64 add alpha", torch.add(x, y, alpha=0.1).sum().item())
print("float64 sub", (x - 0.3 * y).sum().item())
print("float64 mul", (x * y).sum().item())
print("float64 div", (x / y).sum().item())
print("float64 scalar", (x * 0.1 + 0.7).sum().item())
print("float64 neg abs", (-x).abs().sum().item())
print("float64 sqrt", y.sqrt().sum().item())
print("float64 reciprocal", y.reciprocal().sum().item())
print("float64 mean", x.mean().item(), (x * y).mean(dim=1).tolist())
print("float64 sum dim", (x / 3).sum(dim=0).tolist())
print("float64 fill", torch.full((2,), 0.1, device="cuda", dtype=d).tolist())
print("float64 third", (torch.ones(3, device="cuda", dtype=d) / 3).tolist())
print("float64 cast", x.to(torch.float32).to(d).sum().item(), (x * 1000).to(torch.int64).tolist())
big = torch.tensor([2**40 + 1, -(2**52) - 3, 7], device="cuda")
print("float64 from int64", big.to(d).tolist(), (big.to(d) / 2).tolist())
print(x)
print(x / y)
print(torch.ones(3, device="cuda", dtype=d) + 1e-9)
print(torch.ones(3, device="cuda", dtype=d) * 2)
print(torch.tensor([1e-9, 1.0, 3.0], device="cuda", dtype=d) * 1.5)
print(x.sum(), y.mean())
s = torch.zeros(4, device="cuda", dtype=d)
for i in range(10):
    s += 0.1
print("float64 accumulate", s.tolist())
print("float64 pow", (y ** 2).sum().item(), (y ** 3).sum().item(), (x ** 2).tolist())
