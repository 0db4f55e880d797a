# Transposed convolutions (1-d and 2-d: stride, padding, output_padding,
# dilation, groups, bias, unbatched) and their backward, TF32 off.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.backends.cudnn.allow_tf32 = False
torch.backends.cuda.matmul.allow_tf32 = False


def t(n, shape, a=0.37, b=1.1):
    return torch.tanh(torch.arange(n, dtype=torch.float32, device="cuda") * a - b).view(shape)


x = t(2 * 3 * 5, (2, 3, 5))
w = t(3 * 2 * 3, (3, 2, 3), 0.5, 2)
print(F.conv_transpose1d(x, w))
print(F.conv_transpose1d(x, w, t(2, (2,), 1, 0), stride=2, padding=1, output_padding=1))
print(F.conv_transpose1d(x, w, dilation=2, padding=2))
print(F.conv_transpose1d(x[0], w, stride=3))

x2 = t(2 * 4 * 3 * 3, (2, 4, 3, 3), 0.21, 3)
w2 = t(4 * 3 * 2 * 2, (4, 3, 2, 2), 0.43, 5)
b2 = t(6, (6,), 0.9, 2)
print(F.conv_transpose2d(x2, w2))
print(F.conv_transpose2d(x2, w2, stride=2))
print(F.conv_transpose2d(x2, w2, stride=(2, 1), padding=(1, 0), output_padding=(1, 0)))
print(F.conv_transpose2d(x2, w2, b2[:6], groups=2))
print(F.conv_transpose2d(x2[1], w2, stride=2, dilation=2))

m = nn.ConvTranspose2d(4, 2, 3, stride=2, padding=1, output_padding=1).cuda()
with torch.no_grad():
    m.weight.copy_(t(4 * 2 * 9, (4, 2, 3, 3), 0.13, 4))
    m.bias.copy_(torch.tensor([0.25, -0.5], device="cuda"))
xi = x2.clone().requires_grad_()
y = m(xi)
print(y)
(y * t(y.numel(), y.shape, 0.07, 2)).sum().backward()
print(xi.grad)
print(m.weight.grad)
print(m.bias.grad)

m1 = nn.ConvTranspose1d(3, 4, 4, stride=2, padding=1, groups=1, bias=True).cuda()
with torch.no_grad():
    m1.weight.copy_(t(3 * 4 * 4, (3, 4, 4), 0.31, 2))
    m1.bias.copy_(t(4, (4,), 1, 1))
x1 = x.clone().requires_grad_()
y1 = m1(x1)
print(y1)
(y1 ** 2).sum().backward()
print(x1.grad)
print(m1.weight.grad)
print(m1.bias.grad)

mg = nn.ConvTranspose2d(4, 6, 2, stride=2, groups=2).cuda()
with torch.no_grad():
    mg.weight.copy_(t(4 * 3 * 4, (4, 3, 2, 2), 0.29, 1))
    mg.bias.zero_()
xg = x2.clone().requires_grad_()
yg = mg(xg)
yg.tanh().sum().backward()
print(yg)
print(xg.grad)
print(mg.weight.grad)

h = F.conv_transpose2d(x2.half(), w2.half(), stride=2)
print(h)
