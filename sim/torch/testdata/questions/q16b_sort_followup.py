# Question 16b (follow-up of q16): sorting, scans and selection on CUDA (PyTorch 2.11): every
# allocation/free the caching allocator sees during each op and during its
# backward. One line per item:
#   NAME | out=[shapes/strides/dtypes] fn=grad_fn | F: fwd events | B: bwd events
# Events: "+id:size" an allocation (requested bytes; ids in allocation order
# within the op), "-id" its free ("-?" a block allocated before the op),
# "S<size>" a new segment. The backward is out.backward(g) with g allocated
# before recording (first output only), so B shows the op's backward and
# AccumulateGrad. Items PyTorch rejects print "ERR Type: message".
import json
import os
import signal
import sys

import torch

torch.cuda.init()
print(json.dumps({"gpu": torch.cuda.get_device_name(), "torch": torch.__version__,
                  "cuda": torch.version.cuda, "cap": list(torch.cuda.get_device_capability())}))
dev = "cuda"


def record(on, stacks="python"):
    if not on:
        torch.cuda.memory._record_memory_history(enabled=None)
        return
    torch.cuda.memory._record_memory_history(enabled="all", context="alloc", stacks=stacks,
                                             max_entries=200000)


def events(trace, start, ids, cpp=False):
    out = []
    for e in trace[start:]:
        a = e.get("action")
        if a == "alloc":
            ids["k"] += 1
            ids[e["addr"]] = ids["k"]
            tag = ""
            if cpp:
                names = [f.get("name", "") for f in e.get("frames", [])]
                keep = [n for n in names if ("at::native" in n or "cub" in n or "at::cuda" in n
                                             or "torch::autograd" in n)
                        and "CachingAllocator" not in n][:3]
                tag = "{" + " | ".join(n[:80] for n in keep) + "}"
            out.append(f"+{ids['k']}:{e['size']}{tag}")
        elif a == "free_requested":
            out.append(f"-{ids.get(e['addr'], '?')}")
        elif a == "segment_alloc":
            out.append(f"S{e['size']}")
    return out


def desc(r):
    ts = r if isinstance(r, (tuple, list)) else (r,)
    parts = []
    for t in ts:
        if isinstance(t, torch.Tensor):
            parts.append(f"{list(t.shape)}{list(t.stride())}{str(t.dtype)[6:]}")
        else:
            parts.append(type(t).__name__)
    fn = None
    for t in ts:
        if isinstance(t, torch.Tensor) and t.grad_fn is not None:
            fn = type(t.grad_fn).__name__
            break
    return f"{type(r).__name__} out=[{' '.join(parts)}] fn={fn}"


def item(name, make, op, back=True, cpp=False):
    """make() -> inputs tuple; op(*inputs) -> result."""
    try:
        torch.cuda.synchronize()
        torch.cuda.empty_cache()
        inp = make()
        torch.cuda.synchronize()
        ids = {"k": 0}
        record(True, "all" if cpp else "python")
        start = len(torch.cuda.memory._snapshot()["device_traces"][0])
        try:
            r = op(*inp)
        except Exception as e:  # noqa: BLE001
            record(False)
            print(f"{name} | ERR {type(e).__name__}: {e}", flush=True)
            return
        torch.cuda.synchronize()
        snap = torch.cuda.memory._snapshot()
        record(False)
        fwd = events(snap["device_traces"][0], start, ids, cpp)
        line = f"{name} | {desc(r)} | F: {' '.join(fwd)}"
        first = r[0] if isinstance(r, (tuple, list)) else r
        if back and isinstance(first, torch.Tensor) and first.requires_grad:
            g = torch.ones_like(first)
            torch.cuda.synchronize()
            ids = {"k": 0}
            record(True, "all" if cpp else "python")
            start = len(torch.cuda.memory._snapshot()["device_traces"][0])
            first.backward(g)
            torch.cuda.synchronize()
            snap = torch.cuda.memory._snapshot()
            record(False)
            line += f" | B: {' '.join(events(snap['device_traces'][0], start, ids, cpp))}"
            del g
        print(line, flush=True)
        del r, first, inp
    except Exception as e:  # noqa: BLE001
        record(False)
        print(f"{name} | FAIL {type(e).__name__}: {e}", flush=True)


def rn(*shape, dtype=torch.float32, grad=True):
    def make():
        return (torch.randn(*shape, device=dev, dtype=dtype).requires_grad_(grad and dtype.is_floating_point),)
    return make


def ri(*shape, dtype=torch.int64):
    def make():
        return (torch.randint(0, 1000, shape, device=dev, dtype=dtype),)
    return make



# 1-byte keys: the onesweep tile (bool/uint8 keys with int64 values)
for n in (4097, 4608, 4609, 6000, 9216, 9217, 20000):
    item(f"sort u8 [{n}]", lambda n=n: (torch.randint(0, 255, (n,), device=dev, dtype=torch.uint8),), lambda x: x.sort())
item("sort bool [20000]", lambda: (torch.rand(20000, device=dev) > 0.5,), lambda x: x.sort())
for n in (5376, 5377, 10752, 10753, 100000):
    item(f"sort f16 [{n}]", rn(n, dtype=torch.float16, grad=False), lambda x: x.sort())
item("sort f32 [5000] stable bwd", rn(5000), lambda x: torch.sort(x, stable=True))
item("sort f32 [4,5000] stable=False bwd", rn(4, 5000), lambda x: x.sort(stable=False))
# nonzero's cub reduce temp: where 1 byte becomes 21503
for n in (1024, 1025, 2048, 4096, 4097, 4608, 5000, 6000, 10000000):
    item(f"nonzero bool [{n}]", lambda n=n: (torch.ones(n, dtype=torch.bool, device=dev),), lambda m: m.nonzero())
# 1-d scans of other dtypes
for dt in (torch.float16, torch.bfloat16, torch.float64, torch.int32):
    item(f"cumsum {str(dt)[6:]} [1000000]", lambda dt=dt: (torch.ones(1000000, device=dev, dtype=dt),), lambda x: x.cumsum(0, dtype=x.dtype))
item("cumsum f32 [100000]", rn(100000, grad=False), lambda x: x.cumsum(0))
# topk: non-contiguous input, many blocks (scan-by-key temp), k > 4096 on several slices
item("topk f32 [50000,4].t() k=10", rn(50000, 4, grad=False), lambda x: x.t().topk(10))
item("topk f32 [4000,1000] k=5", rn(4000, 1000, grad=False), lambda x: x.topk(5))
item("topk f32 [2,10000000] k=5", rn(2, 10000000, grad=False), lambda x: x.topk(5))
item("topk f32 [3,100000] k=5000", rn(3, 100000, grad=False), lambda x: x.topk(5000))
# masked_select backward with an expanded gradient (sum): where the source copy goes
def msel(x, m):
    r = torch.masked_select(x, m)
    return r.sum()
item("masked_select [64,100] sum bwd", lambda: (torch.randn(64, 100, device=dev, requires_grad=True), torch.ones(64, 100, dtype=torch.bool, device=dev)), msel)
