import torch
import torch.nn as nn
import torch.nn.functional as F

# Indexing ops as models use them: a graph network's message passing
# (scatter_reduce mean/amax over edges, index_fill of masked nodes), a static
# KV cache updated with index_copy_, a multimodal model merging image features
# into token embeddings with masked_scatter (LLaVA), take_along_dim for
# per-row selection, and searchsorted/bucketize for position buckets.
def mem(tag):
    print(f"{tag}: {torch.cuda.memory_allocated()} {torch.cuda.memory_reserved()} peak={torch.cuda.max_memory_allocated()}")
    torch.cuda.reset_peak_memory_stats()


torch.manual_seed(0)
nodes, edges, d = 2000, 16000, 64
lin = nn.Linear(d, d).cuda()
x = torch.randn(nodes, d, device="cuda", requires_grad=True)
src = torch.randint(0, nodes, (edges,), device="cuda")
dst = torch.randint(0, nodes, (edges,), device="cuda")
mem("graph")
for step in range(2):
    msg = lin(x)[src]
    idx = dst.unsqueeze(1).expand(-1, d)
    agg_mean = torch.zeros(nodes, d, device="cuda").scatter_reduce(0, idx, msg, reduce="mean", include_self=False)
    agg_max = x.scatter_reduce(0, idx, msg, "amax")
    drop = torch.randperm(nodes, device="cuda")[:200]
    h = (agg_mean + agg_max).index_fill(0, drop, 0.0)
    print(type(agg_mean.grad_fn).__name__, type(agg_max.grad_fn).__name__, type(h.grad_fn).__name__, tuple(h.shape))
    mem(f"message {step}")
    loss = h.pow(2).mean()
    loss.backward()
    mem(f"backward {step}")
    del msg, idx, agg_mean, agg_max, drop, h, loss
    x.grad = None
    mem(f"freed {step}")
del x, src, dst, lin
mem("graph done")

# A static KV cache: index_copy_ of the new keys/values at the cache positions.
B, H, T, E = 2, 8, 512, 64
k_cache = torch.zeros(B, H, T, E, device="cuda", dtype=torch.float16)
v_cache = torch.zeros_like(k_cache)
mem("cache")
with torch.no_grad():
    for pos in range(3):
        k = torch.randn(B, H, 16, E, device="cuda", dtype=torch.float16)
        v = torch.randn_like(k)
        cache_position = torch.arange(pos * 16, pos * 16 + 16, device="cuda")
        k_cache.index_copy_(2, cache_position, k)
        v_cache.index_copy_(2, cache_position, v)
        mem(f"cache step {pos}")
print(k_cache.dtype, tuple(k_cache.shape))
del k, v, k_cache, v_cache, cache_position
mem("cache done")

# LLaVA-style merge: image features replace the image tokens' embeddings.
emb = nn.Embedding(1000, 256).cuda()
proj = nn.Linear(128, 256).cuda()
ids = torch.randint(0, 1000, (2, 600), device="cuda")
ids[:, 100:300] = 999
feats = torch.randn(400, 128, device="cuda")
mem("mm model")
inputs_embeds = emb(ids)
image_features = proj(feats)
mask = (ids == 999).unsqueeze(-1).expand_as(inputs_embeds)
merged = inputs_embeds.masked_scatter(mask, image_features)
print(type(merged.grad_fn).__name__, tuple(merged.shape), merged.stride())
mem("merged")
merged.square().sum().backward()
mem("mm backward")
del inputs_embeds, image_features, mask, merged
mem("mm freed")

# take_along_dim: the per-row top scores after an argsort; bucketize and
# searchsorted: relative-position buckets.
scores = torch.randn(64, 1000, device="cuda", requires_grad=True)
order = scores.detach().argsort(dim=1, descending=True)[:, :10]
best = torch.take_along_dim(scores, order, dim=1)
print(type(best.grad_fn).__name__, tuple(best.shape))
best.sum().backward()
mem("take_along_dim")
rel = torch.arange(-256, 256, device="cuda").view(1, -1) - torch.arange(0, 64, device="cuda").view(-1, 1)
bounds = torch.tensor([-128, -64, -32, -16, -8, -4, -2, 0, 2, 4, 8, 16, 32, 64, 128], device="cuda")
buckets = torch.bucketize(rel, bounds)
pos = torch.searchsorted(bounds, rel.float().clamp(-200, 200).to(torch.int64), right=True)
print(buckets.dtype, tuple(buckets.shape), pos.dtype, tuple(pos.shape))
mem("buckets")
del scores, order, best, rel, bounds, buckets, pos
mem("end")
