import torch
import torch.nn as nn
import torch.nn.functional as F

def mem(tag):
    print(f"{tag}: {torch.cuda.memory_allocated()} {torch.cuda.memory_reserved()}")

logits = torch.randn(512, 1000, device="cuda", requires_grad=True)
target = torch.randint(0, 1000, (512,), device="cuda")
reg = torch.randn(512, 1000, device="cuda")
prob = torch.rand(512, 1000, device="cuda")
mem("start")
for name, fn in [("mse", lambda: nn.MSELoss()(logits, reg)),
                 ("l1", lambda: nn.L1Loss()(logits, reg)),
                 ("ce", lambda: nn.CrossEntropyLoss()(logits, target)),
                 ("nll", lambda: nn.NLLLoss()(F.log_softmax(logits, dim=1), target)),
                 ("bce", lambda: nn.BCELoss()(torch.sigmoid(logits), prob)),
                 ("bcelogits", lambda: nn.BCEWithLogitsLoss()(logits, prob))]:
    torch.cuda.reset_peak_memory_stats()
    loss = fn()
    mem(f"{name} forward")
    loss.backward()
    mem(f"{name} backward peak={torch.cuda.max_memory_allocated()}")
    logits.grad = None
    del loss
mem("end")
