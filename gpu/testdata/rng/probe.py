# Ground truth for the random generators (recorded with PyTorch 2.11 on the
# GPU machine): every random op's exact bits, and the CUDA generator's
# (seed, offset) after it (torch.cuda.get_rng_state: 8 bytes seed, 8 bytes
# offset). One JSON object per line; outputs of more than 5000 elements keep
# their first and last 256 values and checksum = sum((i+1)*bits[i]) mod 2^61-1
# (bits as unsigned 64-bit).
import json, torch

def bits(t):
    t = t.detach().contiguous()
    if t.dtype in (torch.float32,):
        return t.view(torch.int32).flatten().tolist()
    if t.dtype in (torch.float16, torch.bfloat16):
        return t.view(torch.int16).flatten().tolist()
    if t.dtype == torch.float64:
        return t.view(torch.int64).flatten().tolist()
    if t.dtype == torch.bool:
        return t.to(torch.int64).flatten().tolist()
    return t.flatten().tolist()

def cuda_state():
    s = torch.cuda.get_rng_state()
    return [int.from_bytes(bytes(s[0:8].tolist()), "little"), int.from_bytes(bytes(s[8:16].tolist()), "little")]

def rec(name, t, dev):
    b = bits(t)
    d = {"name": name, "device": dev, "dtype": str(t.dtype), "shape": list(t.shape)}
    if len(b) <= 5000:
        d["bits"] = b
    else:  # large outputs: both ends, and a checksum of every element's bits
        d["head"], d["tail"] = b[:256], b[-256:]
        d["checksum"] = sum((i + 1) * (v & 0xFFFFFFFFFFFFFFFF) for i, v in enumerate(b)) % (2**61 - 1)
    if dev == "cuda":
        d["state_after"] = cuda_state()
    print(json.dumps(d))

p = torch.cuda.get_device_properties(0)
print(json.dumps({"name": "device", "gpu": p.name, "sms": p.multi_processor_count,
                  "max_threads_per_sm": p.max_threads_per_multi_processor, "torch": torch.__version__}))

SIZES = [1, 3, 4, 5, 16, 17, 33, 1000, 4097, 70000, 300001, 2000000]
for dev in ["cuda", "cpu"]:
    for seed in [0, 42, 2**40 + 3]:
        torch.manual_seed(seed)
        for n in SIZES:
            rec(f"seed{seed} rand({n})", torch.rand(n, device=dev), dev)
        torch.manual_seed(seed)
        for n in SIZES:
            rec(f"seed{seed} randn({n})", torch.randn(n, device=dev), dev)
    torch.manual_seed(7)
    for dt in [torch.float16, torch.bfloat16, torch.float64]:
        for n in [5, 17, 1000]:
            rec(f"seed7 rand({n}, {dt})", torch.rand(n, device=dev, dtype=dt), dev)
            rec(f"seed7 randn({n}, {dt})", torch.randn(n, device=dev, dtype=dt), dev)
    torch.manual_seed(3)
    rec("seed3 rand(4,5)", torch.rand(4, 5, device=dev), dev)
    rec("seed3 randn(2,3,4)", torch.randn(2, 3, 4, device=dev), dev)
    rec("seed3 empty(10).uniform_(-2,3)", torch.empty(10, device=dev).uniform_(-2, 3), dev)
    rec("seed3 empty(20).normal_(1,0.5)", torch.empty(20, device=dev).normal_(1, 0.5), dev)
    rec("seed3 rand_like", torch.rand_like(torch.zeros(6, device=dev)), dev)
    rec("seed3 randn_like", torch.randn_like(torch.zeros(6, device=dev)), dev)
    for n in [5, 100, 5000]:
        rec(f"seed3 randint(0,10,({n},))", torch.randint(0, 10, (n,), device=dev), dev)
        rec(f"seed3 randint(-7,2**33,({n},))", torch.randint(-7, 2**33, (n,), device=dev), dev)
    for n in [1, 5, 10, 100, 1000, 5000, 40000]:
        torch.manual_seed(11)
        rec(f"seed11 randperm({n})", torch.randperm(n, device=dev), dev)
    for p_ in [0.1, 0.5]:
        for n in [5, 16, 1000, 70001]:
            torch.manual_seed(5)
            x = torch.ones(n, device=dev)
            rec(f"seed5 dropout(ones({n}), p={p_})", torch.nn.functional.dropout(x, p=p_, training=True), dev)
            torch.manual_seed(5)
            xh = torch.ones(n, device=dev, dtype=torch.float16)
            rec(f"seed5 dropout(ones({n}, f16), p={p_})", torch.nn.functional.dropout(xh, p=p_, training=True), dev)
    torch.manual_seed(5)
    x = torch.ones(3, 1000, device=dev, requires_grad=True)
    y = torch.nn.functional.dropout(x, p=0.2, training=True)
    rec("seed5 dropout(ones(3,1000) requires_grad, p=0.2)", y, dev)
    torch.manual_seed(5)
    rec("seed5 bernoulli_(0.3) 100", torch.empty(100, device=dev).bernoulli_(0.3), dev)
    rec("seed5 bernoulli(full 0.7) 100", torch.bernoulli(torch.full((100,), 0.7, device=dev)), dev)
    torch.manual_seed(9)
    lin = torch.nn.Linear(5, 3, device=dev)
    rec("seed9 Linear(5,3).weight", lin.weight, dev)
    rec("seed9 Linear(5,3).bias", lin.bias, dev)
    emb = torch.nn.Embedding(7, 4, device=dev)
    rec("seed9 Embedding(7,4).weight", emb.weight, dev)
    conv = torch.nn.Conv2d(2, 3, 3, device=dev)
    rec("seed9 Conv2d(2,3,3).weight", conv.weight, dev)
    rec("seed9 Conv2d(2,3,3).bias", conv.bias, dev)
    torch.manual_seed(9)
    rec("seed9 randn(4,4) then .normal_", torch.randn(4, 4, device=dev).normal_(), dev)
    rec("seed9 multinomial", torch.multinomial(torch.tensor([0.1, 0.2, 0.7], device=dev), 5, replacement=True), dev)

# CPU init then moved: the common script pattern.
torch.manual_seed(0)
m = torch.nn.Sequential(torch.nn.Linear(8, 16), torch.nn.ReLU(), torch.nn.Linear(16, 4)).cuda()
for i, prm in enumerate(m.parameters()):
    rec(f"seed0 Sequential(Linear(8,16),ReLU,Linear(16,4)).cuda() param{i}", prm, "cuda")
x = torch.randn(2, 8, device="cuda")
rec("seed0 after model: randn(2,8) cuda", x, "cuda")
rec("seed0 after model: model(x)", m(x), "cuda")
