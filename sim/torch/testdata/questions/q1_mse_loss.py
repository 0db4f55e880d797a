# What does F.mse_loss allocate on CUDA in 2.11, and what does the loss tensor keep?
# Observed in s001_amp/s002_model: forward peak = 2 x input size (+~1.5 KiB on big inputs),
# net = +1 input-sized buffer that survives backward and dies with `loss`.
import torch
import torch.nn.functional as F
def m(tag): print(tag, torch.cuda.memory_allocated(), torch.cuda.max_memory_allocated())
x = torch.randn(1024, 2048, device="cuda", requires_grad=True)
y = torch.randn(1024, 2048, device="cuda")
torch.cuda.reset_peak_memory_stats(); m("start")
loss = F.mse_loss(x, y)
m("after mse")
print("storage nbytes", loss.untyped_storage().nbytes(), "is_view", loss._is_view(), "grad_fn", loss.grad_fn)
print("next", loss.grad_fn.next_functions)
torch.cuda.reset_peak_memory_stats(); loss.backward(); m("after backward")
del loss; m("after del loss")
with torch.no_grad():
    torch.cuda.reset_peak_memory_stats(); l2 = F.mse_loss(x, y); m("no_grad mse")
    print("no_grad storage nbytes", l2.untyped_storage().nbytes())
small = torch.randn(10, 100, device="cuda", requires_grad=True)
torch.cuda.reset_peak_memory_stats(); b = torch.cuda.memory_allocated()
l3 = F.mse_loss(small, torch.randn(10, 100, device="cuda")); m("small mse (base %d)" % b)
torch.cuda.memory._record_memory_history(max_entries=1000)
l4 = F.mse_loss(x, y)
for e in torch.cuda.memory._snapshot()["device_traces"][0]:
    print(e["action"], e["size"])
