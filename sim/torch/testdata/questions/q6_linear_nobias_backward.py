# p027_linear_nobias: after `y.sum().backward()` of a Linear without bias the H100 reserves
# 2 MiB more than modelled (allocated matches). Record every allocation of the backward.
import torch, torch.nn as nn
lin = nn.Linear(1024, 1024, bias=False).cuda()
x = torch.randn(128, 1024, device="cuda", requires_grad=True)
y = lin(x)
print("forward", torch.cuda.memory_allocated(), torch.cuda.memory_reserved())
torch.cuda.memory._record_memory_history(max_entries=10000)
y.sum().backward()
print("backward", torch.cuda.memory_allocated(), torch.cuda.memory_reserved())
for seg in torch.cuda.memory_snapshot():
    print("segment", seg["segment_type"], seg["total_size"], [(b["size"], b["state"]) for b in seg["blocks"]])
for e in torch.cuda.memory._snapshot()["device_traces"][0]:
    if e["action"] in ("alloc", "free_completed", "segment_alloc", "segment_free"):
        print(e["action"], e["size"], [f["name"] for f in e.get("frames", []) if "at::" in f["name"] or "autograd" in f["name"] or "cublas" in f["name"].lower()][:4])
