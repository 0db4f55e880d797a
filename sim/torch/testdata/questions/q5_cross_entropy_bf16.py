# q005_autocast_bf16: cross_entropy of bf16 logits under autocast keeps 5120 B (= the bf16
# logits' size) more than modelled until the backward frees it. Record what it allocates.
import torch, torch.nn as nn
lin = nn.Linear(1024, 10).cuda()
x = torch.randn(256, 1024, device="cuda"); t = torch.randint(0, 10, (256,), device="cuda")
with torch.autocast(device_type="cuda", dtype=torch.bfloat16):
    logits = lin(x)
    torch.cuda.memory._record_memory_history(max_entries=10000)
    loss = nn.functional.cross_entropy(logits, t)
print("after cross_entropy", torch.cuda.memory_allocated())
print(loss.grad_fn, loss.grad_fn.next_functions)
for e in torch.cuda.memory._snapshot()["device_traces"][0]:
    if e["action"] in ("alloc", "free_completed"):
        print(e["action"], e["size"], [f["name"] for f in e.get("frames", [])[:8] if "at::" in f["name"]][:3])
loss.backward()
