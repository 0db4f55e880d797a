# float64 convolutions (1-d to 3-d, stride, padding, dilation, groups,
# bias), transposed convolutions, max/avg/adaptive pooling, their
# backwards and all/any of CUDA tensors, computed in float64; and a ** b
# with a tensor exponent in float32/float16/bfloat16. float64 values are
# printed through tolist() on lines tagged "float64" (compared to 1e-12).
import torch
import torch.nn.functional as F

torch.backends.cudnn.allow_tf32 = False
torch.backends.cuda.matmul.allow_tf32 = False
d = torch.float64


def t(n, shape, a=0.37, b=1.1):
    return torch.tanh(torch.arange(n, dtype=d, device="cuda") * a - b).view(shape)


def r(n, shape, a=0.023):
    # scattered values in [-0.5, 0.5): the fractional part of a wide ramp
    return (t(n, shape, a, n * a / 2) * 37) % 1 - 0.5


def show(name, v):
    print("float64 " + name, v.tolist())


# convolutions, forward
x1 = t(2 * 4 * 9, (2, 4, 9), 0.21, 3)
w1 = t(6 * 2 * 3, (6, 2, 3), 0.43, 5)
b1 = t(6, (6,), 0.9, 2)
show("conv1d", F.conv1d(x1, w1, b1, stride=2, padding=1, groups=2))
x2 = r(2 * 3 * 5 * 6, (2, 3, 5, 6), 0.03)
w2 = t(4 * 3 * 3 * 2, (4, 3, 3, 2), 0.31, 2)
show("conv2d", F.conv2d(x2, w2, padding=(1, 0), dilation=(1, 2)))
show("conv2d same", F.conv2d(x2, w2, t(4, (4,), 0.7, 1), padding="same"))
x3 = r(2 * 4 * 3 * 4 * 3, (2, 4, 3, 4, 3), 0.02)
w3 = t(2 * 4 * 2 * 2 * 2, (2, 4, 2, 2, 2), 0.29, 1)
show("conv3d", F.conv3d(x3, w3, stride=(1, 2, 1), padding=1))

# convolutions, backward
xg = x2.clone().requires_grad_()
wg = w2.clone().requires_grad_()
bg = t(4, (4,), 0.7, 1).requires_grad_()
y = F.conv2d(xg, wg, bg, stride=(2, 1), padding=1)
(y * t(y.numel(), y.shape, 0.07, 2)).sum().backward()
show("conv2d grad x", xg.grad)
show("conv2d grad w", wg.grad)
show("conv2d grad b", bg.grad)
xg3 = x3.clone().requires_grad_()
wg3 = w3.clone().requires_grad_()
F.conv3d(xg3, wg3, padding=1).tanh().sum().backward()
show("conv3d grad x", xg3.grad[0, 1])
show("conv3d grad w", wg3.grad)

# transposed convolutions, forward and backward
show("conv_transpose1d", F.conv_transpose1d(x1, t(4 * 3 * 2, (4, 3, 2), 0.3, 2), stride=2, output_padding=1))
xt = t(2 * 4 * 3 * 2, (2, 4, 3, 2), 0.23, 1).requires_grad_()
wt = t(4 * 2 * 2 * 3, (4, 2, 2, 3), 0.19, 2).requires_grad_()
bt = t(4, (4,), 0.5, 1).requires_grad_()
yt = F.conv_transpose2d(xt, wt, bt, stride=2, padding=(0, 1), groups=2)
(yt * t(yt.numel(), yt.shape, 0.11, 3)).sum().backward()
show("conv_transpose2d", yt)
show("conv_transpose2d grad x", xt.grad)
show("conv_transpose2d grad w", wt.grad)
show("conv_transpose2d grad b", bt.grad)
show("conv_transpose3d", F.conv_transpose3d(x3, t(4 * 2 * 8, (4, 2, 2, 2, 2), 0.41, 3), stride=2)[1, 0])

# pooling, forward and backward
p2 = r(2 * 3 * 7 * 6, (2, 3, 7, 6)).requires_grad_()
m, i = F.max_pool2d(p2, 3, stride=2, padding=1, return_indices=True, ceil_mode=True)
show("max_pool2d", m)
print(i)
(m * t(m.numel(), m.shape, 0.31, 1)).sum().backward()
show("max_pool2d grad", p2.grad)
p2.grad = None
a = F.avg_pool2d(p2, (3, 2), stride=2, padding=1, ceil_mode=True, count_include_pad=False)
(a * t(a.numel(), a.shape, 0.27, 2)).sum().backward()
show("avg_pool2d", a)
show("avg_pool2d grad", p2.grad)
p2.grad = None
aa = F.adaptive_avg_pool2d(p2, (3, 4))
aa.square().sum().backward()
show("adaptive_avg_pool2d", aa)
show("adaptive_avg_pool2d grad", p2.grad)
p1 = r(2 * 3 * 10, (2, 3, 10), 0.04)
show("max_pool1d", F.max_pool1d(p1, 3, stride=2, dilation=2))
show("avg_pool1d", F.avg_pool1d(p1, 4, stride=3, padding=2, count_include_pad=True))
p3 = r(2 * 2 * 4 * 5 * 4, (2, 2, 4, 5, 4), 0.017).requires_grad_()
m3 = F.max_pool3d(p3, 2, stride=(1, 2, 2))
a3 = F.avg_pool3d(p3, (2, 3, 2), stride=(2, 1, 2), padding=1, divisor_override=5)
am3 = F.adaptive_max_pool3d(p3, (3, 2, 3))
(m3.sum() + (a3 * a3).sum() + (am3 * am3).sum()).backward()
show("max_pool3d", m3[0])
show("avg_pool3d", a3[1])
show("adaptive_max_pool3d", am3[1])
show("pool3d grad", p3.grad[0])

# all / any
z = torch.tensor([0.0, -0.0, 5e-324, 0.0], device="cuda", dtype=d)
print(z.all(), z.any(), torch.zeros(3, device="cuda", dtype=d).any(), x1.all(), (x1 * 0).all())

# a ** b with a tensor exponent in the float32 types
pa = t(12, (3, 4), 0.29, 0.4).float() * 2 + 2.5
pb = t(12, (3, 4), 0.51, 2).float() * 3
print(torch.pow(pa, pb))
print(pa ** pb[1])
print(torch.pow(pa.half(), pb.half()))
print(torch.pow(pa.bfloat16(), pb.bfloat16()))
print(torch.pow(torch.tensor([-2.0, -2.0, 0.0, -0.5], device="cuda"), torch.tensor([3.0, 0.5, -1.0, -2.0], device="cuda")))
