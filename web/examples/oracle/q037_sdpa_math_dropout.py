import torch
import torch.nn.functional as F

# SDPA with dropout_p > 0. The math fallback (fp32 head dim 6; fp16 head dim 12
# with a float mask) calls at::dropout on the probabilities: native_dropout's
# output and bool mask (kept by NativeDropoutBackward0 with grad). The fused
# paths (cuDNN fp16 head dim 64, flash fp16 head dim 12, memory-efficient fp32
# head dim 32) keep their RNG seed/offset for the backward.
def mem(tag):
    print(f"{tag}: {torch.cuda.memory_allocated()} {torch.cuda.memory_reserved()} peak={torch.cuda.max_memory_allocated()}")
    torch.cuda.reset_peak_memory_stats()

torch.manual_seed(0)
configs = [
    (torch.float32, 6, "none", 96, 96),
    (torch.float32, 6, "causal", 64, 64),
    (torch.float16, 12, "float", 64, 80),
    (torch.float16, 64, "none", 128, 128),
    (torch.float16, 12, "none", 128, 128),
    (torch.float32, 32, "none", 128, 128),
]
for dt, e, kind, l, s in configs:
    q = torch.randn(2, 4, l, e, device="cuda", dtype=dt, requires_grad=True)
    k = torch.randn(2, 4, s, e, device="cuda", dtype=dt, requires_grad=True)
    v = torch.randn(2, 4, s, e, device="cuda", dtype=dt, requires_grad=True)
    mask = None
    if kind == "float":
        mask = torch.randn(l, s, device="cuda", dtype=dt)
    mem(f"{dt} e={e} {kind} setup")
    o = F.scaled_dot_product_attention(q, k, v, attn_mask=mask, dropout_p=0.1, is_causal=kind == "causal")
    print(o.shape, o.stride(), type(o.grad_fn).__name__)
    mem(f"{dt} e={e} {kind} forward")
    o.float().sum().backward()
    mem(f"{dt} e={e} {kind} backward")
    with torch.no_grad():
        o2 = F.scaled_dot_product_attention(q, k, v, attn_mask=mask, dropout_p=0.1, is_causal=kind == "causal")
    print(o2.shape, o2.stride())
    mem(f"{dt} e={e} {kind} no_grad")
    del o2
    mem(f"{dt} e={e} {kind} no_grad freed")
    del q, k, v, o, mask
    mem(f"{dt} e={e} {kind} freed")
