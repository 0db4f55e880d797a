import torch

def mem(tag):
    print(f"{tag}: {torch.cuda.memory_allocated()} {torch.cuda.memory_reserved()}")

x = torch.zeros(1024, 1024, device="cuda")
y = torch.ones(1024, 1024, device="cuda")
mem("start")
x.add_(y)
x.mul_(2)
x.zero_()
mem("in-place")
x += y
x *= 3
x -= 1
x /= 2
mem("augmented")
z = x + y
mem("out of place")
z = z * 2
mem("rebind")
z.relu_()
x.clamp_(min=0)
x.fill_(1.5)
x.copy_(y)
mem("more in-place")
w = torch.relu(z)
w.sigmoid_()
w.tanh_()
mem("activation in-place")
del x, y, z, w
mem("end")
