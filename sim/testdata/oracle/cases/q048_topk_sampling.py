import torch
import torch.nn as nn
import torch.nn.functional as F

# Sorting and selection in a language model's sampling loop (nanoGPT's top-k
# filter, HF's top-p/nucleus filter: sort, softmax, cumsum, scatter), then in
# training: a mixture-of-experts router's top-2 with backward, a sort and a
# cumsum with backward, argsort ranks, and magnitude pruning's big topk.
def mem(tag):
    print(f"{tag}: {torch.cuda.memory_allocated()} {torch.cuda.memory_reserved()} peak={torch.cuda.max_memory_allocated()}")
    torch.cuda.reset_peak_memory_stats()


torch.manual_seed(0)
vocab, d = 32000, 256
emb = nn.Embedding(vocab, d).cuda()
head = nn.Linear(d, vocab, bias=False).cuda()
idx = torch.randint(0, vocab, (4, 16), device="cuda")
mem("model")
with torch.no_grad():
    for step in range(3):
        logits = head(emb(idx))[:, -1, :] / 0.8
        v, _ = torch.topk(logits, 50)
        logits[logits < v[:, [-1]]] = -float("Inf")
        probs = F.softmax(logits, dim=-1)
        sorted_probs, sorted_idx = torch.sort(probs, descending=True)
        cum = torch.cumsum(sorted_probs, dim=-1)
        remove = cum > 0.9
        remove[..., 1:] = remove[..., :-1].clone()
        remove[..., 0] = False
        remove = remove.scatter(1, sorted_idx, remove)
        probs = probs.masked_fill(remove, 0.0)
        nxt = torch.argmax(probs, dim=-1, keepdim=True)
        idx = torch.cat((idx, nxt), dim=1)
        mem(f"sample {step}")
print(tuple(idx.shape), tuple(v.shape), sorted_idx.dtype, cum.dtype, remove.dtype)
r = torch.topk(probs, 5, dim=-1, largest=False, sorted=False)
print(type(r).__name__, r.values.shape, r.indices.dtype)
del logits, v, probs, sorted_probs, sorted_idx, cum, remove, nxt, r
mem("sampling done")

# A mixture-of-experts router: top-2 of 8 experts per token.
router = nn.Linear(d, 8).cuda()
x = torch.randn(4, 128, d, device="cuda", requires_grad=True)
scores = router(x).softmax(dim=-1)
gate, expert = scores.topk(2, dim=-1)
print(type(gate.grad_fn).__name__, expert.dtype, tuple(gate.shape), gate.stride())
gate = gate / gate.sum(dim=-1, keepdim=True)
mem("router")
s, order = torch.sort(x.flatten(1), dim=1, descending=True)
print(type(s.grad_fn).__name__, tuple(order.shape), order.stride())
c = torch.cumsum(s, dim=1)
small, _ = x.sort(dim=-1)
print(type(c.grad_fn).__name__, type(small.grad_fn).__name__)
loss = gate.sum() + c.mean() + s[:, :10].sum() + small[..., -1].sum()
mem("losses")
loss.backward()
mem("backward")
del scores, gate, expert, s, order, c, small, loss
x.grad = None
mem("freed")

ranks = torch.argsort(torch.randn(64, 3000, device="cuda"), dim=1)
print(ranks.dtype, tuple(ranks.shape))
mem("argsort")
with torch.no_grad():
    w = head.weight
    k = int(0.1 * w.numel())
    vals, where = torch.topk(w.abs().flatten(), k, sorted=False)
    print(tuple(vals.shape), where.dtype)
    mem("prune topk")
    thr = torch.kthvalue(w.abs().flatten()[:100000], 1000).values
    print(thr.shape, thr.dtype)
    mem("kthvalue")
del ranks, vals, where, w, thr
mem("end")
