# Integer matrix products of CPU tensors (PyTorch multiplies them on the
# CPU, in the type's wrap-around arithmetic; CUDA has no integer GEMM).
import torch

for dt in (torch.int64, torch.int32, torch.int16, torch.int8, torch.uint8):
    a = (torch.arange(12, dtype=torch.int64).reshape(3, 4) * 7 - 20).to(dt)
    b = (torch.arange(20, dtype=torch.int64).reshape(4, 5) * 3 - 25).to(dt)
    v = torch.tensor([1, -2, 3, 5], dtype=torch.int64).to(dt)
    print("exact int mm", dt, (a @ b).tolist(), torch.mm(a, b.t().t()).tolist())
    print("exact int mv dot", dt, (a @ v).tolist(), (v @ b).tolist(), (v @ v).item(), a.t().matmul(a).tolist())
    x = (torch.arange(24, dtype=torch.int64).reshape(2, 3, 4) - 11).to(dt)
    print("exact int bmm", dt, torch.bmm(x, x.transpose(1, 2)).tolist(), torch.matmul(x, b).tolist())
big = torch.tensor([[2**40, 3], [5, 2**40]])
print("exact int big", (big @ big).tolist())
