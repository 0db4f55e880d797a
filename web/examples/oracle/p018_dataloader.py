import torch
import torch.nn as nn
from torch.utils.data import TensorDataset, DataLoader

def mem(tag):
    print(f"{tag}: {torch.cuda.memory_allocated()} {torch.cuda.memory_reserved()}")

torch.manual_seed(0)
X = torch.randn(1000, 64)
Y = torch.randint(0, 4, (1000,))
ds = TensorDataset(X, Y)
loader = DataLoader(ds, batch_size=128, shuffle=True, drop_last=False)
print(len(ds), len(loader))
model = nn.Sequential(nn.Linear(64, 128), nn.ReLU(), nn.Linear(128, 4)).cuda()
opt = torch.optim.SGD(model.parameters(), lr=0.1)
crit = nn.CrossEntropyLoss()
mem("setup")
for i, (xb, yb) in enumerate(loader):
    xb, yb = xb.cuda(), yb.cuda()
    loss = crit(model(xb), yb)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(i, tuple(xb.shape), torch.cuda.memory_allocated())
loader2 = DataLoader(ds, batch_size=300, drop_last=True)
print(len(loader2), [tuple(b[0].shape) for b in loader2])
mem("end")
