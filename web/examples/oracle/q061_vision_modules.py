import torch
import torch.nn as nn
import torch.nn.functional as F

# Vision layers from classic architectures: AlexNet-style LocalResponseNorm,
# PReLU (per-channel and shared), a ShuffleNet unit's ChannelShuffle, an
# AdaptiveMaxPool2d head with indices, patch extraction with Unfold/Fold
# (sliding-window attention style), Softmax2d segmentation scores and a
# Softmin over distances; forward, backward and frees.
def mem(tag):
    print(f"{tag}: {torch.cuda.memory_allocated()} {torch.cuda.memory_reserved()} peak={torch.cuda.max_memory_allocated()}")
    torch.cuda.reset_peak_memory_stats()


torch.manual_seed(0)


class ShuffleBlock(nn.Module):
    def __init__(self, c, groups):
        super().__init__()
        self.conv = nn.Conv2d(c, c, 1, bias=False)
        self.act1 = nn.PReLU(c)
        self.shuffle = nn.ChannelShuffle(groups)
        self.act2 = nn.PReLU()

    def forward(self, x):
        y = self.shuffle(self.act1(self.conv(x)))
        return self.act2(y + x)


# A head on a backbone's feature maps [8, 64, 56, 56].
net = nn.Sequential(
    nn.PReLU(64),
    nn.LocalResponseNorm(5, alpha=1e-4, beta=0.75, k=2.0),
    ShuffleBlock(64, 4),
    nn.AdaptiveMaxPool2d((4, 4)),
    nn.Flatten(),
    nn.Linear(64 * 16, 10),
).cuda()
print(net)
mem("model")
x = torch.randn(8, 64, 56, 56, device="cuda")
out = net(x)
print(tuple(out.shape), type(out.grad_fn).__name__)
mem("forward")
F.cross_entropy(out, torch.randint(0, 10, (8,), device="cuda")).backward()
print(tuple(net[0].weight.grad.shape), tuple(net[2].act2.weight.grad.shape))
mem("backward")
del out, x
net.zero_grad(set_to_none=True)
mem("grads freed")

feat = torch.randn(8, 64, 32, 32, device="cuda", requires_grad=True)
pooled, idx = nn.AdaptiveMaxPool2d(7, return_indices=True)(feat)
p1 = F.adaptive_max_pool1d(feat.flatten(2), 16)
print(tuple(pooled.shape), idx.dtype, type(pooled.grad_fn).__name__, tuple(p1.shape), type(p1.grad_fn).__name__)
mem("adaptive max")
(pooled.sum() + p1.sum()).backward()
mem("adaptive max backward")
del pooled, idx, p1
feat.grad = None
mem("pool freed")

# Patches: unfold, a per-patch linear map, fold back (overlap-add).
patches = F.unfold(feat, kernel_size=4, stride=2, padding=1)
print(tuple(patches.shape), type(patches.grad_fn).__name__)
mem("unfold")
mixed = nn.Linear(64 * 16, 64 * 16, bias=False).cuda()(patches.transpose(1, 2)).transpose(1, 2)
back = nn.Fold(output_size=(32, 32), kernel_size=4, stride=2, padding=1)(mixed)
print(tuple(back.shape), type(back.grad_fn).__name__)
mem("fold")
back.pow(2).mean().backward()
mem("unfold/fold backward")
del patches, mixed, back
feat.grad = None
mem("patches freed")

seg = torch.randn(4, 21, 64, 64, device="cuda", requires_grad=True)
probs = nn.Softmax2d()(seg)
print(tuple(probs.shape), type(probs.grad_fn).__name__)
dists = torch.randn(512, 100, device="cuda", requires_grad=True)
w = nn.Softmin(dim=1)(dists)
print(type(w.grad_fn).__name__)
shuf = F.channel_shuffle(seg, 3)
print(tuple(shuf.shape), shuf.is_contiguous())
mem("softmax2d/softmin")
(probs[:, 0].sum() + (w * dists).sum() + shuf.mean()).backward()
mem("softmax backward")
del probs, w, shuf, seg, dists
mem("end")
