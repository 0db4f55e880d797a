# Transposed 3-d convolutions (stride, padding, output_padding, dilation,
# groups, bias, unbatched, half) and their backward, TF32 off.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.backends.cudnn.allow_tf32 = False
torch.backends.cuda.matmul.allow_tf32 = False


def t(n, shape, a=0.37, b=1.1):
    return torch.tanh(torch.arange(n, dtype=torch.float32, device="cuda") * a - b).view(shape)


x = t(2 * 4 * 2 * 3 * 2, (2, 4, 2, 3, 2), 0.21, 3)
w = t(4 * 3 * 2 * 2 * 2, (4, 3, 2, 2, 2), 0.43, 5)
b = t(6, (6,), 0.9, 2)
print(F.conv_transpose3d(x, w))
print(F.conv_transpose3d(x, w, stride=2))
print(F.conv_transpose3d(x, w, stride=(2, 1, 2), padding=(1, 0, 1), output_padding=(1, 0, 1)))
print(F.conv_transpose3d(x, w, b, groups=2))
print(F.conv_transpose3d(x[1], w, stride=2, dilation=(2, 1, 1)))

m = nn.ConvTranspose3d(4, 2, 3, stride=2, padding=1, output_padding=1).cuda()
with torch.no_grad():
    m.weight.copy_(t(4 * 2 * 27, (4, 2, 3, 3, 3), 0.13, 4))
    m.bias.copy_(torch.tensor([0.25, -0.5], device="cuda"))
xi = x.clone().requires_grad_()
y = m(xi)
print(y.shape)
print(y[0, :, :2])
(y * t(y.numel(), y.shape, 0.07, 2)).sum().backward()
print(xi.grad)
print(m.weight.grad[:, :, 1])
print(m.bias.grad)

mg = nn.ConvTranspose3d(4, 6, 2, stride=2, groups=2).cuda()
with torch.no_grad():
    mg.weight.copy_(t(4 * 3 * 8, (4, 3, 2, 2, 2), 0.29, 1))
    mg.bias.zero_()
xg = x.clone().requires_grad_()
yg = mg(xg)
yg.tanh().sum().backward()
print(yg[1, 2])
print(xg.grad[0])
print(mg.weight.grad[1])

h = F.conv_transpose3d(x.half(), w.half(), stride=2)
print(h[0, 0])
