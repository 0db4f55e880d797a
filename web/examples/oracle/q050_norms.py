import torch
import torch.nn as nn
import torch.nn.functional as F

# Normalisation layers beyond batch/layer norm: nn.GroupNorm after a conv
# (diffusion U-Net style, with Mish), nn.InstanceNorm2d (style transfer,
# affine and with running stats), nn.RMSNorm (LLaMA-style blocks) and
# nn.Dropout2d, trained with AdamW; then the functional forms on their own.
def mem(tag):
    print(f"{tag}: {torch.cuda.memory_allocated()} {torch.cuda.memory_reserved()} peak={torch.cuda.max_memory_allocated()}")
    torch.cuda.reset_peak_memory_stats()


class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 32, 3, 1, 1)
        self.gn = nn.GroupNorm(8, 32)
        self.act1 = nn.Mish()
        self.conv2 = nn.Conv2d(32, 64, 3, 1, 1)
        self.inorm = nn.InstanceNorm2d(64, affine=True)
        self.drop = nn.Dropout2d(0.25)
        self.fc1 = nn.Linear(64 * 16 * 16, 256)
        self.rms = nn.RMSNorm(256)
        self.fc2 = nn.Linear(256, 10)

    def forward(self, x):
        x = self.act1(self.gn(self.conv1(x)))
        x = F.max_pool2d(x, 2)
        x = F.relu(self.inorm(self.conv2(x)))
        x = F.max_pool2d(x, 2)
        x = self.drop(x)
        x = torch.flatten(x, 1)
        x = self.rms(self.fc1(x))
        return F.log_softmax(self.fc2(F.silu(x)), dim=1)


torch.manual_seed(0)
model = Block().cuda()
print(model)
opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
mem("model")
for step in range(3):
    data = torch.randn(32, 3, 64, 64, device="cuda")
    target = torch.randint(0, 10, (32,), device="cuda")
    opt.zero_grad()
    out = model(data)
    if step == 0:
        print(type(out.grad_fn).__name__, tuple(out.shape))
    loss = F.nll_loss(out, target)
    mem(f"step {step} forward")
    loss.backward()
    mem(f"step {step} backward")
    opt.step()
    mem(f"step {step} optimizer")
model.eval()
with torch.no_grad():
    out = model(torch.randn(32, 3, 64, 64, device="cuda"))
mem("eval")
del data, target, out, loss

# functional forms and their grad_fns
x = torch.randn(16, 64, 32, 32, device="cuda", requires_grad=True)
w = torch.ones(64, device="cuda", requires_grad=True)
b = torch.zeros(64, device="cuda", requires_grad=True)
y = F.group_norm(x, 16, w, b)
print(type(y.grad_fn).__name__, y.shape, y.dtype)
z = F.group_norm(x, 4)
mem("group_norm")
(y.sum() + z.sum()).backward()
mem("group_norm backward")
del y, z
x.grad = None
w.grad = None
b.grad = None

rm = torch.zeros(64, device="cuda")
rv = torch.ones(64, device="cuda")
y = F.instance_norm(x, rm, rv, w, b, use_input_stats=True, momentum=0.1)
print(type(y.grad_fn).__name__, y.shape)
inorm = nn.InstanceNorm2d(64, track_running_stats=True).cuda()
z = inorm(x)
print(inorm.num_batches_tracked.dtype, inorm.running_mean.shape, type(z.grad_fn).__name__)
mem("instance_norm")
(y.sum() + z.sum()).backward()
mem("instance_norm backward")
inorm.eval()
with torch.no_grad():
    z2 = inorm(x)
mem("instance_norm eval")
del y, z, z2

h = torch.randn(8, 128, 512, device="cuda", requires_grad=True)
g = torch.ones(512, device="cuda", requires_grad=True)
r = F.rms_norm(h, (512,), g, eps=1e-6)
print(type(r.grad_fn).__name__, r.shape, r.stride())
r2 = F.rms_norm(h, (128, 512))
mem("rms_norm")
(r.sum() + r2.sum()).backward()
mem("rms_norm backward")
hh = torch.randn(8, 128, 512, device="cuda", dtype=torch.float16, requires_grad=True)
gh = torch.ones(512, device="cuda", dtype=torch.float16, requires_grad=True)
rh = F.rms_norm(hh, (512,), gh)
print(rh.dtype, type(rh.grad_fn).__name__)
mem("rms_norm half")
rh.sum().backward()
mem("rms_norm half backward")
del r, r2, rh, h, hh, g, gh, x, w, b
d = torch.randn(16, 64, 16, 16, device="cuda", requires_grad=True)
e = F.dropout2d(d, 0.5)
e1 = F.dropout1d(torch.randn(16, 64, 100, device="cuda"), 0.5)
e3 = F.dropout3d(torch.randn(4, 16, 8, 16, 16, device="cuda"), 0.5, training=True)
print(type(e.grad_fn).__name__, e1.shape, e3.shape)
mem("feature dropout")
e.sum().backward()
mem("feature dropout backward")
del d, e, e1, e3
mem("end")
