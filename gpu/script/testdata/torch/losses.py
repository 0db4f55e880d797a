# Losses and dropout with real values: l1, binary_cross_entropy,
# binary_cross_entropy_with_logits (weight, pos_weight, large logits) and
# their backwards; dropout: the mask comes from the backend's generator
# (not PyTorch's Philox), so only its properties are printed: values 0 or
# x/(1-p), the fraction dropped, the backward using the same mask.
import torch
import torch.nn.functional as F

x = torch.tensor([0.0, 0.7833, 0.9738, 0.4274, -0.4425, -0.9775, -0.7728, 0.0168, 0.7937, 0.9699, 0.4121, -0.4575], device="cuda").view(3, 4)
y = torch.tensor([1.0, 0.9211, 0.6967, 0.3624, -0.0292, -0.4161, -0.7374, -0.9422, -0.9983, -0.8968, -0.6536, -0.3073], device="cuda").view(3, 4)
p = torch.sigmoid(x)
t = (y > 0).float()
pw = torch.tensor([1.0, 2.0, 0.5, 3.0], device="cuda")
print(F.l1_loss(x, y), F.l1_loss(x, y, reduction="sum"), F.l1_loss(x, y, reduction="none"))
print(F.binary_cross_entropy(p, t), F.binary_cross_entropy(p, torch.sigmoid(y), reduction="none"))
print(F.binary_cross_entropy(p, t, weight=pw, reduction="sum"))
print(F.binary_cross_entropy_with_logits(x, t), F.binary_cross_entropy_with_logits(x, t, reduction="sum"))
print(F.binary_cross_entropy_with_logits(x, t, pos_weight=pw))
print(F.binary_cross_entropy_with_logits(x * 30, t, reduction="none"))
print(F.binary_cross_entropy_with_logits(x, torch.sigmoid(y), weight=pw, pos_weight=pw, reduction="none"))
a = x.clone().requires_grad_(True)
F.l1_loss(a, y).backward()
print(a.grad)
b = p.clone().requires_grad_(True)
F.binary_cross_entropy(b, t).backward()
print(b.grad)
b.grad = None
F.binary_cross_entropy(b, torch.sigmoid(y), weight=pw, reduction="sum").backward()
print(b.grad)
c = x.clone().requires_grad_(True)
F.binary_cross_entropy_with_logits(c, t, pos_weight=pw).backward()
print(c.grad)
c.grad = None
F.binary_cross_entropy_with_logits(c * 2, torch.sigmoid(y), weight=pw, reduction="sum").backward()
print(c.grad)
print(torch.nn.BCEWithLogitsLoss()(x, t).item(), torch.nn.L1Loss(reduction="sum")(x, y).item())
d = torch.ones(10000, device="cuda") * 3
o = F.dropout(d, p=0.25)
print((o == 0).sum().item() + (o == 4.0).sum().item(), abs((o == 0).float().mean().item() - 0.25) < 0.05)
w = d.clone().requires_grad_(True)
o = F.dropout(w, p=0.5)
o.sum().backward()
print((w.grad * 3 != o).sum().item(), abs((o == 0).float().mean().item() - 0.5) < 0.05)
print(F.dropout(x, p=0.5, training=False), torch.nn.Dropout(0.3).eval()(y))
h = F.dropout(x.half(), p=0.2)
print(((h == 0) | (h == (x.half() / 0.8))).sum().item())
