import torch
import torch.nn as nn
import torch.nn.functional as F

# F.pad (constant/reflect/replicate), F.interpolate (nearest, bilinear with and
# without align_corners), nn.Upsample, pixel_shuffle, one_hot, then a small
# decoder built from Linear/Unflatten/PixelShuffle/Upsample/ReflectionPad2d
# trained with SGD; shape helpers (hstack/vstack/movedim/broadcast_to/tile/diag).
def mem(tag):
    print(f"{tag}: {torch.cuda.memory_allocated()} {torch.cuda.memory_reserved()} peak={torch.cuda.max_memory_allocated()}")
    torch.cuda.reset_peak_memory_stats()


x = torch.randn(8, 16, 64, 64, device="cuda", requires_grad=True)
pc = F.pad(x, (1, 1, 2, 2))
pr = F.pad(x, (3, 3, 3, 3), mode="reflect")
pp = F.pad(x, (2, 0, 0, 2), mode="replicate")
pv = F.pad(x, (0, 1, 0, 1), value=-1.0)
print(type(pc.grad_fn).__name__, type(pr.grad_fn).__name__, type(pp.grad_fn).__name__, tuple(pr.shape), tuple(pp.shape))
mem("pad")
(pc.sum() + pr.sum() + pp.sum() + pv.sum()).backward()
mem("pad backward")
del pc, pr, pp, pv
x.grad = None
un = F.interpolate(x, scale_factor=2, mode="nearest")
ub = F.interpolate(x, size=(100, 90), mode="bilinear", align_corners=False)
ua = F.interpolate(x, scale_factor=2, mode="bilinear", align_corners=True)
print(type(un.grad_fn).__name__, type(ub.grad_fn).__name__, tuple(ub.shape), ub.is_contiguous())
mem("interpolate")
(un.sum() + ub.sum() + ua.sum()).backward()
mem("interpolate backward")
del un, ub, ua
x.grad = None
ps = F.pixel_shuffle(x, 2)
pu = F.pixel_unshuffle(ps, 2)
print(type(ps.grad_fn).__name__, tuple(ps.shape), type(pu.grad_fn).__name__, tuple(pu.shape))
mem("pixel_shuffle")
(ps.sum() + pu.sum()).backward()
mem("pixel_shuffle backward")
del ps, pu
labels = torch.randint(0, 10, (4096,), device="cuda")
oh = F.one_hot(labels, num_classes=10)
ohf = F.one_hot(labels, 10).float()
print(oh.dtype, tuple(oh.shape), ohf.dtype)
mem("one_hot")
del oh, ohf, labels, x
mem("freed")


class Decoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(128, 64 * 16 * 16)
        self.net = nn.Sequential(
            nn.Unflatten(1, (64, 16, 16)),
            nn.PixelShuffle(2),
            nn.Upsample(scale_factor=2, mode="bilinear", align_corners=False),
            nn.ReflectionPad2d(1),
            nn.ReLU(),
            nn.Upsample(scale_factor=2),
            nn.ZeroPad2d((0, 1, 0, 1)),
        )

    def forward(self, z):
        return self.net(self.fc(z))


torch.manual_seed(0)
dec = Decoder().cuda()
opt = torch.optim.SGD(dec.parameters(), lr=0.01, momentum=0.9)
mem("decoder")
for step in range(3):
    z = torch.randn(32, 128, device="cuda")
    target = torch.randn(32, 16, 133, 133, device="cuda")
    out = dec(z)
    if step == 0:
        print(tuple(out.shape), type(out.grad_fn).__name__)
    loss = F.mse_loss(out, target)
    mem(f"step {step} forward")
    opt.zero_grad()
    loss.backward()
    mem(f"step {step} backward")
    opt.step()
    mem(f"step {step} opt")
del z, target, out, loss
mem("after loop")

a = torch.randn(300, 400, device="cuda", requires_grad=True)
v = torch.randn(400, device="cuda", requires_grad=True)
hs = torch.hstack([a, a[:, :100]])
vs = torch.vstack([a, v])
mv = torch.movedim(a.view(30, 10, 400), 0, -1)
bt = torch.broadcast_to(v, (300, 400))
tl = torch.tile(a, (2, 3))
dg = torch.diag(v)
dd = torch.diag(a, 1)
print(tuple(hs.shape), tuple(vs.shape), tuple(mv.shape), mv.stride(), bt.stride(), tuple(tl.shape), tuple(dg.shape), tuple(dd.shape))
print(type(hs.grad_fn).__name__, type(mv.grad_fn).__name__, type(bt.grad_fn).__name__, type(tl.grad_fn).__name__, type(dg.grad_fn).__name__, type(dd.grad_fn).__name__)
mem("shape ops")
(hs.sum() + vs.sum() + mv.sum() + (bt * a).sum() + tl.sum() + dg.sum() + dd.sum()).backward()
mem("shape ops backward")
del hs, vs, mv, bt, tl, dg, dd, a, v
mem("end")
