import torch
import torch.nn.functional as F

# SDPA's math fallback (no fused kernel takes the inputs): fp32 with a head dim
# that is not a multiple of 4, fp16 with head dim 12 and a mask (flash takes no
# mask, memory-efficient needs a multiple of 8), and L != S. Also the
# memory-efficient path with a mask whose last dim is padded to a multiple of 8.
def mem(tag):
    print(f"{tag}: {torch.cuda.memory_allocated()} {torch.cuda.memory_reserved()} peak={torch.cuda.max_memory_allocated()}")
    torch.cuda.reset_peak_memory_stats()

configs = [
    (torch.float32, 6, "none", 96, 96),
    (torch.float32, 6, "causal", 96, 96),
    (torch.float16, 12, "float", 64, 80),
    (torch.float16, 4, "bool", 64, 64),
    (torch.float32, 16, "float", 64, 36),
]
for dt, e, kind, l, s in configs:
    q = torch.randn(2, 4, l, e, device="cuda", dtype=dt, requires_grad=True)
    k = torch.randn(2, 4, s, e, device="cuda", dtype=dt, requires_grad=True)
    v = torch.randn(2, 4, s, e, device="cuda", dtype=dt, requires_grad=True)
    mask = None
    if kind == "float":
        mask = torch.randn(l, s, device="cuda", dtype=dt)
    elif kind == "bool":
        mask = torch.rand(l, s, device="cuda") > 0.25
    mem(f"{dt} e={e} {kind} setup")
    o = F.scaled_dot_product_attention(q, k, v, attn_mask=mask, is_causal=kind == "causal")
    print(o.shape, o.stride(), type(o.grad_fn).__name__)
    mem(f"{dt} e={e} {kind} forward")
    o.float().sum().backward()
    mem(f"{dt} e={e} {kind} backward")
    with torch.no_grad():
        o2 = F.scaled_dot_product_attention(q, k, v, attn_mask=mask, is_causal=kind == "causal")
    print(o2.shape, o2.stride())
    mem(f"{dt} e={e} {kind} no_grad")
    del q, k, v, o, o2, mask
    mem(f"{dt} e={e} {kind} freed")
