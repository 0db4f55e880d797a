# Integer tensors compute in integers (PyTorch computes int64/int32 in
# their own type, exactly, wrapping on overflow): add/sub with alpha, mul,
# neg, abs, scalar affine, comparisons, casts, fill, arange beyond 2^24 and
# sums accumulate in int64. Lines tagged "exact int" are compared exactly
# (float32 would be off beyond 2^24, float64 beyond 2^53). Values are read
# back as float64, so results beyond 2^53 are computed on the GPU and
# brought back below 2^53 by more integer arithmetic before printing.
import torch

a = torch.arange(4, device="cuda")
print("exact int add", (a + 2**40).tolist())
print("exact int big", a + 2**40)
x = a + 2**52
# 2^54, 2^60 and 2^62 as tensors: scalars beyond 2^53 reach the model as
# float64 (it would leave them not computed).
t54 = (a * 0 + 2**27) * (a * 0 + 2**27)
t60 = (a * 0 + 2**30) * (a * 0 + 2**30)
print("exact int beyond 2^53", (x * 4 + 3 - t54).tolist())
print("exact int sub alpha", torch.sub(x, a, alpha=3).tolist(), torch.add(x, a, alpha=-5).tolist())
y = (a + 2**30) * (a + 2**30 + 1)
print("exact int mul", (y - t60).tolist())
print("exact int neg abs", ((-y) + t60).tolist(), ((-y).abs() - t60).tolist())
print("exact int affine", (a * 2**31 + 2**33 + 1).tolist())
print("exact int compare", (x + 1 == x).tolist(), (x + 1 > x).tolist(), (x == 2**52 + 2).tolist())
print("exact int sum", (x.sum() - t54[:1].sum()).item(), (y * 8).sum().item(), (y.sum() - t60.sum()).item())
print("exact int sum dim", (a.view(2, 2) + 2**50).sum(dim=1).tolist())
r = torch.arange(2**24 + 1, 2**24 + 6, device="cuda")
print("exact int arange", r.tolist(), torch.arange(2**40, 2**40 + 9, 3, device="cuda").tolist())
print("exact int fill", torch.full((3,), 2**45 + 7, device="cuda", dtype=torch.int64).tolist())
i = torch.arange(3, device="cuda", dtype=torch.int32)
print("exact int int32", (i + 2**25 + 1).tolist(), (i * 2**20).sum().item(), (i + 2**30).sum().item())
print("exact int int32 to int64", (i.to(torch.int64) + 2**40).tolist(), (x[:3] + i).tolist())
print("exact int to float64", (a + 2**50 + 1).to(torch.float64).tolist())
print("exact int from float64", (torch.arange(3, device="cuda", dtype=torch.float64) + 2**50).to(torch.int64).tolist())
print("float from int", (a + 2**40) * 0.5)
