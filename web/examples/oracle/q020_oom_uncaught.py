import torch

torch.cuda.set_per_process_memory_fraction(0.02)
keep = torch.empty(1024**3, dtype=torch.uint8, device="cuda")
print(torch.cuda.memory_allocated())
x = torch.empty(1024**3, dtype=torch.uint8, device="cuda")
print("not reached")
