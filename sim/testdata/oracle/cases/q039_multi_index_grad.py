import torch

# Advanced indexing with several index tensors under autograd: the
# backward's index_put_ with accumulate (linear index over several dims,
# the sort's scratch, the permuted copy of separated index dims), host
# and mask indices, index assignment into a tensor that needs grad.
def mem(tag):
    print(f"{tag}: {torch.cuda.memory_allocated()} {torch.cuda.memory_reserved()} peak={torch.cuda.max_memory_allocated()}")
    torch.cuda.reset_peak_memory_stats()

B, C = 512, 1000
logits = torch.randn(B, C, device="cuda", requires_grad=True)
y = torch.arange(B, device="cuda") * 7 % C
mem("setup")
loss = -logits.log_softmax(-1)[torch.arange(B, device="cuda"), y].mean()
print(loss.grad_fn.name())
mem("nll by indexing")
loss.backward()
mem("nll backward")
logits.grad = None
del loss
w = torch.randn(64, 128, device="cuda", requires_grad=True)
i = torch.tensor([0, 5, 9, 63, 5], device="cuda")
j = torch.tensor([1, 2, 3, 127, 2], device="cuda")
out = w[i, j]
print(out.grad_fn.name())
mem("index two")
out.sum().backward()
mem("index two backward")
w.grad = None
(w[i[:, None], j] * 2).sum().backward()
mem("grid backward")
w.grad = None
big = torch.arange(6000, device="cuda")
w[big % 64, big % 128].sum().backward()
mem("large backward")
w.grad = None
w3 = torch.randn(16, 32, 48, device="cuda", requires_grad=True)
w3[:, i % 32, j % 48].sum().backward()
mem("adjacent backward")
w3.grad = None
w3[i % 16, :, j % 48].sum().backward()
mem("separated backward")
w3.grad = None
w3[i % 16, 2:7, j % 48].sum().backward()
mem("separated slice backward")
w3.grad = None
ci = torch.tensor([0, 5, 9, 63])
cj = torch.tensor([1, 2, 3, 127])
w[ci, cj].sum().backward()
mem("host index backward")
w.grad = None
m = w[:, 0] == w[:, 0]
w[m, torch.arange(64, device="cuda")].sum().backward()
mem("mask backward")
w.grad = None
h = w * 1
v = torch.ones(5, device="cuda", requires_grad=True)
h[i, j] = v
print(h.grad_fn.name())
mem("put under autograd")
h.sum().backward()
print(v.grad.shape)
mem("put backward")
del h
v.grad = None
w.grad = None
h = w * 1
vb = torch.full((1,), 2.0, device="cuda", requires_grad=True)
h.index_put_((i, j), vb, accumulate=True)
h.sum().backward()
print(vb.grad.shape)
mem("index_put_ accumulate backward")
