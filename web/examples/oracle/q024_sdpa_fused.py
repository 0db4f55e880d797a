import torch
import torch.nn.functional as F

# Fused SDPA backends with backward: cuDNN attention (fp16/bf16, head dim a multiple
# of 8, with or without a mask), memory-efficient attention (fp32, bool mask) and
# flash attention with the head dim padded to 16 (fp16, head dim 12).
def mem(tag):
    print(f"{tag}: {torch.cuda.memory_allocated()} {torch.cuda.memory_reserved()} peak={torch.cuda.max_memory_allocated()}")
    torch.cuda.reset_peak_memory_stats()

configs = [
    (torch.float16, 64, "none"),
    (torch.bfloat16, 64, "causal"),
    (torch.float16, 32, "float"),
    (torch.float32, 32, "bool"),
    (torch.float16, 12, "none"),
    (torch.bfloat16, 12, "causal"),
]
for dt, e, kind in configs:
    q = torch.randn(2, 4, 128, e, device="cuda", dtype=dt, requires_grad=True)
    k = torch.randn(2, 4, 128, e, device="cuda", dtype=dt, requires_grad=True)
    v = torch.randn(2, 4, 128, e, device="cuda", dtype=dt, requires_grad=True)
    mask = None
    if kind == "float":
        mask = torch.randn(128, 128, device="cuda", dtype=dt)
    elif kind == "bool":
        mask = torch.rand(128, 128, device="cuda") > 0.25
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
