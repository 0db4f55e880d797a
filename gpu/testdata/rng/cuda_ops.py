# CUDA random ops printed as numbers (tolist of float32 values is exact):
# run with PyTorch and with `playground run --backend gpu`, then compare
# (gpu/testdata/rng/h200-philox.txt holds the H200 result).
import torch

def show(name, t):
    print(name, t.tolist())

for seed in [0, 42]:
    torch.manual_seed(seed)
    show("rand(5)", torch.rand(5, device="cuda"))
    show("randn(7)", torch.randn(7, device="cuda"))
    x = torch.rand(300001, device="cuda")
    show("rand(300001) head", x[:6])
    show("rand(300001) cross", x[270332:270340])
    show("rand(300001) tail", x[-6:])
    y = torch.randn(300001, device="cuda")
    show("randn(300001) head", y[:6])
    show("randn(300001) cross", y[270332:270340])
    show("randn(300001) tail", y[-6:])
    show("rand f16", torch.rand(9, device="cuda", dtype=torch.float16))
    show("randn bf16", torch.randn(9, device="cuda", dtype=torch.bfloat16))
    show("rand f64", torch.rand(5, device="cuda", dtype=torch.float64))
    show("randn f64", torch.randn(5, device="cuda", dtype=torch.float64))
    show("uniform_", torch.empty(6, device="cuda").uniform_(-2, 3))
    show("normal_", torch.empty(6, device="cuda").normal_(1, 0.5))
    show("randint", torch.randint(0, 10, (12,), device="cuda"))
    show("randint wide", torch.randint(-7, 2**33, (6,), device="cuda"))
    show("randperm", torch.randperm(20, device="cuda"))
    z = torch.nn.functional.dropout(torch.ones(4, 6, device="cuda"), p=0.3, training=True)
    show("dropout", z)
    show("rand after", torch.rand(4, device="cuda"))
