# Random ops beyond the factories, on both generators: bernoulli_ (number
# and tensor probabilities), torch.bernoulli, random_ (no bounds, to,
# from/to), multinomial (with and without replacement), torch.Generator
# (generator= of randperm/rand/randn/randint/normal_/bernoulli_/
# multinomial), DataLoader(shuffle=True)'s order, and the draws after each
# (the generators must have advanced as PyTorch's). Dropout of negative and
# infinite inputs (-0.0 and nan where dropped).
import torch
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

for dev in ("cpu", "cuda"):
    print("device", dev)
    torch.manual_seed(5)
    print("bernoulli_", torch.empty(12, device=dev).bernoulli_(0.3).tolist())
    p = torch.arange(10, device=dev) / 9
    print("bernoulli p", torch.bernoulli(p).tolist())
    print("bernoulli_ p2d", torch.empty(2, 5, device=dev).bernoulli_(p.view(2, 5)).tolist())
    print("bernoulli(x, 0.6)", torch.bernoulli(torch.zeros(7, device=dev), 0.6).tolist())
    print("bernoulli f64", torch.empty(6, device=dev, dtype=torch.float64).bernoulli_(0.5).tolist())
    print("after bernoulli", torch.rand(3, device=dev).tolist())
    torch.manual_seed(6)
    print("random_", torch.empty(4, dtype=torch.int64, device=dev).random_().tolist())
    print("random_(10)", torch.empty(6, dtype=torch.int64, device=dev).random_(10).tolist())
    print("random_(3, 9)", torch.empty(6, dtype=torch.int64, device=dev).random_(3, 9).tolist())
    print("random_ f32", torch.empty(5, device=dev).random_().tolist())
    print("after random_", torch.rand(3, device=dev).tolist())
    torch.manual_seed(9)
    probs = torch.tensor([[0.1, 0.2, 0.7, 0.0], [0.25, 0.25, 0.25, 0.25], [0.0, 0.0, 1.0, 3.0]], device=dev)
    print("multinomial repl", torch.multinomial(probs, 6, replacement=True).tolist())
    print("multinomial 1d", torch.multinomial(probs[1], 8, replacement=True).tolist())
    print("after multinomial", torch.rand(3, device=dev).tolist())
    print("multinomial norepl", torch.multinomial(probs[:2], 3).tolist())
    print("multinomial one", torch.multinomial(probs, 1).tolist())
    print("after norepl", torch.rand(3, device=dev).tolist())

    g = torch.Generator(device=dev)
    g.manual_seed(123)
    print("gen initial_seed", g.initial_seed())
    torch.manual_seed(1)
    print("gen randperm", torch.randperm(10, generator=g, device=dev).tolist())
    print("gen rand", torch.rand(4, generator=g, device=dev).tolist())
    print("gen randn", torch.randn(4, generator=g, device=dev).tolist())
    print("gen randint", torch.randint(0, 100, (5,), generator=g, device=dev).tolist())
    print("gen normal_", torch.empty(3, device=dev).normal_(2.0, 0.5, generator=g).tolist())
    print("gen bernoulli_", torch.empty(8, device=dev).bernoulli_(0.5, generator=g).tolist())
    print("gen multinomial", torch.multinomial(probs, 4, replacement=True, generator=g).tolist())
    print("global untouched", torch.rand(3, device=dev).tolist())
    g.manual_seed(123)
    print("gen reseeded", torch.randperm(10, generator=g, device=dev).tolist())

torch.manual_seed(0)
X = torch.arange(40.).view(20, 2)
ds = TensorDataset(X)
for epoch in range(2):
    order = []
    for (xb,) in DataLoader(ds, batch_size=6, shuffle=True):
        order += xb[:, 0].tolist()
    print("epoch", epoch, [int(v) // 2 for v in order])
print("after loaders", torch.rand(3).tolist())
for (xb,) in DataLoader(ds, batch_size=7):
    pass
print("after sequential loader", torch.rand(2).tolist())
g = torch.Generator()
g.manual_seed(7)
print("loader generator", [int(v) // 2 for (xb,) in DataLoader(ds, batch_size=20, shuffle=True, generator=g) for v in xb[:, 0].tolist()])
print("after generator loader", torch.rand(2).tolist())

torch.manual_seed(3)
x = torch.tensor([-1.0, -2.0, float("inf"), float("-inf"), 3.0, -0.5, float("inf"), -4.0] * 4, device="cuda")
y = F.dropout(x, p=0.5)
print("dropout", y.tolist())
print("dropout zero signs", ["-" if str(v).startswith("-") else "+" for v in y.tolist() if v == 0])
xc = x.cpu()
yc = F.dropout(xc, p=0.5)
print("dropout cpu", yc.tolist())
print("dropout cpu zero signs", ["-" if str(v).startswith("-") else "+" for v in yc.tolist() if v == 0])
