import torch

def mem(tag):
    print(f"{tag}: {torch.cuda.memory_allocated()} {torch.cuda.memory_reserved()}")

x = torch.randn(256, 512, device="cuda")
mem("x")
v = x.view(512, 256)
r = x.reshape(128, 1024)
f = x.flatten()
mem("views")
t = x.t()
p = x.unsqueeze(0).permute(2, 0, 1)
s = x.unsqueeze(1).squeeze(1)
e = x[:, :1].expand(256, 4096)
mem("more views")
c = t.contiguous()
mem("contiguous copy")
c2 = c.contiguous()
print(c2 is c)
rt = t.reshape(-1)
mem("reshape of transpose copies")
parts = x.split(64, dim=0)
chunks = x.chunk(3, dim=1)
print(len(parts), len(chunks), chunks[2].shape)
mem("split and chunk")
sl = x[10:20, ::2]
row = x[5]
idx = x[torch.tensor([0, 2, 4], device="cuda")]
mem("slicing and index")
del x, v, r, f, t, p, s, e
mem("del views, slices keep storage")
del parts, chunks, sl, row
mem("del parts")
del c, c2, rt, idx
mem("end")
