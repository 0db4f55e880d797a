import torch
import torch.nn as nn
import torch.nn.functional as F

# The activation zoo in a small MLP / gated (GLU) network: ELU, Softplus,
# Mish, Hardswish, Hardtanh, ReLU6, LogSigmoid and GLU, out of place and in
# place (inplace=True saves the result or a copy of the input, depending on
# the op), Dropout1d on a sequence, trained with SGD + momentum.
def mem(tag):
    print(f"{tag}: {torch.cuda.memory_allocated()} {torch.cuda.memory_reserved()} peak={torch.cuda.max_memory_allocated()}")
    torch.cuda.reset_peak_memory_stats()


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.l1 = nn.Linear(512, 1024)
        self.a1 = nn.ELU(inplace=True)
        self.l2 = nn.Linear(1024, 2048)
        self.glu = nn.GLU()
        self.a2 = nn.Hardswish()
        self.l3 = nn.Linear(1024, 1024)
        self.a3 = nn.Mish()
        self.l4 = nn.Linear(1024, 512)
        self.a4 = nn.ReLU6(inplace=True)
        self.drop = nn.Dropout1d(0.2)
        self.l5 = nn.Linear(512, 256)
        self.a5 = nn.Softplus(beta=2)
        self.a6 = nn.Hardtanh(-2.0, 2.0)
        self.out = nn.Linear(256, 10)
        self.a7 = nn.LogSigmoid()

    def forward(self, x):
        x = self.a1(self.l1(x))
        x = self.a2(self.glu(self.l2(x)))
        x = self.a3(self.l3(x))
        x = self.a4(self.l4(x))
        x = self.drop(x)
        x = self.a6(self.a5(self.l5(x)))
        return self.a7(self.out(x))


torch.manual_seed(0)
net = Net().cuda()
print(net)
opt = torch.optim.SGD(net.parameters(), lr=0.01, momentum=0.9)
mem("model")
for step in range(3):
    x = torch.randn(16, 64, 512, device="cuda")
    opt.zero_grad()
    y = net(x)
    if step == 0:
        print(type(y.grad_fn).__name__, tuple(y.shape))
    loss = -y.mean()
    mem(f"step {step} forward")
    loss.backward()
    mem(f"step {step} backward")
    opt.step()
    mem(f"step {step} optimizer")
del x, y, loss

# functional forms: grad_fn names, out of place and in place
a = torch.randn(256, 1024, device="cuda", requires_grad=True)
outs = {
    "elu": F.elu(a, 0.5),
    "softplus": F.softplus(a),
    "mish": F.mish(a),
    "hardswish": F.hardswish(a),
    "hardtanh": F.hardtanh(a),
    "relu6": F.relu6(a),
    "logsigmoid": F.logsigmoid(a),
    "glu": F.glu(a, 0),
}
for k, v in outs.items():
    print(k, type(v.grad_fn).__name__, tuple(v.shape), v.dtype)
mem("activations")
sum(v.sum() for v in outs.values()).backward()
mem("activations backward")
del outs
a.grad = None
ins = {}
for k, f in [("elu_", lambda t: F.elu(t, inplace=True)), ("mish_", lambda t: F.mish(t, inplace=True)),
             ("hardswish_", lambda t: F.hardswish(t, inplace=True)), ("hardtanh_", lambda t: F.hardtanh(t, inplace=True)),
             ("relu6_", lambda t: F.relu6(t, inplace=True))]:
    t = a * 2
    r = f(t)
    print(k, type(r.grad_fn).__name__, r is t)
    ins[k] = r
    mem(k)
sum(v.sum() for v in ins.values()).backward()
mem("in place backward")
del ins, t, r
with torch.no_grad():
    h = torch.randn(256, 1024, device="cuda")
    F.mish(h, inplace=True)
    F.hardswish(h, inplace=True)
    F.elu_(h)
    F.hardtanh_(h, -1.0, 1.0)
    q = F.logsigmoid(h)
mem("no_grad in place")
hh = torch.randn(256, 1024, device="cuda", dtype=torch.float16, requires_grad=True)
o = F.glu(F.softplus(hh), -1)
print(o.dtype, o.shape, type(o.grad_fn).__name__)
o.sum().backward()
mem("half")
del h, q, hh, o, a
mem("end")
