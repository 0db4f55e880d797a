# Integer values of the remaining ops on CUDA (session 12, gpu-ints-2):
# max/min (all, over a dim with indices), amax/amin, argmax/argmin,
# where, tril/triu, relu, sign, square, x ** k, isnan/isinf, eq,
# logical_not, all/any and mask indexing, for int64, int32, uint8, int8
# and int16: negative values, ties (the first index wins), wrap-around in
# the type, and int64 values beyond 2^53 that float64 would merge. Lines
# tagged "exact int" compare exactly.
import torch

base = [[-5, 7, 7, -9], [3, -100, 3, -3], [0, 1, -1, -4]]
for dt in (torch.int64, torch.int32, torch.uint8, torch.int8, torch.int16):
    y = torch.tensor(base, device="cuda").to(dt)
    n = str(dt)
    print("exact int", n, "y", y.tolist())
    print("exact int", n, "max min", y.max().item(), y.min().item(), y.amax().item(), y.amin().item())
    v, i = y.max(1)
    print("exact int", n, "max dim 1", v.tolist(), i.tolist())
    v, i = y.min(0)
    print("exact int", n, "min dim 0", v.tolist(), i.tolist())
    v, i = y.max(0, keepdim=True)
    print("exact int", n, "max dim 0 keepdim", v.tolist(), i.tolist())
    print("exact int", n, "argmax argmin", y.argmax().item(), y.argmin().item(), y.argmax(1).tolist(), y.argmin(0).tolist())
    print("exact int", n, "where", torch.where(y > 0, y, torch.zeros_like(y) + 2).tolist())
    print("exact int", n, "tril triu", y.tril().tolist(), y.triu(1).tolist(), y.tril(-1).tolist())
    print("exact int", n, "relu sign", y.relu().tolist(), y.sign().tolist())
    print("exact int", n, "square pow", y.square().tolist(), (y ** 2).tolist(), (y ** 3).tolist(), (y ** 5).tolist())
    print("exact int", n, "isnan isinf", y.isnan().tolist(), y.isinf().tolist())
    print("exact int", n, "eq", (y == y.t().reshape(3, 4)).tolist(), (y == 7).tolist())
    print("exact int", n, "logical_not", y.logical_not().tolist())
    print("exact int", n, "all any", y.all().item(), y.any().item(), (y * 0).any().item(), (y - y + 1).all().item())
    print("exact int", n, "mask", y[y > 0].tolist(), y[y < 0].tolist())
    print(y.max(1))
    print(y.tril())

# int64 beyond 2^53: neighbours that float64 would merge.
big = torch.tensor([[2**60 + 1, 2**60, -(2**60) - 1, 2**60 + 1], [2**53 + 1, 2**53, 2**53 + 1, -(2**62)]], device="cuda")
print("exact int big max min", big.max().item(), big.min().item(), big.amax().item(), big.amin().item())
v, i = big.max(1)
print("exact int big max dim 1", v.tolist(), i.tolist())
v, i = big.min(0)
print("exact int big min dim 0", v.tolist(), i.tolist())
print("exact int big argmax argmin", big.argmax().item(), big.argmin().item(), big.argmax(1).tolist(), big.argmin(1).tolist())
print("exact int big where", torch.where(big > 2**60, big, -big).tolist())
print("exact int big tril triu", big.tril().tolist(), big.triu().tolist())
print("exact int big relu sign", big.relu().tolist(), big.sign().tolist())
print("exact int big square pow", big.square().tolist(), (big ** 3).tolist())
print("exact int big eq", (big == 2**60 + 1).tolist(), (big[:, :2] == big[:, 2:]).tolist())
print("exact int big mask", big[big > 2**53].tolist())
print(big)
