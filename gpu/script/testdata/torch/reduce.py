# Reductions with real values: max/min/argmax/argmin (all and over a dim,
# keepdim, values and indices, ties and NaN), var/std with a correction,
# norm (p=2, 1, inf; dims), sum/mean over dimensions that do not merge;
# and PyTorch's printing: long rows wrapped at 80 columns, summarised
# tensors, inf/nan padding, suffixes on a new line.
import torch

x = torch.tensor([0.0, 0.6442, 0.9854, 0.8632, 0.335, -0.3508, -0.8716, -0.9825, -0.6313, 0.0168, 0.657, 0.9882, 0.8546, 0.3191, -0.3665, -0.8797, -0.9792, -0.6181, 0.0336, 0.6696, 0.9906, 0.8457, 0.3031, -0.3821], device="cuda").view(2, 3, 4)
print(x.max(), x.min(), x.argmax(), x.argmin())
v, i = x.max(dim=1)
print(v, i)
v, i = torch.min(x, 2, keepdim=True)
print(v, i)
print(x.argmax(dim=0), x.argmin(dim=-1, keepdim=True))
v, i = x.half().max(dim=2)
print(v, i)
t = torch.tensor([1.0, 3.0, 3.0, -2.0, 3.0, -2.0], device="cuda")
print(t.argmax(), t.argmin(), t.max(), t.min())
n = torch.tensor([1.0, float("nan"), 5.0, float("nan")], device="cuda")
print(n.max(), n.argmax(), n.min(), n.argmin())
print(x.var(), x.std(), x.var(dim=1), x.std(dim=(0, 2), keepdim=True))
print(x.var(dim=2, correction=0), x.std(dim=1, unbiased=False), torch.var(x, 0))
print(x.half().std(dim=2))
print(x.norm(), x.norm(dim=1), x.norm(p=1, dim=2, keepdim=True), x.norm(p=float("inf")))
print(torch.linalg.vector_norm(x, ord=float("inf"), dim=(0, 1)), torch.linalg.vector_norm(x, ord=1))
print(x.sum(dim=(0, 2)), x.mean(dim=(0, 2), keepdim=True), x.transpose(1, 2).sum(dim=(0, 1)))
print(x.transpose(0, 2).amax(), x.transpose(1, 2).max(dim=1)[0])
print(torch.arange(30, dtype=torch.float32, device="cuda") * 1.5)
print(torch.arange(2000, dtype=torch.float32, device="cuda"))
print(torch.arange(1500, device="cuda").view(500, 3))
print((torch.arange(40, dtype=torch.float32, device="cuda").view(4, 10) * 0.15 - 3).half())
print(torch.tensor([1.0, float("inf"), float("nan"), -float("inf")], device="cuda"))
print(torch.tensor([float("inf"), float("nan"), -float("inf")], device="cuda"))
print(torch.tensor([-1.5, float("inf"), 0.0], device="cuda"), torch.zeros(3, device="cuda"))
print(torch.zeros(2, 0, device="cuda"), torch.zeros(0, dtype=torch.int64, device="cuda"))
print(torch.tensor([1e-5, 1.0, 300.0], device="cuda"), torch.tensor([1.0, 2e9], device="cuda"))
w = (torch.arange(16, dtype=torch.float32, device="cuda").view(2, 8) * 0.25).requires_grad_(True)
print(w * 1000)
# all()/any(): 0-dim bool results, empty tensors, half and int64 inputs.
c = torch.arange(5, device='cuda') > 2
print(c.all(), c.any(), c.all().dtype, torch.all(c), torch.any(c))
x = torch.arange(6., device='cuda').view(2, 3)
print(x.all(), x.any(), (x + 1).all(), (x * 0).any())
print(torch.zeros(0, device='cuda').all(), torch.zeros(0, device='cuda').any())
print(torch.ones(3, 4, device='cuda').half()[:, ::2].all(), torch.tensor([0, 0, 3], device='cuda').any())
