import torch

def mem(tag):
    print(f"{tag}: {torch.cuda.memory_allocated()} {torch.cuda.memory_reserved()}")

a = torch.randn(1024, 1024, device="cuda", requires_grad=True)
b = torch.randn(1024, 1024, device="cuda", requires_grad=True)
c = a * b
d = c.exp()
e = d.sum()
mem("forward")
print(type(e.grad_fn).__name__, c.is_leaf, a.is_leaf)
torch.autograd.backward([e])
mem("autograd.backward")
print(a.grad is not None, b.grad is not None, c.grad)
a.grad = None
b.grad = None
f = (a * 2).sum()
g = (b * 3).sum()
torch.autograd.backward([f, g])
mem("two roots")
grads = torch.autograd.grad((a * b).sum(), [a])
print(len(grads), grads[0].shape)
mem("autograd.grad")
del c, d, e, f, g, grads
mem("end")
