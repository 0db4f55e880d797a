# Question 9: what int(), float(), operator.index and .item() do with tensors
# in PyTorch 2.11 (exception types and messages), for Tensor.__int__,
# __float__ and __index__ in the simulated binding.
import torch

cases = [
    ("int(ones(2))", lambda: int(torch.ones(2, device="cuda"))),
    ("float(ones(2))", lambda: float(torch.ones(2, device="cuda"))),
    ("ones(2).item()", lambda: torch.ones(2, device="cuda").item()),
    ("range(tensor(2.0))", lambda: range(torch.tensor(2.0, device="cuda"))),
    ("[1][ones(1)]", lambda: [1][torch.ones(1, device="cuda")]),
    ("range(tensor(2))", lambda: list(range(torch.tensor(2, device="cuda")))),
    ("[7, 8][tensor(1)]", lambda: [7, 8][torch.tensor(1, device="cuda")]),
    ("int(tensor(2.7))", lambda: int(torch.tensor(2.7, device="cuda"))),
    ("float(tensor(3))", lambda: float(torch.tensor(3, device="cuda"))),
    ("int(tensor(True))", lambda: int(torch.tensor(True, device="cuda"))),
]
for name, f in cases:
    try:
        print(name, "->", repr(f()))
    except Exception as e:
        print(name, "->", type(e).__name__ + ":", e)
