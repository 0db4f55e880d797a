# s001_amp fp32 backward peaks 16 MiB+512 above what grads+workspace explain.
# Same model; record every alloc/free of one backward.
import torch, torch.nn as nn
model = nn.Sequential(nn.Linear(2048, 2048), nn.ReLU(), nn.Linear(2048, 2048)).cuda()
x = torch.randn(1024, 2048, device="cuda"); y = torch.randn(1024, 2048, device="cuda")
loss = nn.MSELoss()(model(x), y)
torch.cuda.memory._record_memory_history(max_entries=10000)
loss.backward()
for e in torch.cuda.memory._snapshot()["device_traces"][0]:
    if e["action"] in ("alloc", "free_completed", "segment_alloc"):
        fr = [f["name"] for f in e.get("frames", [])[:6]]
        print(e["action"], e["size"], fr)
