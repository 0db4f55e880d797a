# Small integer tensors (uint8, int8, int16), Python integers beyond 2^53
# in fill_/arange/in-place arithmetic, and dropout of non-contiguous CUDA
# inputs. Integers are printed exactly (the comparator's tolerance is
# relative: wrap-around errors would show).
import torch

F = torch.nn.functional
dev = "cuda"

# creation
print("create", torch.zeros(3, dtype=torch.uint8, device=dev), torch.ones(2, 2, dtype=torch.int8, device=dev))
print("full", torch.full((3,), 7, dtype=torch.int16, device=dev), torch.full((2,), -5, dtype=torch.int8, device=dev))
print("arange", torch.arange(250, 256, dtype=torch.uint8, device=dev), torch.arange(-4, 4, 3, dtype=torch.int8, device=dev))
print("arange16", torch.arange(30000, 30010, 4, dtype=torch.int16, device=dev).tolist())
u = torch.tensor([0, 1, 127, 128, 200, 255], dtype=torch.uint8, device=dev)
s = torch.tensor([-128, -1, 0, 1, 100, 127], dtype=torch.int8, device=dev)
h = torch.tensor([-32768, -300, -1, 0, 300, 32767], dtype=torch.int16, device=dev)
print("tensor", u, s, h)
print("item", u[5].item(), s[0].item(), h[0].item(), u.tolist(), s.dtype, h.dtype)

# casts between every dtype
for t in (u, s, h):
    for dt in (torch.float32, torch.float16, torch.bfloat16, torch.float64, torch.int64, torch.int32, torch.bool, torch.uint8, torch.int8, torch.int16):
        print("cast", t.dtype, dt, t.to(dt).tolist())
f = torch.tensor([-1.5, -0.7, 0.0, 2.9, 127.5, 128.0, 255.9, 256.0, 300.7, -200.2, 1000.0, -129.0], device=dev)
for src in (f, f.half(), f.bfloat16(), f.double()):
    print("from", src.dtype, src.to(torch.uint8).tolist(), src.to(torch.int8).tolist(), src.to(torch.int16).tolist())
g = torch.tensor([40000.0, -40000.0, 1e5, -1e5, 70000.5], device=dev)
print("far", g.to(torch.uint8).tolist(), g.to(torch.int8).tolist(), g.to(torch.int16).tolist())
print("far64", g.double().to(torch.int8).tolist(), g.double().to(torch.int16).tolist())
w = torch.tensor([-1, 255, 256, 300, -129, 2**40 + 7, -(2**33) - 1], device=dev)
print("wrap", w.to(torch.uint8).tolist(), w.to(torch.int8).tolist(), w.to(torch.int16).tolist(), w.int().to(torch.int8).tolist())
print("bool", torch.tensor([True, False, True], device=dev).to(torch.uint8), (u > 100).to(torch.int16))

# arithmetic in the type, wrapping; promotion as PyTorch
print("add", u + 100, s + 100, h + 30000)
print("sub", u - 1, s - 100, 3 - u)
print("mul", u * 3, s * 50, h * 300)
print("neg abs", -s, s.abs(), -h, h.abs())
print("tensor ops", u + u, s * s, h - torch.tensor([32767, 300, 0, -1, -300, -32768], dtype=torch.int16, device=dev), torch.add(u, u, alpha=3), torch.sub(s, torch.tensor([127, 100, 1, 0, -1, -128], dtype=torch.int8, device=dev), alpha=2))
print("promote", u + s, (u + s).dtype, s + h, u * h, s + torch.arange(6, device=dev), u + torch.arange(6, device=dev, dtype=torch.int32))
print("promote float", u * 2.5, s / 4, h + torch.ones(6, device=dev, dtype=torch.float16), u - torch.ones(6, device=dev, dtype=torch.bfloat16), s * torch.ones(6, device=dev, dtype=torch.float64))
print("bool operand", u + torch.tensor([True, False] * 3, device=dev), (s + True).dtype)
print("compare", u > 127, s < 0, h == 0, u >= s, s != h, u <= h)
print("compare number", u == 255, s > -2, h <= 300)
print("div", u // 7, s // 3, h // -7, u % 7, s % 3, h % 7, torch.div(s, 3, rounding_mode="trunc"), torch.fmod(s, 3))
print("div tensor", s // torch.tensor([3, -2, 5, 7, -9, 4], dtype=torch.int8, device=dev), u % torch.tensor([3, 2, 5, 7, 9, 4], dtype=torch.uint8, device=dev))
print("true div", u / 2, s / 8)
v = u.clone()
v += 100
v *= 3
v -= 7
print("inplace", v)
v2 = s.clone()
v2.fill_(-3)
v2[2] = 77
print("fill", v2, h.clone().zero_())

# sums accumulate in int64
print("sum", u.sum(), s.sum(), h.sum(), u.sum().dtype, s.view(2, 3).sum(dim=1), h.view(3, 2).sum(dim=0))
print("sum big", torch.full((1000,), 255, dtype=torch.uint8, device=dev).sum().item(), torch.full((3000,), -32768, dtype=torch.int16, device=dev).sum().item())
print("to cpu", u.cpu(), s.cpu() + 1, h.cpu().to(torch.float32))

# integers beyond 2^53
b = torch.zeros(3, dtype=torch.int64, device=dev)
b.fill_(2**60 + 3)
print("exact int fill_", b)
b[1] = -(2**62) - 5
print("exact int setitem", b.tolist())
print("exact int arange", torch.arange(2**60, 2**60 + 10, 3, device=dev))
print("exact int arange neg", torch.arange(-(2**55), -(2**55) - 7, -2, device=dev).tolist(), torch.arange(2**53 + 1, 2**53 + 4, device=dev).tolist())
b += 2**55 + 1
print("exact int +=", b)
b -= 2**54 + 7
print("exact int -=", b)
c = torch.arange(4, device=dev)
c *= 2**55 + 1
print("exact int *=", c)
c *= 2**10
print("exact int *= wraps", c.tolist())
i32 = torch.arange(3, device=dev, dtype=torch.int32)
i32 += 2**31 - 1
print("exact int int32 += wraps", i32.tolist())

# dropout of non-contiguous CUDA inputs
torch.manual_seed(0)
x = torch.arange(1.0, 25.0, device=dev).view(4, 6)
print("dropout t", F.dropout(x.t(), 0.5))
print("dropout slice", F.dropout(x[:, ::2], 0.5))
print("dropout offset", F.dropout(x.t()[1:], 0.3))
y = torch.arange(1.0, 16.0, device=dev).view(3, 5)
print("dropout t odd", F.dropout(y.t(), 0.5))
print("dropout half t", F.dropout(x.half().t(), 0.25))
z = torch.arange(1.0, 33.0, device=dev).view(2, 4, 4).permute(2, 0, 1)
print("dropout permute", F.dropout(z, 0.5))
xr = x.t().detach().requires_grad_()
d = F.dropout(xr, 0.4)
d.sum().backward()
print("dropout grad", d, xr.grad)
print("after", torch.rand(3, device=dev))
