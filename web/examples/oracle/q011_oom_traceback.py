import torch

def mem(tag):
    print(f"{tag}: {torch.cuda.memory_allocated()} {torch.cuda.memory_reserved()}")

torch.cuda.set_per_process_memory_fraction(0.1)

def step(n):
    big = torch.empty(n, dtype=torch.uint8, device="cuda")
    bigger = torch.empty(2 * n, dtype=torch.uint8, device="cuda")
    return big.sum() + bigger.sum()

try:
    step(4 * 1024**3)
except torch.OutOfMemoryError as e:
    mem("inside except: frame's tensors alive through the traceback")
    torch.cuda.empty_cache()
    mem("empty_cache inside except")
mem("after except")
torch.cuda.empty_cache()
mem("empty_cache outside except")
