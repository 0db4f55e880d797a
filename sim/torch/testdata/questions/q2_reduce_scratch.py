# Which reductions allocate scratch (gpu_reduce_kernel global buffer + semaphores)?
import torch
def trace(tag, f):
    torch.cuda.memory._record_memory_history(max_entries=1000)
    torch.cuda.memory._snapshot()  # flush
    r = f()
    evs = [(e["action"], e["size"]) for e in torch.cuda.memory._snapshot()["device_traces"][0] if e["action"] in ("alloc", "free_completed")]
    print(tag, evs)
    torch.cuda.memory._record_memory_history(enabled=None)
    return r
for shape in [(512, 1024), (1024, 2048), (4096, 4096), (10, 100), (64, 10)]:
    a = torch.randn(*shape, device="cuda")
    trace(f"sum-all {shape}", lambda: a.sum())
    trace(f"mean-all {shape}", lambda: a.mean())
    trace(f"sum-dim0 {shape}", lambda: a.sum(0))
    trace(f"sum-dim1 {shape}", lambda: a.sum(1))
    del a
