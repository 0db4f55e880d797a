import torch
import torch.nn as nn

def mem(tag):
    print(f"{tag}: {torch.cuda.memory_allocated()} {torch.cuda.memory_reserved()} peak={torch.cuda.max_memory_allocated()}")

emb = nn.Embedding(32000, 512).cuda()
head = nn.Linear(512, 32000, bias=False).cuda()
crit = nn.CrossEntropyLoss()
ids = torch.randint(0, 32000, (4, 256), device="cuda")
mem("setup")
h = emb(ids)
logits = head(h)
mem("logits")
loss = crit(logits.view(-1, 32000), ids.view(-1))
mem("loss")
loss.backward()
mem("backward")
del h, logits, loss
mem("end")
