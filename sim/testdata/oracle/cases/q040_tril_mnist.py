import torch
import torch.nn as nn
import torch.nn.functional as F

# torch.tril/triu (out of place, in place on a view under autograd, backward),
# then pytorch/examples mnist/main.py's loop: Adadelta (foreach on CUDA) and
# StepLR, on 3x64x64 inputs (convolution shapes with measured cuDNN workspaces).
def mem(tag):
    print(f"{tag}: {torch.cuda.memory_allocated()} {torch.cuda.memory_reserved()} peak={torch.cuda.max_memory_allocated()}")
    torch.cuda.reset_peak_memory_stats()

x = torch.randn(300, 300, device="cuda", requires_grad=True)
lo = torch.tril(x)
up = x.triu(diagonal=1)
lo2 = torch.tril(x, -2)
print(type(lo.grad_fn).__name__, type(up.grad_fn).__name__, lo.is_contiguous())
mem("tril/triu")
(lo.sum() + up.sum() + lo2.sum()).backward()
mem("tril backward")
x.grad = None
y = x * 1
y[:, :100].tril_()
print(type(y.grad_fn).__name__)
y.triu_(1)
print(type(y.grad_fn).__name__)
mem("tril_ on view")
y.sum().backward()
mem("tril_ backward")
del lo, up, lo2, y
x.grad = None
t = torch.randn(4, 300, 200, device="cuda").transpose(1, 2)
tt = t.tril(5)
print(tuple(tt.shape), tt.stride())
b = torch.ones(100, 100, dtype=torch.bool, device="cuda").tril()
mask = torch.tril(torch.ones(64, 64, device="cuda")).view(1, 1, 64, 64)
print(b.dtype, mask.shape)
mem("masks")
del t, tt, b, mask, x
mem("freed")


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 32, 3, 1, 1)
        self.conv2 = nn.Conv2d(32, 64, 3, 1, 1)
        self.dropout1 = nn.Dropout(0.25)
        self.dropout2 = nn.Dropout(0.5)
        self.fc1 = nn.Linear(16384, 128)
        self.fc2 = nn.Linear(128, 10)

    def forward(self, x):
        x = self.conv1(x)
        x = F.relu(x)
        x = F.max_pool2d(x, 2)
        x = self.conv2(x)
        x = F.relu(x)
        x = F.max_pool2d(x, 2)
        x = self.dropout1(x)
        x = torch.flatten(x, 1)
        x = self.fc1(x)
        x = F.relu(x)
        x = self.dropout2(x)
        x = self.fc2(x)
        output = F.log_softmax(x, dim=1)
        return output


torch.manual_seed(1)
device = torch.device("cuda")
model = Net().to(device)
optimizer = torch.optim.Adadelta(model.parameters(), lr=1.0)
scheduler = torch.optim.lr_scheduler.StepLR(optimizer, step_size=1, gamma=0.7)
mem("model")
for epoch in range(1, 4):
    model.train()
    for batch_idx in range(2):
        data = torch.randn(32, 3, 64, 64, device=device)
        target = torch.randint(0, 10, (32,), device=device)
        optimizer.zero_grad()
        output = model(data)
        loss = F.nll_loss(output, target)
        loss.backward()
        optimizer.step()
        mem(f"epoch {epoch} batch {batch_idx}")
    model.eval()
    test_loss = 0
    correct = 0
    with torch.no_grad():
        data = torch.randn(32, 3, 64, 64, device=device)
        target = torch.randint(0, 10, (32,), device=device)
        output = model(data)
        test_loss += F.nll_loss(output, target, reduction="sum").item()
        pred = output.argmax(dim=1, keepdim=True)
        correct += pred.eq(target.view_as(pred)).sum().item()
    mem(f"epoch {epoch} test")
    scheduler.step()
    print(epoch, scheduler.get_last_lr(), optimizer.param_groups[0]["lr"])
st = optimizer.state[model.fc1.weight]
print(sorted(st.keys()), st["step"].device, st["step"].dtype)
print(scheduler.state_dict()["last_epoch"], scheduler.state_dict()["_step_count"])
del data, target, output, loss, pred
mem("end")
