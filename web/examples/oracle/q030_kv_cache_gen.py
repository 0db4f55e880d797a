import torch
import torch.nn as nn

def mem(tag):
    print(f"{tag}: {torch.cuda.memory_allocated()} {torch.cuda.memory_reserved()} peak={torch.cuda.max_memory_allocated()}")

torch.manual_seed(0)
d = 256
qkv = nn.Linear(d, 3 * d).cuda().eval()
proj = nn.Linear(d, d).cuda().eval()
mem("model")
x = torch.randn(4, 1, d, device="cuda")
k_cache = None
v_cache = None
with torch.inference_mode():
    for step in range(10):
        q, k, v = qkv(x).chunk(3, dim=-1)
        if k_cache is None:
            k_cache, v_cache = k, v
        else:
            k_cache = torch.cat([k_cache, k], dim=1)
            v_cache = torch.cat([v_cache, v], dim=1)
        att = (q @ k_cache.transpose(1, 2)) / d ** 0.5
        out = att.softmax(dim=-1) @ v_cache
        x = proj(out)
        mem(f"cat step {step} len={k_cache.shape[1]}")
del k_cache, v_cache, q, k, v, att, out
mem("after del")
# Preallocated cache written in place, under no_grad.
k_cache = torch.empty(4, 10, d, device="cuda")
v_cache = torch.empty(4, 10, d, device="cuda")
mem("prealloc")
with torch.no_grad():
    for step in range(10):
        q, k, v = qkv(x).chunk(3, dim=-1)
        k_cache[:, step:step + 1] = k
        v_cache[:, step:step + 1] = v
        kk = k_cache[:, :step + 1]
        vv = v_cache[:, :step + 1]
        out = torch.softmax(q @ kk.transpose(1, 2) / d ** 0.5, dim=-1) @ vv
        x = proj(out)
        mem(f"slot step {step}")
print(x.shape, x.requires_grad, x.is_inference())
torch.cuda.empty_cache()
mem("end")
