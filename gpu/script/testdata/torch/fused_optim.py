# Fused optimizers (fused=True: torch._fused_adam_/_fused_adamw_/_fused_sgd_)
# with real values: a small deterministic model trained a few steps with
# each; with GradScaler too (grad_scale/found_inf, an inf step skipped).
import torch
import torch.nn as nn
import torch.nn.functional as F

x = torch.tanh(torch.arange(24, dtype=torch.float32, device="cuda").view(6, 4) * 0.3 - 3)
y = torch.tensor([0, 2, 1, 0, 1, 2], device="cuda")


def make(dtype=torch.float32):
    m = nn.Sequential(nn.Linear(4, 8), nn.Tanh(), nn.Linear(8, 3)).cuda()
    with torch.no_grad():
        for i, p in enumerate(m.parameters()):
            n = p.numel()
            w = torch.tanh(torch.arange(n, dtype=torch.float32, device="cuda") * 0.37 - 1.5 + i) * 0.5
            p.copy_(w.view(p.shape))
    return m.to(dtype)


def train(name, make_opt, steps=4, dtype=torch.float32):
    m = make(dtype)
    opt = make_opt(m.parameters())
    for s in range(steps):
        opt.zero_grad()
        loss = F.cross_entropy(m(x.to(dtype)).float(), y)
        loss.backward()
        opt.step()
        print(name, s, loss.item())
    for p in m.parameters():
        print(p)
    st = opt.state[next(iter(m.parameters()))]
    for k in sorted(st):
        print(name, k, st[k])


train("sgd", lambda ps: torch.optim.SGD(ps, lr=0.5, fused=True))
train("sgd-momentum", lambda ps: torch.optim.SGD(ps, lr=0.2, momentum=0.9, weight_decay=0.01, fused=True))
train("sgd-nesterov", lambda ps: torch.optim.SGD(ps, lr=0.2, momentum=0.9, nesterov=True, fused=True))
train("sgd-dampening-max", lambda ps: torch.optim.SGD(ps, lr=0.1, momentum=0.5, dampening=0.3, maximize=True, fused=True))
train("adam", lambda ps: torch.optim.Adam(ps, lr=0.05, fused=True))
train("adam-wd-amsgrad", lambda ps: torch.optim.Adam(ps, lr=0.05, weight_decay=0.1, amsgrad=True, fused=True))
train("adamw", lambda ps: torch.optim.AdamW(ps, lr=0.05, weight_decay=0.1, fused=True))
train("adamw-max", lambda ps: torch.optim.AdamW(ps, lr=0.02, betas=(0.8, 0.99), eps=1e-6, maximize=True, fused=True))


# Half and bfloat16 parameters with given gradients (the optimizer alone:
# a half model's forward would test the matmuls instead).
def direct(name, make_opt, dtype, steps=3):
    ps = [(torch.tanh(torch.arange(12, dtype=torch.float32, device="cuda") * 0.4 - 2) * 0.5).to(dtype).view(3, 4).requires_grad_(),
          (torch.tanh(torch.arange(5, dtype=torch.float32, device="cuda") * 0.7 - 1) * 0.5).to(dtype).requires_grad_()]
    opt = make_opt(ps)
    for s in range(steps):
        for p in ps:
            p.grad = (torch.tanh(p.detach().float() * 3 + s) * 0.5).to(dtype)
        opt.step()
    for p in ps:
        print(name, p)
    for k, v in sorted(opt.state[ps[0]].items()):
        print(name, k, v)


direct("adam-half", lambda ps: torch.optim.Adam(ps, lr=0.01, fused=True), torch.float16)
direct("adamw-bf16-amsgrad", lambda ps: torch.optim.AdamW(ps, lr=0.01, weight_decay=0.1, amsgrad=True, fused=True), torch.bfloat16)
direct("sgd-bf16", lambda ps: torch.optim.SGD(ps, lr=0.1, momentum=0.9, fused=True), torch.bfloat16)
direct("sgd-half-nesterov", lambda ps: torch.optim.SGD(ps, lr=0.1, momentum=0.8, nesterov=True, weight_decay=0.01, fused=True), torch.float16)


def train_scaled(name, make_opt, steps=4):
    m = make()
    opt = make_opt(m.parameters())
    scaler = torch.amp.GradScaler("cuda", init_scale=1024.0, growth_interval=2)
    for s in range(steps):
        opt.zero_grad()
        loss = F.cross_entropy(m(x), y)
        if s == 1:
            loss = loss * float("inf")
        scaler.scale(loss).backward()
        scaler.step(opt)
        scaler.update()
        print(name, s, loss.item(), scaler.get_scale())
    for p in m.parameters():
        print(p)
        print(p.grad)


train_scaled("adam-scaler", lambda ps: torch.optim.Adam(ps, lr=0.05, fused=True))
train_scaled("adamw-scaler", lambda ps: torch.optim.AdamW(ps, lr=0.05, weight_decay=0.1, fused=True))
train_scaled("sgd-scaler", lambda ps: torch.optim.SGD(ps, lr=0.2, momentum=0.9, fused=True))
