# Convolution, pooling and batch norm with real values (+ backwards), then
# a small CNN (conv-bn-relu-pool-linear) trained 3 SGD steps. Deterministic
# inputs (sin of aranges); TF32 off so that cuDNN computes in float32.
import math
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.backends.cudnn.allow_tf32 = False


def ar(*shape, scale=0.7, shift=0.0, dtype=torch.float32):
    n = 1
    for s in shape:
        n *= s
    return torch.tensor([math.sin(i * scale + shift) for i in range(n)], device="cuda").view(*shape).to(dtype)


# conv2d: stride, padding, dilation, bias, and its three gradients
x = ar(2, 3, 6, 7).requires_grad_()
w = (0.5 * ar(4, 3, 3, 3, scale=0.37, shift=1.0)).requires_grad_()
b = (0.1 * ar(4, shift=2.0)).requires_grad_()
y = F.conv2d(x, w, b, stride=(2, 1), padding=(1, 2), dilation=(1, 2))
print("conv y", y.shape, y.tolist())
(y * ar(*y.shape, scale=0.23)).sum().backward()
print("conv gx", x.grad.tolist())
print("conv gw", w.grad.tolist())
print("conv gb", b.grad.tolist())

# groups, no bias, a transposed (non-contiguous) input
x2 = ar(2, 4, 5, 5, scale=0.9).transpose(2, 3).requires_grad_()
w2 = (0.3 * ar(6, 2, 2, 3, scale=0.41)).requires_grad_()
y2 = F.conv2d(x2, w2, groups=2, padding=1)
print("conv groups", y2.tolist())
(y2 * y2).sum().backward()
print("conv groups gx", x2.grad.tolist())
print("conv groups gw", w2.grad.tolist())

# conv1d with padding="same" (odd total padding) and an unbatched conv2d
x3 = ar(2, 3, 9, scale=0.5).requires_grad_()
w3 = ar(5, 3, 4, scale=0.3).requires_grad_()
y3 = F.conv1d(x3, w3, padding="same")
print("conv1d same", y3.tolist())
y3.sum().backward()
print("conv1d gx", x3.grad.tolist())
print("conv1d gw", w3.grad.tolist())
print("conv unbatched", F.conv2d(ar(3, 4, 4), w, b, padding=1).tolist())

# max_pool2d (padding, dilation) and its backward; avg_pool2d (ceil_mode,
# count_include_pad, divisor_override); adaptive_avg_pool2d
xp = ar(2, 3, 7, 6, scale=1.1).requires_grad_()
mp = F.max_pool2d(xp, 3, stride=2, padding=1)
print("maxpool", mp.tolist())
mp2 = F.max_pool2d(xp, 2, dilation=2)
print("maxpool dil", mp2.tolist())
(mp * ar(*mp.shape, scale=0.3)).sum().backward()
print("maxpool gx", xp.grad.tolist())
xa = ar(2, 2, 5, 7, scale=0.8).requires_grad_()
ap = F.avg_pool2d(xa, 3, stride=2, padding=1, ceil_mode=True)
print("avgpool", ap.tolist())
print("avgpool nopad", F.avg_pool2d(xa, 3, stride=2, padding=1, count_include_pad=False).tolist())
print("avgpool div", F.avg_pool2d(xa, 2, divisor_override=3).tolist())
(ap * ar(*ap.shape, scale=0.6)).sum().backward()
print("avgpool gx", xa.grad.tolist())
xa.grad = None
aa = F.adaptive_avg_pool2d(xa, (3, 4))
print("adaptive", aa.tolist())
(aa * ar(*aa.shape, scale=0.4)).sum().backward()
print("adaptive gx", xa.grad.tolist())

# batch_norm: training (batch statistics, running stats updated with
# momentum and the unbiased variance), then eval; backward of both
bn = nn.BatchNorm2d(3).cuda()
with torch.no_grad():
    bn.weight.copy_(1 + 0.2 * ar(3, shift=0.3))
    bn.bias.copy_(0.1 * ar(3, shift=1.3))
xb = ar(4, 3, 2, 3, scale=0.55).requires_grad_()
yb = bn(xb)
print("bn train", yb.tolist())
print("bn running", bn.running_mean.tolist(), bn.running_var.tolist())
(yb * ar(*yb.shape, scale=0.33)).sum().backward()
print("bn gx", xb.grad.tolist())
print("bn gw", bn.weight.grad.tolist(), "gb", bn.bias.grad.tolist())
bn.eval()
xb.grad = None
ye = bn(xb)
print("bn eval", ye.tolist())
(ye * ar(*ye.shape, scale=0.33)).sum().backward()
print("bn eval gx", xb.grad.tolist())
x1 = ar(5, 4, scale=0.9)
print("bn1d", F.batch_norm(x1, None, None, training=True).tolist())


# a small CNN: 3 SGD steps with momentum
class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 4, 3, padding=1)
        self.bn = nn.BatchNorm2d(4)
        self.pool = nn.MaxPool2d(2)
        self.fc = nn.Linear(4 * 4 * 4, 5)

    def forward(self, x):
        x = self.pool(F.relu(self.bn(self.conv(x))))
        return self.fc(torch.flatten(x, 1))


net = Net().cuda()
with torch.no_grad():
    for i, p in enumerate(net.parameters()):
        p.copy_(0.3 * ar(*p.shape, scale=0.61 + 0.1 * i, shift=0.2 * i))
opt = torch.optim.SGD(net.parameters(), lr=0.1, momentum=0.9)
data = ar(6, 3, 8, 8, scale=0.47)
target = torch.tensor([0, 1, 2, 3, 4, 0], device="cuda")
for step in range(3):
    opt.zero_grad()
    loss = F.cross_entropy(net(data), target)
    loss.backward()
    print("step", step, "loss", loss.item())
    print("  conv.weight.grad[0,0]", net.conv.weight.grad[0, 0].tolist())
    print("  bn.weight.grad", net.bn.weight.grad.tolist())
    opt.step()
print("running_mean", net.bn.running_mean.tolist())
print("fc.bias", net.fc.bias.tolist())
