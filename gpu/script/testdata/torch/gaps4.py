# The last gaps (session 11): clamp of integer tensors by integer bounds
# (the type kept, computed in int64), clamp_ of integers, randint into
# non-contiguous uint8/int8/int16 tensors (TensorIterator order),
# index_put_(accumulate=True) into bool (a logical or), and mean into an
# integer type (an error in PyTorch). Lines tagged "exact int" compare
# exactly.
import torch

for dt in (torch.int64, torch.int32, torch.int16, torch.int8, torch.uint8):
    a = (torch.arange(12, device="cuda") * 3 - 10).to(dt)
    c = torch.clamp(a, 2, 9)
    print("exact int clamp", dt, c.dtype, c.tolist(), a.clamp(min=2).tolist(), a.clamp(max=5).tolist())
    print("exact int clamp view", dt, a.view(3, 4).t().clamp(3, 20).tolist())
    b = a.clone()
    b.clamp_(0, 7)
    print("exact int clamp_", dt, b.tolist())
    v = a.view(3, 4)[:, 1:3]
    v.clamp_(min=4)
    print("exact int clamp_ view", dt, a.tolist())
    f = torch.clamp(a, -2.5, 7.5)
    print("clamp float bound", dt, f.dtype, f.tolist())
print("exact int clamp bool", torch.clamp(torch.tensor([True, False, True], device="cuda"), 0, 1).tolist())
big = torch.tensor([2**60 + 1, -(2**60) - 3, 5, -9], device="cuda")
print("exact int clamp big", big.clamp(-7, 2**40).tolist(), big.clamp(min=-7).tolist(), big.clamp(max=3).tolist())

for dt in (torch.uint8, torch.int8, torch.int16):
    torch.manual_seed(3)
    t = torch.zeros(6, 4, dtype=dt, device="cuda").t()
    t.random_(0, 50)
    torch.manual_seed(3)
    u = torch.zeros(4, 6, dtype=dt, device="cuda")
    u.random_(0, 50)
    torch.manual_seed(5)
    s = torch.zeros(3, 8, dtype=dt, device="cuda")[:, ::2]
    s.random_(-20, 100) if dt != torch.uint8 else s.random_(0, 120)
    torch.manual_seed(6)
    w = torch.zeros(2, 3, 4, dtype=dt, device="cuda").permute(2, 0, 1)
    w.random_(0, 7)
    print("exact int randint noncontig", dt, t.tolist(), u.tolist(), s.tolist(), w.tolist())

b = torch.tensor([False, True, False, False], device="cuda")
b.index_put_((torch.tensor([0, 0, 1, 2], device="cuda"),), torch.tensor([True, False, False, False], device="cuda"), accumulate=True)
print("bool accumulate", b.tolist())
m = torch.zeros(3, 3, dtype=torch.bool, device="cuda")
m[1, 1] = True
m.index_put_((torch.tensor([0, 0, 1, 2], device="cuda"), torch.tensor([1, 1, 1, 0], device="cuda")), torch.tensor([False, True, False, True], device="cuda"), accumulate=True)
print("bool accumulate 2-d", m.tolist())
r = torch.index_put(m, (torch.tensor([2, 2], device="cuda"),), torch.tensor([True, False, False], device="cuda"), accumulate=True)
print("bool accumulate out of place", r.tolist(), m.tolist())

x = torch.arange(6, device="cuda", dtype=torch.float32)
for name, f in (("long mean", lambda: x.long().mean()), ("mean dtype int64", lambda: x.mean(dtype=torch.int64)),
                ("mean dim dtype int32", lambda: torch.mean(x, 0, dtype=torch.int32)), ("int mean dim", lambda: x.int().mean(0)),
                ("int mean dtype float", lambda: x.int().mean(dtype=torch.float32))):
    try:
        print(name, f())
    except RuntimeError as e:
        print(name, "RuntimeError", e)
