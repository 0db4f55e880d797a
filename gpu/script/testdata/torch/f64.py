# float64 matmul family and softmax/log_softmax (+ backward), cross_entropy,
# computed in float64 (PyTorch's opmath for double is double). Lines tagged
# "float64" are compared to 1e-12.
import math
import torch
import torch.nn.functional as F

d = torch.float64
A = torch.tensor([[math.sin(0.37 * (i * 5 + j)) for j in range(5)] for i in range(4)], device="cuda", dtype=d)
B = torch.tensor([[math.cos(0.23 * (i * 3 + j)) + 0.1 for j in range(3)] for i in range(5)], device="cuda", dtype=d)
print("float64 mm", torch.mm(A, B).tolist())
print("float64 matmul", (A @ B).sum().item(), torch.matmul(A, B)[1].tolist())
print("float64 mv", (A @ B[:, 0]).tolist(), (A[0] @ B).tolist(), (A[0] @ A[1]).item())
C = A.view(2, 2, 5)
print("float64 bmm", torch.bmm(C, C.transpose(1, 2)).tolist())
print("float64 batched", (C @ B).sum(dim=0).tolist())
bias = torch.tensor([0.5, -0.25, 0.125], device="cuda", dtype=d)
print("float64 addmm", torch.addmm(bias, A, B).tolist())
W = B.t().contiguous()
print("float64 linear", F.linear(A, W, bias).tolist(), F.linear(A, W).sum().item())
print("float64 transposed", (A.t() @ A).diagonal().tolist())
print(A @ B)
X = torch.tensor([[math.sin(1.3 * i + 0.7 * j) * 3 for j in range(6)] for i in range(3)], device="cuda", dtype=d)
print("float64 softmax", F.softmax(X, dim=1).tolist())
print("float64 softmax dim0", torch.softmax(X, 0).tolist())
print("float64 log_softmax", F.log_softmax(X, dim=1).tolist())
print("float64 log_softmax dim0", X.log_softmax(0).tolist())
print("float64 softmax big", F.softmax(X * 300, dim=1).tolist())
Xf = torch.tensor([[1.0, 2.0, 3.0]], device="cuda")
print("float64 softmax from float32", F.softmax(Xf, dim=1, dtype=d).tolist())
x = X.clone().requires_grad_(True)
g = torch.tensor([[math.cos(0.9 * i + 0.4 * j) for j in range(6)] for i in range(3)], device="cuda", dtype=d)
F.softmax(x, dim=1).backward(g)
print("float64 softmax backward", x.grad.tolist())
x.grad = None
F.log_softmax(x, dim=1).backward(g)
print("float64 log_softmax backward", x.grad.tolist())
t = torch.tensor([2, 0, 5], device="cuda")
x.grad = None
loss = F.cross_entropy(x, t)
loss.backward()
print("float64 cross_entropy", loss.item(), x.grad.tolist())
x.grad = None
loss = F.cross_entropy(x, t, reduction="sum")
loss.backward()
print("float64 cross_entropy sum", loss.item(), x.grad.tolist())
w = A.clone().requires_grad_(True)
v = B.clone().requires_grad_(True)
(w @ v).backward(torch.ones(4, 3, device="cuda", dtype=d))
print("float64 mm backward", w.grad.tolist(), v.grad.tolist())
lin = torch.nn.Linear(5, 3, dtype=d, device="cuda")
with torch.no_grad():
    lin.weight.copy_(W)
    lin.bias.copy_(bias)
print("float64 nn.Linear", lin(A).sum().item())
print(F.softmax(X, dim=1))
