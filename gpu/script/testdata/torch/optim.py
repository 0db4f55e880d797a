# Optimizers with real values: a small deterministic model (weights from
# tanh of an arange, fixed data) trained a few steps with each optimizer;
# the loss of every step and the final weights must equal PyTorch's.
import torch
import torch.nn as nn
import torch.nn.functional as F

x = torch.tanh(torch.arange(24, dtype=torch.float32, device="cuda").view(6, 4) * 0.3 - 3)
y = torch.tensor([0, 2, 1, 0, 1, 2], device="cuda")


def make():
    m = nn.Sequential(nn.Linear(4, 8), nn.Tanh(), nn.Linear(8, 3)).cuda()
    with torch.no_grad():
        for i, p in enumerate(m.parameters()):
            n = p.numel()
            w = torch.tanh(torch.arange(n, dtype=torch.float32, device="cuda") * 0.37 - 1.5 + i) * 0.5
            p.copy_(w.view(p.shape))
    return m


def train(name, make_opt, steps=4):
    m = make()
    opt = make_opt(m.parameters())
    for s in range(steps):
        opt.zero_grad()
        loss = F.cross_entropy(m(x), y)
        loss.backward()
        opt.step()
        print(name, s, loss.item())
    for p in m.parameters():
        print(p)


train("sgd", lambda ps: torch.optim.SGD(ps, lr=0.5))
train("sgd-momentum", lambda ps: torch.optim.SGD(ps, lr=0.2, momentum=0.9, weight_decay=0.01))
train("sgd-nesterov-loop", lambda ps: torch.optim.SGD(ps, lr=0.2, momentum=0.9, nesterov=True, foreach=False))
train("sgd-dampening", lambda ps: torch.optim.SGD(ps, lr=0.2, momentum=0.5, dampening=0.3, maximize=False))
train("adam", lambda ps: torch.optim.Adam(ps, lr=0.05))
train("adam-amsgrad", lambda ps: torch.optim.Adam(ps, lr=0.05, amsgrad=True))
train("adamw", lambda ps: torch.optim.AdamW(ps, lr=0.05, weight_decay=0.1))
# The for-loop paths (foreach=False): grad.conj() is grad itself for real tensors.
train("adam-loop", lambda ps: torch.optim.Adam(ps, lr=0.05, foreach=False))
train("adamw-loop-amsgrad", lambda ps: torch.optim.AdamW(ps, lr=0.05, weight_decay=0.1, amsgrad=True, foreach=False))
