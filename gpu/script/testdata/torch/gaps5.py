# Python integers beyond 2^53 assigned by t[idx] = v into int64 tensors
# (one index tensor, a list, a mask, a slice then an index, two index
# tensors): the number reaches the kernels exactly. Lines tagged
# "exact int" compare exactly.
import torch

t = torch.arange(6, device="cuda")
t[torch.tensor([1, 4], device="cuda")] = 2**60 + 3
print("exact int setitem idx", t.tolist())
t[[0, 2]] = -(2**55) - 1
print("exact int setitem list", t.tolist())
t[t == 3] = 2**62 + 1
print("exact int setitem mask", t.tolist())
m = torch.zeros(2, 3, dtype=torch.int64, device="cuda")
m[:, torch.tensor([2], device="cuda")] = 2**53 + 1
print("exact int setitem slice idx", m.tolist())
m[torch.tensor([0, 1], device="cuda"), torch.tensor([1, 0], device="cuda")] = 2**61 + 7
print("exact int setitem two idx", m.tolist())
m[torch.tensor([1], device="cuda"), torch.tensor([2], device="cuda")] = 5
print("exact int setitem two idx small", m.tolist())
print(m)
