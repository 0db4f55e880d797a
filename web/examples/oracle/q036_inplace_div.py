import torch

# In-place multiply and divide by tensors that require grad: what autograd
# saves (a copy of self before it is overwritten) and what each backward
# allocates.
def mem(tag):
    print(f"{tag}: {torch.cuda.memory_allocated()} {torch.cuda.memory_reserved()} peak={torch.cuda.max_memory_allocated()}")
    torch.cuda.reset_peak_memory_stats()

a = torch.randn(256, 256, device="cuda", requires_grad=True)
b = torch.rand(256, 256, device="cuda", requires_grad=True)
mem("setup")
x = a * 1
x.mul_(b)
mem("mul_")
x.sum().backward()
mem("mul_ backward")
a.grad = b.grad = None
del x
y = a * 1
y.div_(b + 1)
print(type(y.grad_fn).__name__)
mem("div_")
y.sum().backward()
mem("div_ backward")
a.grad = b.grad = None
del y
z = a / (b + 1)
mem("div")
z.sum().backward()
mem("div backward")
