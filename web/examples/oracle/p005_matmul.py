import torch

def mem(tag):
    print(f"{tag}: {torch.cuda.memory_allocated()} {torch.cuda.memory_reserved()}")

a = torch.randn(256, 512, device="cuda")
b = torch.randn(512, 128, device="cuda")
mem("start")
c = a @ b
mem("first matmul (cuBLAS workspace)")
d = torch.mm(a, b)
e = torch.matmul(a, b)
mem("more matmul")
bias = torch.randn(128, device="cuda")
f = torch.addmm(bias, a, b)
mem("addmm")
x = torch.randn(8, 64, 32, device="cuda")
y = torch.randn(8, 32, 16, device="cuda")
z = torch.bmm(x, y)
z2 = x @ y
mem("bmm")
v = torch.randn(512, device="cuda")
mv = a @ v
mem("matrix vector")
big = torch.matmul(torch.randn(4, 256, 512, device="cuda"), b)
print(big.shape)
mem("batched broadcast matmul")
del a, b, c, d, e, f, x, y, z, z2, v, mv, big, bias
mem("end")
torch.cuda.empty_cache()
mem("empty_cache keeps workspaces")
