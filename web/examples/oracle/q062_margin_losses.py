import torch
import torch.nn as nn
import torch.nn.functional as F

# Metric learning and multi-label heads: a shared encoder trained with the
# embedding losses (triplet, cosine embedding, margin ranking, hinge), a
# classifier with the margin losses (multi-class hinge, multi-label soft
# margin, soft margin) and a regression head with the likelihood losses
# (Gaussian NLL with a predicted variance, Poisson NLL), through the
# functional API and the nn.*Loss modules.
def mem(tag):
    print(f"{tag}: {torch.cuda.memory_allocated()} {torch.cuda.memory_reserved()} peak={torch.cuda.max_memory_allocated()}")
    torch.cuda.reset_peak_memory_stats()


torch.manual_seed(0)
enc = nn.Sequential(nn.Linear(512, 1024), nn.ReLU(), nn.Linear(1024, 256)).cuda()
mem("encoder")

# embedding losses on anchor / positive / negative batches
a = enc(torch.randn(256, 512, device="cuda"))
p = enc(torch.randn(256, 512, device="cuda"))
n = enc(torch.randn(256, 512, device="cuda"))
mem("embeddings")
trip = nn.TripletMarginLoss(margin=1.0, p=2)
l_trip = trip(a, p, n)
l_swap = F.triplet_margin_loss(a, p, n, margin=0.5, swap=True)
y = (torch.randint(0, 2, (256,), device="cuda") * 2 - 1).float()
l_cos = nn.CosineEmbeddingLoss(margin=0.2)(a, p, y)
s1, s2 = a.norm(dim=1), n.norm(dim=1)
l_rank = F.margin_ranking_loss(s1, s2, y, margin=0.1)
d = F.pairwise_distance(a, n)
l_hinge = nn.HingeEmbeddingLoss(margin=2.0)(d, y)
print(type(l_trip.grad_fn).__name__, type(l_cos.grad_fn).__name__, type(l_rank.grad_fn).__name__,
      type(l_hinge.grad_fn).__name__, tuple(d.shape))
per = F.cosine_embedding_loss(a, p, y, reduction="none")
print(tuple(per.shape), type(per.grad_fn).__name__)
mem("embedding losses")
loss = l_trip + l_swap + l_cos + l_rank + l_hinge + per.sum()
loss.backward()
mem("embedding backward")
del a, p, n, l_trip, l_swap, l_cos, s1, s2, l_rank, d, l_hinge, per, loss, y
enc.zero_grad(set_to_none=True)
mem("freed")

# classifier heads
head = nn.Linear(256, 100).cuda()
x = torch.randn(512, 512, device="cuda")
feats = enc(x)
logits = head(feats)
target = torch.randint(0, 100, (512,), device="cuda")
l_mm = F.multi_margin_loss(logits, target)
l_mm2 = nn.MultiMarginLoss(p=2, margin=0.5, weight=torch.rand(100, device="cuda"))(logits, target)
labels = (torch.rand(512, 100, device="cuda") > 0.9).float()
l_ml = nn.MultiLabelSoftMarginLoss()(logits, labels)
l_sm = F.soft_margin_loss(logits, labels * 2 - 1)
print(type(l_mm.grad_fn).__name__, type(l_ml.grad_fn).__name__, type(l_sm.grad_fn).__name__,
      l_mm.shape, l_ml.dtype)
mem("classifier losses")
(l_mm + l_mm2 + l_ml + l_sm).backward()
mem("classifier backward")
per = F.multi_margin_loss(logits.detach(), target, reduction="none")
print(tuple(per.shape), per.requires_grad)
del logits, l_mm, l_mm2, l_ml, l_sm, per, feats
mem("classifier freed")

# regression: mean and variance heads, count head
mu_head = nn.Linear(256, 10).cuda()
var_head = nn.Linear(256, 10).cuda()
rate_head = nn.Linear(256, 10).cuda()
feats = enc(x)
mu = mu_head(feats)
var = F.softplus(var_head(feats)) + 1e-3
obs = torch.randn(512, 10, device="cuda")
l_g = nn.GaussianNLLLoss()(mu, obs, var)
l_g1 = F.gaussian_nll_loss(mu, obs, var[:, 0], full=True)
counts = torch.randint(0, 8, (512, 10), device="cuda").float()
l_p = nn.PoissonNLLLoss()(rate_head(feats), counts)
l_p2 = F.poisson_nll_loss(F.softplus(rate_head(feats)), counts, log_input=False, full=True)
print(type(l_g.grad_fn).__name__, type(l_p.grad_fn).__name__, type(l_p2.grad_fn).__name__)
mem("regression losses")
(l_g + l_g1 + l_p + l_p2).backward()
mem("regression backward")
del feats, mu, var, obs, l_g, l_g1, counts, l_p, l_p2, x, target, labels
mem("end")
