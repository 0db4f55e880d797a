# int64 values beyond 2^53 read back exactly (print, .item(), .tolist())
# and Python numbers beyond 2^53 in integer kernels (fill, tensor literals,
# add/sub/mul by a number, comparisons with a number). Lines tagged
# "exact int" compare exactly.
import torch

big = torch.tensor([2**62 + 1, -(2**62) - 7, 2**53 + 1, 3], device="cuda")
print("exact int tolist", big.tolist(), big[0].item(), big[1].item())
print("exact int print", big)
print("exact int fill", torch.full((2,), 2**60 + 3, device="cuda").tolist(), torch.full((2,), -(2**55) - 1, device="cuda"))
print("exact int add", (big + 1).tolist(), (big - 2**60).tolist(), (big + 2**61 + 5).tolist())
print("exact int mul", (big[2:] * 3).tolist(), (big[3:] * (2**60 + 1)).tolist())
print("exact int compare", (big == 2**62 + 1).tolist(), (big > 2**53).tolist(), (big <= 2**53 + 1).tolist())
print("exact int sum", big.sum().item(), big[2:].sum())
print("exact int floordiv", (big // 3).tolist(), (big % 1000).tolist(), (big // (2**60 + 1)).tolist())
w = torch.tensor([2**31 - 1, -(2**31), 5], device="cuda", dtype=torch.int32)
print("exact int int32 wrap", (w + 1).tolist(), (w * 2).tolist(), w.sum().item())
print("exact int neg", (-big).tolist(), big.abs().tolist())
print(big.view(2, 2))
