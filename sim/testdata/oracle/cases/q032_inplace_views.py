import torch

def mem(tag):
    print(f"{tag}: {torch.cuda.memory_allocated()} {torch.cuda.memory_reserved()} peak={torch.cuda.max_memory_allocated()}")

x = torch.zeros(1024, 1024, device="cuda")
mem("x")
x[:, :10] += 1
mem("x[:, :10] += 1")
x[:512].add_(1.0)
mem("x[:512].add_")
x.narrow(1, 0, 100).mul_(2)
mem("narrow.mul_")
y = x[::2]
y += torch.ones(512, 1024, device="cuda")
mem("y += ones")
x[:, 0] = torch.arange(1024, device="cuda")
mem("column assign")
x.t()[3:5].zero_()
mem("t slice zero_")
x.diagonal().fill_(7)
mem("diagonal fill_")
x[x > 2] = 0
mem("mask assign")
x.clamp_(0, 1)
mem("clamp_")
del y
mem("del y")
w = torch.randn(1024, 1024, device="cuda", requires_grad=True)
h = w * 2
h[:, :10] += 1
mem("h slice += (CopySlices)")
g = h + 0.5
g[0].mul_(3)
mem("g[0].mul_")
(g.sum() + h.sum()).backward()
mem("backward")
print(w.grad.shape, h.grad_fn.name(), g.grad_fn.name())
del h, g
mem("del graph")
v = w.detach()
v[:100] -= 0.5
print(w._version, v._version)
mem("detach inplace")
