import torch
import torch.nn.functional as F

# Flash attention (fp16, no mask) with head dims 4 and 8: PyTorch pads q/k/v
# to a multiple of 8 before the kernel and slices the output back.
def mem(tag):
    print(f"{tag}: {torch.cuda.memory_allocated()} {torch.cuda.memory_reserved()} peak={torch.cuda.max_memory_allocated()}")
    torch.cuda.reset_peak_memory_stats()

for e in (4, 8):
    q = torch.randn(4, 8, 256, e, device="cuda", dtype=torch.float16, requires_grad=True)
    k = torch.randn(4, 8, 256, e, device="cuda", dtype=torch.float16, requires_grad=True)
    v = torch.randn(4, 8, 256, e, device="cuda", dtype=torch.float16, requires_grad=True)
    mem(f"e={e} setup")
    o = F.scaled_dot_product_attention(q, k, v)
    print(e, o.shape, o.stride(), type(o.grad_fn).__name__)
    mem(f"e={e} forward")
    o.float().sum().backward()
    mem(f"e={e} backward")
    with torch.no_grad():
        o2 = F.scaled_dot_product_attention(q, k, v, is_causal=True)
    print(o2.shape, o2.stride())
    mem(f"e={e} no_grad")
    del q, k, v, o, o2
    mem(f"e={e} freed")
