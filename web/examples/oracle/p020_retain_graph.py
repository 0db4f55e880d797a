import torch

def mem(tag):
    print(f"{tag}: {torch.cuda.memory_allocated()} {torch.cuda.memory_reserved()}")

w = torch.randn(1024, 1024, device="cuda", requires_grad=True)
x = torch.randn(512, 1024, device="cuda")
mem("start")
h = torch.tanh(x @ w)
loss = (h * h).sum()
mem("forward")
loss.backward(retain_graph=True)
mem("backward retain_graph")
loss.backward()
mem("second backward accumulates, frees graph")
try:
    loss.backward()
except RuntimeError as e:
    print("RuntimeError:", str(e).split(".")[0])
del h, loss
mem("del outputs")
w.grad = None
mem("grad cleared")
