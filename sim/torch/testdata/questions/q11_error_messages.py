# Question 11: PyTorch 2.11's exception types and messages for bad arguments
# the simulator rejects (sim/run_hostile_test.go TestHostileMessages).
import torch

x = torch.ones(2, 3, device="cuda")
e = torch.ones(0, device="cuda")
cases = [
    ("x.float(1)", lambda: x.float(1)),
    ("x.half(1, 2)", lambda: x.half(1, 2)),
    ("x.detach(1)", lambda: x.detach(1)),
    ("x.nelement(1)", lambda: x.nelement(1)),
    ("x.data_ptr(1)", lambda: x.data_ptr(1)),
    ("x.transpose(0)", lambda: x.transpose(0)),
    ("torch.cuda.memory_allocated(7)", lambda: torch.cuda.memory_allocated(7)),
    ("torch.cuda.memory_stats(99)", lambda: torch.cuda.memory_stats(99)),
    ("torch.cuda.empty_cache(1)", lambda: torch.cuda.empty_cache(1)),
    ("torch.tensor([[1, 2], [3]])", lambda: torch.tensor([[1, 2], [3]])),
    ("x[..., ...]", lambda: x[..., ...]),
    ("e.max()", lambda: e.max()),
    ("e.argmax()", lambda: e.argmax()),
    ("x.sum(0, 1, 2, 3)", lambda: x.sum(0, 1, 2, 3)),
    ("torch.full(3, 1.0)", lambda: torch.full(3, 1.0)),
]
for name, f in cases:
    try:
        r = f()
        print(name, "-> no error:", type(r).__name__)
    except Exception as err:
        print(name, "->", type(err).__name__ + ":", str(err).replace("\n", "\\n"))
