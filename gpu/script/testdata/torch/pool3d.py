# 3-d pooling: max_pool3d (indices, padding, dilation, ceil_mode),
# avg_pool3d (count_include_pad, divisor_override), adaptive average and
# max pooling with non-divisible sizes, the modules' backward, an
# unbatched and a bfloat16 input. Deterministic inputs: tanh of a
# permuted arange (i·37 mod 101, exact int64 arithmetic) so that small
# windows hold no ties and no monotone runs, shifted positive so that no
# average or gradient cancels to a tiny number (its printing would hang
# on summation order).
import torch
import torch.nn as nn
import torch.nn.functional as F


def t(n, shape, a=0.05, b=2.5):
    i = torch.arange(n, device="cuda") * 37 % 101
    return torch.tanh(i.float() * a - b).view(shape)


x = t(2 * 3 * 5 * 6 * 7, (2, 3, 5, 6, 7)) + 1.25

# max pooling with indices
y, i = F.max_pool3d(x, 2, return_indices=True)
print(y[0, 0])
print(i[1, 2])
y, i = F.max_pool3d(x, 3, stride=2, padding=1, dilation=1, ceil_mode=True, return_indices=True)
print(y.shape)
print(y[1, 1])
print(i[0, 2])
print(F.max_pool3d(x, (2, 3, 2), stride=(1, 2, 3), padding=(1, 1, 0), dilation=(2, 1, 2))[0, 1])

# average pooling
print(F.avg_pool3d(x, 3, stride=2, padding=1, ceil_mode=True)[0, 0])
print(F.avg_pool3d(x, 3, stride=2, padding=1, ceil_mode=True, count_include_pad=False)[0, 0])
print(F.avg_pool3d(x, (2, 3, 2), stride=2, padding=(1, 1, 0), divisor_override=5)[1, 2])

# adaptive pooling (non-divisible sizes)
print(F.adaptive_avg_pool3d(x, (2, 3, 2))[1])
print(F.adaptive_avg_pool3d(x, 1).view(-1))
ya, ia = F.adaptive_max_pool3d(x, 2, return_indices=True)
print(ya[0])
print(ia[1])

# modules with backward (positive upstream gradients: no cancellation)
g = t(2 * 3 * 3 * 3 * 4, (2, 3, 3, 3, 4), 0.07, 3) + 2
xm = x.clone().requires_grad_()
ym = nn.MaxPool3d(3, stride=2, padding=1)(xm)
print(ym.shape)
(ym * g).sum().backward()
print(xm.grad[0, 1])

xa = x.clone().requires_grad_()
ya = nn.AvgPool3d(3, stride=2, padding=1, count_include_pad=False)(xa)
(ya * g).sum().backward()
print(xa.grad[1, 0])

xs = x.clone().requires_grad_()
ys = nn.AvgPool3d((2, 3, 2), stride=1)(xs)
ys.tanh().sum().backward()
print(xs.grad[0, 2])

xd = x.clone().requires_grad_()
yd = nn.AdaptiveAvgPool3d((2, 4, 3))(xd)
(yd * (t(yd.numel(), yd.shape, 0.11, 1) + 2)).sum().backward()
print(xd.grad[1, 1])

xx = x.clone().requires_grad_()
yx = F.adaptive_max_pool3d(xx, (2, 4, 3))
(yx * (t(yx.numel(), yx.shape, 0.11, 1) + 2)).sum().backward()
print(xx.grad[0, 0])

# unbatched [C, D, H, W]
xu = x[1].clone().requires_grad_()
yu, iu = F.max_pool3d(xu, 2, stride=(2, 1, 2), return_indices=True)
print(yu.shape, iu[2, 1])
yu.sum().backward()
print(xu.grad[0])
print(F.avg_pool3d(x[0], 2)[1])
print(F.adaptive_avg_pool3d(x[0], (3, 2, 4))[2])

# bfloat16
xb = x.bfloat16()
print(F.max_pool3d(xb, 2)[0, 1])
print(F.avg_pool3d(xb, 3, stride=2, padding=1)[1, 0])
print(F.adaptive_avg_pool3d(xb, (2, 3, 2))[0, 2])
