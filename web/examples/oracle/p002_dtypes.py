import torch

def mem(tag):
    print(f"{tag}: {torch.cuda.memory_allocated()} {torch.cuda.memory_reserved()}")

a = torch.randn(1000, 1000, device="cuda")
mem("float32")
h = a.half()
b = a.bfloat16()
d = a.double()
mem("half bf16 double")
print(h.dtype, b.dtype, d.dtype, h.element_size(), b.element_size(), d.element_size())
i = a.long()
j = a.int()
k = a.bool()
mem("long int bool")
s = a.to(torch.int16)
u = a.to(torch.uint8)
q = a.to(torch.int8)
mem("int16 uint8 int8")
same = a.float()
print(same is a)
t = a.type(torch.float16)
print(t.dtype, a.type())
mem("type")
back = h.float()
mem("half back to float")
del a, h, b, d, i, j, k, s, u, q, same, t, back
mem("end")
