# env: PYTORCH_CUDA_ALLOC_CONF=max_split_size_mb:64
import torch

def mem(tag):
    s = torch.cuda.memory_stats()
    print(f"{tag}: {torch.cuda.memory_allocated()} {torch.cuda.memory_reserved()} oversize={s['oversize_allocations.current']}/{s['oversize_segments.current']}")

print(torch.cuda.memory_stats()["max_split_size"])
a = torch.empty(100 * 1024**2, dtype=torch.uint8, device="cuda")
del a
mem("cached 100 MiB")
b = torch.empty(90 * 1024**2, dtype=torch.uint8, device="cuda")
mem("90 MiB reuses the 100 MiB block")
del b
c = torch.empty(70 * 1024**2, dtype=torch.uint8, device="cuda")
mem("70 MiB gets its own segment")
small = [torch.empty(30 * 1024**2, dtype=torch.uint8, device="cuda") for _ in range(3)]
mem("30 MiB x3")
del small[0], small[1]
e = torch.empty(50 * 1024**2, dtype=torch.uint8, device="cuda")
mem("50 MiB")
torch.cuda.empty_cache()
mem("empty_cache")
