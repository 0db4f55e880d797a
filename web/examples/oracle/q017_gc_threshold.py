# env: PYTORCH_CUDA_ALLOC_CONF=garbage_collection_threshold:0.5
import torch

def mem(tag):
    s = torch.cuda.memory_stats()
    print(f"{tag}: {torch.cuda.memory_allocated()} {torch.cuda.memory_reserved()} device_free={s['num_device_free']} sync={s['num_sync_all_streams']}")

torch.cuda.set_per_process_memory_fraction(0.1)
a = torch.empty(3 * 1024**3, dtype=torch.uint8, device="cuda")
del a
b = torch.empty(3584 * 1024**2, dtype=torch.uint8, device="cuda")
del b
mem("two cached segments")
c = torch.empty(4 * 1024**3, dtype=torch.uint8, device="cuda")
mem("4 GiB: GC released the older block")
