import torch
import torch.nn as nn

def mem(tag):
    print(f"{tag}: {torch.cuda.memory_allocated()} {torch.cuda.memory_reserved()} peak={torch.cuda.max_memory_allocated()}")

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(784, 512), nn.ReLU(), nn.Linear(512, 10)).cuda()
crit = nn.CrossEntropyLoss()
data = [(torch.randn(500, 784).pin_memory(), torch.randint(0, 10, (500,)).pin_memory()) for _ in range(4)]
print(data[0][0].is_pinned(), data[0][0].device)
mem("model")
losses, preds = [], []
model.eval()
with torch.no_grad():
    for i, (xb, yb) in enumerate(data):
        xb = xb.cuda(non_blocking=True)
        yb = yb.to("cuda", non_blocking=True)
        logits = model(xb)
        loss = crit(logits, yb)
        losses.append(loss.detach().cpu())
        preds.append(logits.argmax(dim=1).cpu())
        mem(f"eval batch {i}")
torch.cuda.synchronize()
print(len(losses), losses[0].device, torch.cat(preds).shape)
# Same loop without no_grad, keeping GPU losses: the graphs stay alive.
model.train()
kept = []
for i, (xb, yb) in enumerate(data):
    logits = model(xb.cuda(non_blocking=True))
    kept.append(crit(logits, yb.cuda()))
    mem(f"kept loss {i}")
total = torch.stack(kept).sum()
mem("stack")
del kept, total, logits
mem("del kept")
summary = torch.cuda.memory_summary()
print(summary.splitlines()[1])
print(len(summary.splitlines()))
