import torch

def mem(tag):
    print(f"{tag}: {torch.cuda.memory_allocated()} {torch.cuda.memory_reserved()}")

w = torch.randn(2048, 2048, device="cuda").requires_grad_()
print(w.is_leaf, w.requires_grad, w.grad)
x = torch.randn(64, 2048, device="cuda")
mem("start")
for i in range(3):
    y = (x @ w).relu().sum()
    y.backward()
    mem(f"accumulate {i}")
print(w.grad.shape, w.grad.is_leaf)
d = (x @ w).detach()
print(d.requires_grad, d.grad_fn)
mem("detached result, no graph")
data = w.data
print(data.requires_grad, data.data_ptr() == w.data_ptr())
mem("data shares storage")
g = w.grad
w.grad = None
mem("grad still referenced")
del g
mem("grad released")
with torch.no_grad():
    w -= 0.1
print(w.is_leaf)
del y, d, data
mem("end")
