# A number raised to a tensor (s ** t: PyTorch's pow.Scalar) forward and
# backward, as positional encodings and schedules use it, in float32,
# float64 and bfloat16; a tensor raised to a tensor in float32.
import torch

x = (torch.arange(8, dtype=torch.float32, device="cuda") / 4 - 0.5).requires_grad_()
y = 2 ** x
print(y)
(y * torch.linspace(-1, 1, 8, device="cuda")).sum().backward()
print(x.grad)
d = 16
inv = 1.0 / (10000 ** (torch.arange(0, d, 2, device="cuda").float() / d))
print(inv)
print((0.5 ** torch.arange(5, device="cuda", dtype=torch.float64)).tolist())
print(3 ** x.detach().bfloat16())
a = torch.linspace(0.5, 2.0, 4, device="cuda")
print(a ** torch.linspace(-1.0, 2.0, 4, device="cuda"))
