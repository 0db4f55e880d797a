import torch
import torch.nn.functional as F

# gather, scatter(_), scatter_add(_), index_add(_), index_put_ (with and
# without accumulate) and 1-d pooling, with and without autograd.
def mem(tag):
    print(f"{tag}: {torch.cuda.memory_allocated()} {torch.cuda.memory_reserved()} peak={torch.cuda.max_memory_allocated()}")
    torch.cuda.reset_peak_memory_stats()

x = torch.randn(512, 256, device="cuda")
col = torch.arange(512, device="cuda").remainder(256).view(512, 1).expand(512, 4).contiguous()
rows = torch.arange(300, device="cuda").remainder(512)
mem("setup")
g = torch.gather(x, 1, col)
mem("gather")
s = x.scatter(1, col, torch.ones(512, 4, device="cuda"))
mem("scatter src")
s2 = x.scatter(1, col, 2.5)
mem("scatter value")
x.scatter_(1, col, 1.0)
mem("scatter_ in place")
a = x.scatter_add(1, col, g)
mem("scatter_add")
ia = x.index_add(0, rows, torch.ones(300, 256, device="cuda"))
mem("index_add")
x.index_add_(0, rows, torch.ones(300, 256, device="cuda"), alpha=2)
mem("index_add_ alpha")
x.index_put_((rows,), torch.full((300, 256), 3.0, device="cuda"))
mem("index_put_")
x.index_put_((rows,), torch.full((300, 256), 1.0, device="cuda"), accumulate=True)
mem("index_put_ accumulate")
big = torch.arange(4000, device="cuda").remainder(512)
x.index_put_((big,), torch.ones(4000, 256, device="cuda"), accumulate=True)
mem("index_put_ accumulate sorted")
del g, s, s2, a, ia, big
mem("freed")

w = torch.randn(512, 256, device="cuda", requires_grad=True)
src = torch.randn(512, 4, device="cuda", requires_grad=True)
out = torch.gather(w, 1, col)
out.sum().backward()
mem("gather backward")
w.grad = None
y = w.scatter(1, col, src)
y.sum().backward()
mem("scatter backward")
w.grad = None
src.grad = None
y = w.scatter_add(1, col, src * 2)
y.sum().backward()
mem("scatter_add backward")
w.grad = None
src.grad = None
v = torch.randn(300, 256, device="cuda", requires_grad=True)
y = w.index_add(0, rows, v)
y.sum().backward()
mem("index_add backward")
w.grad = None
v.grad = None
y = w * 1
y.index_put_((rows,), v, accumulate=True)
y.sum().backward()
mem("index_put_ accumulate backward")
w.grad = None
v.grad = None
y = w * 1
y.index_put_((rows,), v)
(y * 2).sum().backward()
mem("index_put_ backward")
del out, y
w.grad = None
v.grad = None

p = torch.randn(16, 32, 1000, device="cuda", requires_grad=True)
m = F.max_pool1d(p, 4)
m.sum().backward()
mem("max_pool1d")
p.grad = None
mi, ind = F.max_pool1d(p, 3, stride=2, padding=1, return_indices=True)
print(mi.shape, ind.shape, ind.dtype)
mem("max_pool1d indices")
av = F.avg_pool1d(p, 5, stride=3)
av.sum().backward()
mem("avg_pool1d")
p.grad = None
ad = F.adaptive_avg_pool1d(p, 50)
ad.sum().backward()
mem("adaptive_avg_pool1d")
p.grad = None
ad1 = F.adaptive_avg_pool1d(p, 1)
(ad1 * 3).sum().backward()
mem("adaptive_avg_pool1d one")
with torch.no_grad():
    n1 = F.max_pool1d(p, 2)
mem("max_pool1d no grad")
