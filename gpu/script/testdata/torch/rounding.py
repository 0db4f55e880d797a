# Rounding and sign (floor, ceil, round half to even, trunc, sign with NaN
# and signed zeros), in float32, bfloat16, float64 and int64, their zero
# gradients, pow with a tensor exponent in float64, and the values of
# linspace, logspace and eye.
import torch

x = torch.tensor([-2.5, -1.5, -0.5, -0.0, 0.0, 0.5, 1.5, 2.5, 3.7, -3.7, 1e7 + 0.5, float("nan"), float("inf")],
                 device="cuda", requires_grad=True)
for f in (torch.floor, torch.ceil, torch.round, torch.trunc, torch.sign):
    y = f(x)
    print(y)
    print(f(x.detach().bfloat16()))
    print(f(x.detach().double()).tolist())
    y.sum().backward()
    print(x.grad)
    x.grad = None
i = torch.arange(7, device="cuda") - 3
print(i.floor(), i.round(), i.ceil(), i.trunc())
a = torch.linspace(0.5, 3.0, 6, device="cuda", dtype=torch.float64)
b = torch.linspace(-1.0, 2.0, 6, device="cuda", dtype=torch.float64)
print(torch.pow(a, b).tolist())
print((a ** b).tolist())

# linspace, logspace and eye (values computed as the CUDA kernels do)
print(torch.linspace(-1, 1, 7, device="cuda"))
print(torch.linspace(0.1, 0.9, 9, device="cuda", dtype=torch.float64).tolist())
print(torch.linspace(0, 10, 4, device="cuda", dtype=torch.int64), torch.linspace(-7, 5, 6, device="cuda", dtype=torch.int32))
print(torch.linspace(0, 1, 5, device="cuda", dtype=torch.bfloat16), torch.linspace(3, 3, 1, device="cuda"))
print(torch.logspace(0, 2, 5, device="cuda"), torch.logspace(-2, 2, 5, base=2, device="cuda", dtype=torch.float64).tolist())
print(torch.eye(3, 4, device="cuda"), torch.eye(2, device="cuda", dtype=torch.int64))
