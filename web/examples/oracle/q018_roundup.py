# env: PYTORCH_CUDA_ALLOC_CONF=roundup_power2_divisions:4
import torch

def mem(tag):
    print(f"{tag}: {torch.cuda.memory_allocated()} {torch.cuda.memory_reserved()} requested={torch.cuda.memory_stats()['requested_bytes.all.current']}")

sizes = [1200, 3000, 5 * 1024**2 + 1, 13_000_000, 100_000_000]
ts = []
for s in sizes:
    ts.append(torch.empty(s, dtype=torch.uint8, device="cuda"))
    mem(f"{s}")
del ts
torch.cuda.empty_cache()
mem("freed")
