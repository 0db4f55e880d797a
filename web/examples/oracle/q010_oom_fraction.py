import torch

def mem(tag):
    s = torch.cuda.memory_stats()
    print(f"{tag}: {torch.cuda.memory_allocated()} {torch.cuda.memory_reserved()} retries={s['num_alloc_retries']} ooms={s['num_ooms']}")

torch.cuda.set_per_process_memory_fraction(0.05)
print(torch.cuda.get_per_process_memory_fraction())
a = torch.empty(3 * 1024**3, dtype=torch.uint8, device="cuda")
del a
mem("cached 3 GiB")
b = torch.empty(3584 * 1024**2, dtype=torch.uint8, device="cuda")
mem("3.5 GiB after flush and retry")
try:
    c = torch.empty(1024**3, dtype=torch.uint8, device="cuda")
except torch.OutOfMemoryError as e:
    msg = str(e)
    print(msg[:msg.index(" GPU 0")])
    print(msg[msg.index("allowed;") - 9:])
mem("after OOM")
print(isinstance(torch.cuda.OutOfMemoryError("x"), RuntimeError))
