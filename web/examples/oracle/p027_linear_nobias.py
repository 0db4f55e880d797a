import torch
import torch.nn as nn

def mem(tag):
    print(f"{tag}: {torch.cuda.memory_allocated()} {torch.cuda.memory_reserved()}")

lin = nn.Linear(1024, 1024, bias=False).cuda()
x = torch.randn(128, 1024, device="cuda", requires_grad=True)
mem("setup")
y = lin(x)
mem("no-bias forward: cuBLAS workspace only")
y.sum().backward()
mem("backward")
lin2 = nn.Linear(1024, 1024).cuda()
z = lin2(x)
mem("bias forward: cuBLASLt workspace")
x3 = torch.randn(4, 32, 1024, device="cuda")
w = lin2(x3)
print(w.shape)
mem("3d input")
torch._C._cuda_clearCublasWorkspaces()
mem("cleared workspaces")
torch.cuda.empty_cache()
mem("empty_cache")
