# index_add(_) with alpha != 1 (+ source's gradient) and
# scaled_dot_product_attention with dropout (forward and backward). The
# dropout mask comes from the backend's generator, not PyTorch's Philox
# stream, so only properties are printed: the shape, that the output
# differs from dropout_p=0, that the same seed gives the same output, and
# that the backward used the forward's mask (sum(v·v.grad) equals the
# loss, which is linear in v).
import math
import torch
import torch.nn.functional as F


def ar(*shape, scale=0.7, shift=0.0, dtype=torch.float32):
    n = 1
    for s in shape:
        n *= s
    return torch.tensor([math.sin(i * scale + shift) for i in range(n)], device="cuda").view(*shape).to(dtype)


x = ar(4, 5)
print(x.index_add(0, torch.tensor([3, 0, 3], device="cuda"), ar(3, 5, scale=0.4), alpha=0.5))
y = x.clone()
y.index_add_(1, torch.tensor([4, 1], device="cuda"), ar(4, 2, scale=0.2), alpha=-2.5)
print(y)
w = ar(4, 5, scale=0.3).requires_grad_()
src = ar(3, 5, scale=0.6).requires_grad_()
(w.index_add(0, torch.tensor([2, 0, 2], device="cuda"), src, alpha=3.0) * ar(4, 5, scale=0.8)).sum().backward()
print(w.grad)
print(src.grad)
h = ar(3, 4, dtype=torch.float16)
print(h.index_add(1, torch.tensor([0, 3], device="cuda"), ar(3, 2, scale=0.9, dtype=torch.float16), alpha=0.25))

for dt in (torch.float32, torch.float16):
    q = ar(2, 2, 6, 8, scale=0.3, dtype=dt).requires_grad_()
    k = ar(2, 2, 6, 8, scale=0.5, dtype=dt).requires_grad_()
    v = ar(2, 2, 6, 8, scale=0.7, dtype=dt).requires_grad_()
    o0 = F.scaled_dot_product_attention(q, k, v)
    torch.manual_seed(7)
    o = F.scaled_dot_product_attention(q, k, v, dropout_p=0.5)
    torch.manual_seed(7)
    o2 = F.scaled_dot_product_attention(q, k, v, dropout_p=0.5)
    print(o.shape, o.dtype)
    print(bool((o == o0).all()), bool((o == o2).all()))
    g = ar(2, 2, 6, 8, scale=1.1, dtype=dt)
    loss = (o.float() * g.float()).sum()
    loss.backward()
    print(q.grad.shape, k.grad.shape, v.grad.shape)
    lin = (v.float() * v.grad.float()).sum()
    tol = 1e-4 if dt == torch.float32 else 2e-2
    print(abs(lin.item() - loss.item()) <= tol * (1 + abs(loss.item())))
    print(bool(torch.isnan(q.grad).any()), bool(torch.isnan(k.grad).any()), q.grad.abs().sum().item() > 0)
