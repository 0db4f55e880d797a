# Probe (not a value script): what PyTorch 2.11 does on CUDA with integer
# division by zero and integer matmul.
import torch
z = torch.tensor([5, -5, 0, 2**62, -(2**62)], device="cuda")
zero = torch.zeros(5, device="cuda", dtype=torch.int64)
for name, f in [("floordiv", lambda p, q: p // q), ("trunc", lambda p, q: torch.div(p, q, rounding_mode="trunc")),
                ("remainder", lambda p, q: p % q), ("fmod", lambda p, q: torch.fmod(p, q))]:
    for dt in [torch.int64, torch.int32, torch.int16, torch.int8, torch.uint8]:
        p = z.to(dt) if dt == torch.int64 else torch.tensor([5, -5, 0, 100, -100], device="cuda").to(dt)
        try:
            print(name, dt, "tensor0", f(p, zero.to(dt)).tolist())
        except Exception as e:
            print(name, dt, "tensor0", type(e).__name__, e)
        try:
            print(name, dt, "scalar0", f(p, 0).tolist())
        except Exception as e:
            print(name, dt, "scalar0", type(e).__name__, e)
m = torch.tensor([[1, 2], [3, 4]], device="cuda")
for name, f in [("matmul", lambda: m @ m), ("mm", lambda: torch.mm(m, m)), ("bmm", lambda: torch.bmm(m[None], m[None])),
                ("matmul3", lambda: m[None] @ m), ("dot", lambda: m[0] @ m[1]), ("mv", lambda: m @ m[0]),
                ("vm", lambda: m[0] @ m), ("addmm", lambda: torch.addmm(m, m, m)), ("linear", lambda: torch.nn.functional.linear(m, m)),
                ("int32mm", lambda: m.int() @ m.int()), ("int32dot", lambda: m[0].int() @ m[1].int()),
                ("mixed", lambda: m @ m.float()), ("f64f32", lambda: m.double() @ m.float()),
                ("einsum", lambda: torch.einsum("ij,jk->ik", m, m)), ("softmax_int", lambda: torch.softmax(m, 0)),
                ("softmax_int_dtype", lambda: torch.softmax(m, 0, dtype=torch.float64)),
                ("cpu", lambda: m.cpu() @ m.cpu()), ("int8", lambda: m.to(torch.int8) @ m.to(torch.int8))]:
    try:
        r = f()
        print(name, r.dtype, r.tolist())
    except Exception as e:
        print(name, type(e).__name__, e)
big = torch.tensor([2**62 + 1, -(2**63), 2**53 + 1], device="cuda")
print(big, big.tolist(), big[0].item(), big + 1, big == 2**62 + 1, torch.full((2,), 2**60 + 3, device="cuda"))
print(torch.iinfo(torch.int64).max, torch.tensor([2**63 - 1], device="cuda") + 0)
