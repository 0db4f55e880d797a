import torch
import torch.nn as nn

def mem(tag):
    print(f"{tag}: {torch.cuda.memory_allocated()} {torch.cuda.memory_reserved()}")

class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.layers = nn.ModuleList([nn.Linear(256, 256) for _ in range(4)])
        self.heads = nn.ModuleDict({"a": nn.Linear(256, 10), "b": nn.Linear(256, 5)})
        self.seq = nn.Sequential(nn.Linear(256, 128), nn.ReLU())

    def forward(self, x):
        for layer in self.layers:
            x = torch.relu(layer(x))
        x = self.seq(x) if False else x
        return self.heads["a"](x), self.heads["b"](x)

net = Net().cuda()
mem("model")
names = [n for n, _ in net.named_parameters()]
print(len(names), names[0], names[-1])
print(sum(p.numel() for p in net.parameters()))
print(len(list(net.children())), len(list(net.modules())))
sd = net.state_dict()
print(len(sd), list(sd.keys())[:3])
mem("state_dict shares storage")
a, b = net(torch.randn(64, 256, device="cuda"))
(a.sum() + b.sum()).backward()
mem("backward")
net.zero_grad()
mem("zero_grad")
print(net.layers[0].weight.grad)
del a, b
mem("end")
