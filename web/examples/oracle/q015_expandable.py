# env: PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True
import torch

def mem(tag):
    s = torch.cuda.memory_stats()
    print(f"{tag}: {torch.cuda.memory_allocated()} {torch.cuda.memory_reserved()} segments={s['segment.all.current']} device_alloc={s['num_device_alloc']}")

a = torch.empty(5 * 1024**2, dtype=torch.uint8, device="cuda")
mem("5 MiB")
b = torch.empty(30 * 1024**2, dtype=torch.uint8, device="cuda")
mem("+30 MiB")
c = torch.empty(1000, dtype=torch.uint8, device="cuda")
mem("+1000 B")
xs = [torch.empty(7 * 1024**2, dtype=torch.uint8, device="cuda") for _ in range(5)]
mem("5 x 7 MiB")
del xs[1], xs[2]
d = torch.empty(13 * 1024**2, dtype=torch.uint8, device="cuda")
mem("13 MiB into the hole")
del a
torch.cuda.empty_cache()
mem("empty_cache")
del b, c, d, xs
torch.cuda.empty_cache()
mem("all freed")
