# Integer division family on CUDA, as PyTorch 2.11 computes it: // and
# floor_divide, torch.div with rounding_mode "trunc"/"floor", % and
# remainder (the divisor's sign), fmod (the dividend's sign), true division
# into float32, Python-number operands on either side, int32, in place,
# and the float versions. Lines tagged "exact int" compare exactly.
import torch

a = torch.tensor([7, -7, 7, -7, 0, 5, -5, 9, 2**40 + 3, -(2**40) - 3], device="cuda")
b = torch.tensor([2, 2, -2, -2, 3, -3, 3, 4, 7, 7], device="cuda")
print("exact int floordiv", (a // b).tolist(), torch.floor_divide(a, b).tolist())
print("exact int div floor", torch.div(a, b, rounding_mode="floor").tolist())
print("exact int div trunc", torch.div(a, b, rounding_mode="trunc").tolist())
print("exact int remainder", (a % b).tolist(), torch.remainder(a, b).tolist())
print("exact int fmod", torch.fmod(a, b).tolist())
print("true div", a / b)
print("true div fn", torch.div(a, b), torch.true_divide(a, b).dtype)
print("exact int scalar floordiv", (a // 3).tolist(), (a // -3).tolist())
print("exact int scalar remainder", (a % 3).tolist(), (a % -3).tolist())
print("exact int scalar fmod", torch.fmod(a, 3).tolist(), torch.fmod(a, -3).tolist())
print("exact int scalar trunc", torch.div(a, -3, rounding_mode="trunc").tolist(), torch.div(a, 3, rounding_mode="floor").tolist())
print("exact int reflected", (100 // b).tolist(), (-100 // b).tolist(), (100 % b).tolist(), (-100 % b).tolist())
print("scalar true div", a / 4, 7 / b)
i = a[:8].to(torch.int32)
j = b[:8].to(torch.int32)
print("exact int int32", (i // j).tolist(), (i % j).tolist(), torch.fmod(i, j).tolist(), (i // j).dtype)
print("exact int int32 scalar", (i // 3).tolist(), (i % -3).tolist(), torch.div(i, j, rounding_mode="trunc").tolist())
print("exact int mixed", (a[:8] // j).tolist(), (a[:8] // j).dtype, (i % b[:8]).tolist())
print("int32 true div", i / j)
c = a.clone()
c //= b
print("exact int inplace floordiv", c.tolist())
c = a.clone()
c %= b
print("exact int inplace remainder", c.tolist())
c = a.clone()
c //= 4
c %= 5
print("exact int inplace scalar", c.tolist())
z = torch.tensor([5, -5, 0], device="cuda")
print("float div by zero", z / 0, z / torch.zeros(3, device="cuda", dtype=torch.int64))
x = torch.tensor([7.5, -7.5, 7.5, -7.5, 0.0, 5.0, -5.0, 1e-3, 3.0, -0.0], device="cuda")
y = torch.tensor([2.0, 2.0, -2.0, -2.0, 3.0, -3.0, 3.0, 7.0, 0.1, 2.0], device="cuda")
print("float floordiv", x // y, torch.div(x, y, rounding_mode="floor"))
print("float trunc", torch.div(x, y, rounding_mode="trunc"))
print("float remainder", x % y, torch.remainder(x, y))
print("float fmod", torch.fmod(x, y))
print("float scalar", x // 2, x % -2, torch.fmod(x, 2.5), torch.div(x, 3, rounding_mode="trunc"))
print("float reflected", 10.0 // y, 10.0 % y)
print("float by zero", x[:3] // 0.0, x[:3] % 0.0, torch.fmod(x[:3], 0.0))
h = x.half()
print("float16", h // y.half(), h % y.half(), torch.fmod(h, 2))
d = x.double()
print("float64 floordiv", (d // y.double()).tolist(), (d % 0.1).tolist(), torch.fmod(d, 0.1).tolist())
print("float64 big fmod", torch.fmod(torch.tensor([1e300, -1e200, 3.5e10], device="cuda", dtype=torch.float64), 0.7).tolist())
print("float big fmod", torch.fmod(torch.tensor([1e30, -3e20, 12345678.0], device="cuda"), 0.7).tolist())
print("int float mixed", a // 2.5, a % 2.5)
