# A GPT-style training step (attention + MLP + cross entropy, SGD) on plain
# tensors: what the GPU backend computes with its own kernels. Runs unchanged
# on PyTorch. STEPS is replaced by the benchmark (gpu/scripts/bench-step.sh).
import torch
import torch.nn.functional as F

STEPS = 2
torch.manual_seed(0)
B, T, C, H, V = 8, 64, 128, 4, 256
D = C // H


def param(*shape):
    return (torch.randn(*shape, device="cuda") * 0.02).requires_grad_()


params = [param(C, 3 * C), param(C, C), param(C, 4 * C), param(4 * C, C), param(C, V)]
x = torch.randn(B, T, C, device="cuda")
tgt = torch.randint(0, V, (B * T,), device="cuda")


def step():
    wqkv, wo, w1, w2, wh = params
    q, k, v = (x @ wqkv).split(C, dim=2)
    q = q.view(B, T, H, D).transpose(1, 2)
    k = k.view(B, T, H, D).transpose(1, 2)
    v = v.view(B, T, H, D).transpose(1, 2)
    att = F.softmax((q @ k.transpose(-2, -1)) * (1.0 / D**0.5), dim=-1)
    y = (att @ v).transpose(1, 2).contiguous().view(B, T, C)
    h = x + y @ wo
    h = h + F.gelu(h @ w1) @ w2
    loss = F.cross_entropy((h @ wh).view(B * T, V), tgt)
    loss.backward()
    with torch.no_grad():
        for p in params:
            p -= 0.5 * p.grad
            p.grad = None
    return loss


for i in range(STEPS):
    loss = step()
    if i == 0 or i == STEPS - 1:
        print(i, loss.item())
torch.cuda.synchronize()
