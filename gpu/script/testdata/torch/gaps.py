# The last gaps of the GPU backend (session 11): uint8/int8/int16 tensors
# in the index kernels and in where/masked_fill/maximum/minimum/clamp.
import torch

dev = "cuda"
u = torch.tensor([0, 1, 127, 128, 200, 255], dtype=torch.uint8, device=dev)
s = torch.tensor([-128, -1, 0, 1, 100, 127], dtype=torch.int8, device=dev)
h = torch.tensor([-32768, -300, -1, 0, 300, 32767], dtype=torch.int16, device=dev)
idx = torch.tensor([5, 0, 2, 2, -1], device=dev)
m = torch.tensor([True, False, True, False, False, True], device=dev)
rev = torch.tensor([5, 4, 3, 2, 1, 0], device=dev)
for t in (u, s, h):
    r = t[rev]
    print("index", t.dtype, t[idx], t[m], t[1:4], t.index_select(0, idx[:4]))
    t2 = t.reshape(2, 3)
    print("gather", torch.gather(t2, 1, torch.tensor([[2, 0], [1, 1]], device=dev)))
    print("scatter", torch.zeros(2, 3, dtype=t.dtype, device=dev).scatter(1, torch.tensor([[2, 0], [1, 0]], device=dev), t2[:, :2]))
    c = t.clone()
    c[torch.tensor([0, 3], device=dev)] = torch.tensor([7, 9], dtype=t.dtype, device=dev)
    c[m] = 5
    print("index_put", c)
    print("cat", torch.cat([t, t[:2]]), torch.stack([t, r]), torch.cat([t2, t2], 1))
    print("where", torch.where(m, t, r), t.masked_fill(m, 3), t.masked_fill(torch.tensor([False, True, True, False, True, False], device=dev), -1 if t.dtype != torch.uint8 else 9))
    print("maxmin", torch.maximum(t, r), torch.minimum(t, r))

# randint / random_ into the narrow integer types (both generators)
for d in ("cpu", "cuda"):
    torch.manual_seed(7)
    for dt in (torch.uint8, torch.int8, torch.int16, torch.int32):
        print("randint", d, dt, torch.randint(0, 100, (9,), dtype=dt, device=d).tolist(), torch.randint(-5, 5, (3, 4), dtype=dt, device=d).tolist() if dt != torch.uint8 else torch.randint(250, 256, (5,), dtype=dt, device=d).tolist())
        print("random_", d, dt, torch.empty(7, dtype=dt, device=d).random_().tolist(), torch.empty(5, dtype=dt, device=d).random_(10).tolist(), torch.empty(5, dtype=dt, device=d).random_(3, 9).tolist())
    print("after", d, torch.rand(3, device=d).tolist(), torch.randint(0, 10, (4,), device=d).tolist())

# integer division by zero on CUDA (no error: the kernels' values)
for dt in (torch.uint8, torch.int8, torch.int16):
    a = torch.tensor([0, 5, 100, 127] if dt == torch.uint8 else [-100, -5, 0, 5, 100], dtype=dt, device=dev)
    z = torch.zeros_like(a)
    print("div0", dt, (a // z).tolist(), (a % z).tolist(), torch.div(a, z, rounding_mode="trunc").tolist(), torch.fmod(a, z).tolist(), torch.remainder(a, z).tolist())
