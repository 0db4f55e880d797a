# Backwards of the reductions with real values: max/min over a dim (the
# gradient goes to the returned index only), max()/min()/amax/amin of
# everything (ties share the gradient evenly; max() counts NaN as equal to
# a NaN result), var/std (dims, keepdim, correction), norm (p=2, 1, inf,
# dims, zero rows), in float32 and half.
import torch

x = torch.tensor([0.0, 0.6442, 0.9854, 0.8632, 0.335, -0.3508, -0.8716, -0.9825, -0.6313, 0.0168, 0.657, 0.9882, 0.8546, 0.3191, -0.3665, -0.8797, -0.9792, -0.6181, 0.0336, 0.6696, 0.9906, 0.8457, 0.3031, -0.3821], device="cuda").view(2, 3, 4)


def grad_of(f, t=x):
    t = t.detach().clone().requires_grad_(True)
    r = f(t)
    wt = torch.arange(r.numel(), dtype=r.dtype, device="cuda").reshape(r.shape) * 0.5 + 1
    (r * wt).sum().backward()
    return t.grad


print(grad_of(lambda t: t.max(dim=1)[0]))
print(grad_of(lambda t: t.min(dim=2, keepdim=True)[0]))
print(grad_of(lambda t: torch.max(t, 0)[0]))
print(grad_of(lambda t: t.max()), grad_of(lambda t: t.min()))
ties = torch.tensor([[1.0, 3.0, 3.0], [-2.0, 3.0, -2.0]], device="cuda")
print(grad_of(lambda t: t.max(), ties), grad_of(lambda t: t.min(), ties))
print(grad_of(lambda t: t.amax(), ties), grad_of(lambda t: t.amin(), ties))
print(grad_of(lambda t: t.max(dim=1)[0], ties), grad_of(lambda t: t.min(dim=0)[0], ties))
n = torch.tensor([1.0, float("nan"), 5.0, float("nan")], device="cuda")
print(grad_of(lambda t: t.max(), n), grad_of(lambda t: t.amax(), n))
print(grad_of(lambda t: t.var()), grad_of(lambda t: t.std()))
print(grad_of(lambda t: t.var(dim=1)), grad_of(lambda t: t.std(dim=(0, 2), keepdim=True)))
print(grad_of(lambda t: t.var(dim=2, correction=0)), grad_of(lambda t: t.std(dim=1, unbiased=False)))
c = torch.tensor([[2.0, 2.0, 2.0], [1.0, -1.0, 4.0]], device="cuda")
print(grad_of(lambda t: t.std(dim=1), c))
print(grad_of(lambda t: t.norm()), grad_of(lambda t: t.norm(dim=1)))
print(grad_of(lambda t: t.norm(p=1, dim=2, keepdim=True)), grad_of(lambda t: t.norm(p=float("inf"))))
print(grad_of(lambda t: torch.linalg.vector_norm(t, ord=float("inf"), dim=(0, 1))))
z = torch.tensor([[0.0, 0.0, 0.0], [3.0, -4.0, 0.0]], device="cuda")
print(grad_of(lambda t: t.norm(dim=1), z), grad_of(lambda t: t.norm(p=1, dim=1), z))
print(grad_of(lambda t: t.norm(p=float("inf"), dim=1), torch.tensor([[1.0, -3.0, 3.0], [0.5, 0.25, -0.5]], device="cuda")))
h = x.half()
print(grad_of(lambda t: t.max(dim=2)[0], h), grad_of(lambda t: t.var(dim=1), h))
print(grad_of(lambda t: t.norm(dim=2), h), grad_of(lambda t: t.amax(), h))
