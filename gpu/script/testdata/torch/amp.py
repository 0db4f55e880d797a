# Mixed precision with a GradScaler: autocast to float16, scaled backward,
# _amp_foreach_non_finite_check_and_unscale_ (inf checks, unscaling) and
# _amp_update_scale_ (growth and backoff); the ops it needs: float64 and
# int32 tensors, clamp's backward and clamp_, logical_and/or, Tensor.conj.
import torch
import torch.nn.functional as F

lin = torch.nn.Linear(4, 3).cuda()
with torch.no_grad():
    lin.weight.copy_(torch.tensor([0.0, 0.4207, 0.4546, 0.0706, -0.3784, -0.4795, -0.1397, 0.3285, 0.4947, 0.2061, -0.272, -0.5]).view(3, 4))
    lin.bias.copy_(torch.tensor([0.1, -0.2, 0.3]))
opt = torch.optim.SGD(lin.parameters(), lr=0.1)
scaler = torch.amp.GradScaler("cuda", init_scale=2.0**16, growth_interval=2)
x = torch.tensor([1.0, 0.5403, -0.4161, -0.99, -0.6536, 0.2837, 0.9602, 0.7539, -0.1455, -0.9111, -0.8391, 0.0044, 0.8439, 0.9074, 0.1367, -0.7597, -0.9577, -0.2752, 0.6603, 0.9887, 0.4081, -0.5477, -1.0, -0.5328, 0.4242, 0.9912, 0.6469, -0.2921, -0.9626, -0.7481, 0.1543, 0.9147], device="cuda").view(8, 4)
y = torch.tensor([0.0, 0.9636, 0.5155, -0.6878, -0.8835, 0.2151, 0.9985, 0.3191, -0.8278, -0.762, 0.4202, 0.9868, 0.1078, -0.9291, -0.6048, 0.6055, 0.9288, -0.1086, -0.9869, -0.4194, 0.7626, 0.8273, -0.3199, -0.9985], device="cuda").view(8, 3)
for step in range(4):
    opt.zero_grad()
    with torch.autocast("cuda", dtype=torch.float16):
        out = lin(x)
        loss = F.mse_loss(out, y)
    scaler.scale(loss).backward()
    scaler.step(opt)
    scaler.update()
    print(step, out.dtype, loss.item(), scaler.get_scale())
print(lin.weight, lin.bias)
big = torch.amp.GradScaler("cuda", init_scale=1e30)
opt.zero_grad()
with torch.autocast("cuda", dtype=torch.float16):
    loss = F.mse_loss(lin(x), y)
big.scale(loss).backward()
big.step(opt)
big.update()
print(big.get_scale(), lin.weight.grad.isinf().any().item(), lin.bias)
g = torch.tensor([1.0, float("inf"), 2.0], device="cuda")
found = torch.zeros((), device="cuda")
torch._amp_foreach_non_finite_check_and_unscale_([g, x[0]], found, torch.full((), 0.5, device="cuda"))
print(g, found)
s = torch.full((), 4.0, device="cuda")
tr = torch.zeros((), dtype=torch.int32, device="cuda")
for f in [0.0, 0.0, 1.0, 0.0]:
    torch._amp_update_scale_(s, tr, torch.full((), f, device="cuda"), 2.0, 0.5, 2)
    print(s.item(), tr.item())
d = torch.arange(6, dtype=torch.float64, device="cuda") / 3
print(d, d.float(), d.sum(), (d * 2 + 1).reciprocal())
i32 = torch.arange(6, dtype=torch.int32, device="cuda")
print(i32, i32.float() * 0.5, i32.long() + 1, i32.double())
c = x[:2].clone().requires_grad_(True)
c.clamp(-0.5, 0.6).sum().backward()
print(c.grad)
e = x[:2].clone()
e.clamp_(min=-0.25)
print(e, e.clamp_(max=0.1))
m1, m2 = x[0] > 0, x[1] > 0
print(torch.logical_and(m1, m2), torch.logical_or(m1, m2), m1 & m2, m1 | m2)
print(torch.logical_and(x[0], x[1] > 0.5), x[0].conj())
