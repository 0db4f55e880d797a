import torch
import torch.nn.functional as F

torch.manual_seed(0)
x = torch.ones(2, 3, device="cuda")
y = x * 2 + 1
print(y)
print(y.sum().item())
w = torch.full((3, 2), 0.5, device="cuda", requires_grad=True)
loss = (x @ w).relu().mean()
loss.backward()
print(loss.item())
print(w.grad)
a = torch.arange(6, device="cuda").view(2, 3).float()
print(a.t().contiguous())
print(F.softmax(a, dim=1))
t = torch.tensor([0, 2])
print(F.cross_entropy(a, t.cuda()).item())
print(a.half() / 3)
print(torch.randn(2, 2, device="cuda").shape)
z = torch.where(a > 2, a, a * 0)
print(z)
torch.cuda.synchronize()
print(torch.zeros_like(a) + torch.full_like(a, 2).sum())
