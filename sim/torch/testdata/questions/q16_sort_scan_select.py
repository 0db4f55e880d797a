# Question 16: sorting, scans and selection on CUDA (PyTorch 2.11): every
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


# --- sort: small (in-place bitonic/warp/radix) vs cub paths, segments, strides, dtypes
for n in (100, 2048, 2049, 4096, 4097, 5000, 100000, 1000000):
    item(f"sort f32 [{n}]", rn(n, grad=False), lambda x: torch.sort(x))
item("sort f32 [5000] bwd", rn(5000), lambda x: torch.sort(x))
item("sort f32 [100] bwd", rn(100), lambda x: x.sort())
item("sort f32 [100] stable", rn(100, grad=False), lambda x: torch.sort(x, stable=True))
item("sort f32 [5000] stable desc", rn(5000, grad=False), lambda x: torch.sort(x, stable=True, descending=True))
for b, n in ((4, 5000), (127, 5000), (128, 5000), (200, 5000), (32, 100), (64, 3000), (2, 1000000)):
    item(f"sort f32 [{b},{n}]", rn(b, n, grad=False), lambda x: x.sort(dim=-1))
item("sort f32 [32,100] bwd", rn(32, 100), lambda x: x.sort(dim=1, descending=True))
item("sort f32 [4,5000] bwd", rn(4, 5000), lambda x: x.sort())
item("sort f32 [5000,4] dim0", rn(5000, 4, grad=False), lambda x: x.sort(dim=0))
item("sort f32 [100,64] dim0", rn(100, 64, grad=False), lambda x: x.sort(dim=0))
item("sort f32 [5000,4].t() dim1", rn(5000, 4, grad=False), lambda x: x.t().sort(dim=1))
item("sort f32 [8,5000,3] dim1", rn(8, 5000, 3, grad=False), lambda x: x.sort(dim=1))
item("sort f32 [64,100].t() dim0", rn(64, 100, grad=False), lambda x: x.t().sort(dim=0))
for n in (1024, 1025, 5000):
    item(f"sort i64 [{n}]", ri(n), lambda x: x.sort())
for dt in (torch.float16, torch.bfloat16, torch.float64):
    item(f"sort {str(dt)[6:]} [5000]", rn(5000, dtype=dt, grad=False), lambda x: x.sort())
item("sort i32 [5000]", ri(5000, dtype=torch.int32), lambda x: x.sort())
item("sort u8 [5000]", ri(5000, dtype=torch.uint8), lambda x: x.sort())
item("sort bool [5000]", lambda: (torch.rand(5000, device=dev) > 0.5,), lambda x: x.sort())
item("sort f32 0-dim", lambda: (torch.randn((), device=dev, requires_grad=True),), lambda x: x.sort())
item("sort f32 [0,5]", lambda: (torch.randn(0, 5, device=dev),), lambda x: x.sort())
item("sort f32 [3,4] dim=2", rn(3, 4, grad=False), lambda x: x.sort(dim=2))
item("argsort f32 [4,5000]", rn(4, 5000, grad=False), lambda x: x.argsort(dim=-1, descending=True))
item("argsort f32 [32,100]", rn(32, 100, grad=False), lambda x: torch.argsort(x))
item("argsort f32 [5000] stable", rn(5000, grad=False), lambda x: torch.argsort(x, stable=True))
item("msort f32 [100,8]", rn(100, 8), lambda x: torch.msort(x))

# --- topk: slice sizes, k, sorted, largest, dim, dtypes
for n, k in ((1000, 10), (100000, 10), (1000000, 10), (1000000, 1000), (1000000, 5000)):
    item(f"topk f32 [{n}] k={k}", rn(n, grad=False), lambda x, k=k: torch.topk(x, k))
item("topk f32 [1000000] k=10 unsorted", rn(1000000, grad=False), lambda x: torch.topk(x, 10, sorted=False))
item("topk f32 [1000000] k=1000 unsorted", rn(1000000, grad=False), lambda x: torch.topk(x, 1000, sorted=False))
for b, n, k in ((64, 1000, 5), (64, 50000, 100), (32, 32000, 50), (1, 32000, 50), (8, 128, 128),
                (128, 4096, 1024), (16, 200000, 2048)):
    item(f"topk f32 [{b},{n}] k={k}", rn(b, n, grad=False), lambda x, k=k: x.topk(k, dim=-1))
item("topk f32 [64,50000] k=100 unsorted", rn(64, 50000, grad=False), lambda x: x.topk(100, sorted=False))
item("topk f32 [64,1000] k=5 smallest", rn(64, 1000, grad=False), lambda x: x.topk(5, largest=False))
item("topk f16 [32,32000] k=50", rn(32, 32000, dtype=torch.float16, grad=False), lambda x: x.topk(50))
item("topk i64 [64,1000] k=5", ri(64, 1000), lambda x: x.topk(5))
item("topk f32 [1000,64] k=5 dim0", rn(1000, 64, grad=False), lambda x: x.topk(5, dim=0))
item("topk f32 [64,1000] k=5 bwd", rn(64, 1000), lambda x: x.topk(5))
item("topk f32 [1000000] k=1000 bwd", rn(1000000), lambda x: x.topk(1000))
item("topk f32 [100] k=0", rn(100, grad=False), lambda x: x.topk(0))
item("topk err k>n", rn(100, grad=False), lambda x: x.topk(101))
item("topk f32 0-dim k=1", lambda: (torch.randn((), device=dev),), lambda x: x.topk(1))

# --- cumsum / cumprod
for shape, d in (((1000,), 0), ((1000000,), 0), ((64, 1000), 1), ((64, 1000), 0), ((8, 1000, 16), 1)):
    item(f"cumsum f32 {list(shape)} dim={d}", rn(*shape, grad=False), lambda x, d=d: torch.cumsum(x, d))
item("cumsum f32 [64,1000].t() dim=1", rn(64, 1000, grad=False), lambda x: x.t().cumsum(1))
item("cumsum f32 [64,1000] bwd dim1", rn(64, 1000), lambda x: x.cumsum(dim=1))
item("cumsum f32 [64,1000] bwd dim0", rn(64, 1000), lambda x: x.cumsum(dim=0))
item("cumsum f32 [1000000] bwd", rn(1000000), lambda x: x.cumsum(0))
item("cumsum f32 [64,1] bwd", rn(64, 1), lambda x: x.cumsum(1))
item("cumsum i64 [1000]", ri(1000), lambda x: x.cumsum(0))
item("cumsum i32 [1000]", ri(1000, dtype=torch.int32), lambda x: x.cumsum(0))
item("cumsum bool [64,1000]", lambda: (torch.rand(64, 1000, device=dev) > 0.5,), lambda x: x.cumsum(1))
item("cumsum f16 [64,1000] bwd", rn(64, 1000, dtype=torch.float16), lambda x: x.cumsum(1))
item("cumsum f32 dtype=f64 bwd", rn(64, 1000), lambda x: x.cumsum(1, dtype=torch.float64))
item("cumsum f16 dtype=f32 bwd", rn(64, 1000, dtype=torch.float16), lambda x: torch.cumsum(x, 1, dtype=torch.float32))
item("cumsum err no dim", rn(10, grad=False), lambda x: torch.cumsum(x))
item("cumprod f32 [64,100] bwd", rn(64, 100), lambda x: x.cumprod(1))
item("cumprod f32 [64,100] bwd dim0", rn(64, 100), lambda x: torch.cumprod(x, 0))
item("cumprod f32 [1000] bwd", rn(1000), lambda x: x.cumprod(0))
item("cumprod f32 [1000000] bwd", rn(1000000), lambda x: x.cumprod(0))
item("cumprod i64 [1000]", ri(1000), lambda x: x.cumprod(0))
item("cumprod f16 dtype=f32 bwd", rn(64, 100, dtype=torch.float16), lambda x: x.cumprod(1, dtype=torch.float32))
item("cumprod zeros bwd", lambda: (torch.zeros(64, 100, device=dev, requires_grad=True),), lambda x: x.cumprod(1))
item("logcumsumexp f32 [64,100] bwd", rn(64, 100), lambda x: x.logcumsumexp(1))
item("cummax f32 [64,100] bwd", rn(64, 100), lambda x: x.cummax(1))

# --- flip / roll / repeat / repeat_interleave
for dims in ((0,), (1,), (0, 1), (-1,)):
    item(f"flip f32 [64,1000] {dims} bwd", rn(64, 1000), lambda x, dims=dims: torch.flip(x, dims))
item("flip f32 [64,1000].t() (0,)", rn(64, 1000, grad=False), lambda x: x.t().flip(0))
item("fliplr f32 [64,1000]", rn(64, 1000), lambda x: x.fliplr())
item("flipud f32 [64,1000]", rn(64, 1000), lambda x: torch.flipud(x))
item("flip err dup", rn(4, 4, grad=False), lambda x: x.flip(0, 0))
item("roll f32 [64,1000] 3 dim1 bwd", rn(64, 1000), lambda x: torch.roll(x, 3, 1))
item("roll f32 [64,1000] -3 dim0", rn(64, 1000, grad=False), lambda x: x.roll(-3, 0))
item("roll f32 [64,1000] (1,2) (0,1) bwd", rn(64, 1000), lambda x: x.roll((1, 2), (0, 1)))
item("roll f32 [64,1000] 5 flat bwd", rn(64, 1000), lambda x: x.roll(5))
item("roll f32 [64,1000].t() 3 dim0", rn(64, 1000, grad=False), lambda x: x.t().roll(3, 0))
item("roll f32 [8,16,16,32] (4,4) (1,2) bwd", rn(8, 16, 16, 32), lambda x: torch.roll(x, shifts=(-4, -4), dims=(1, 2)))
item("roll err", rn(4, 4, grad=False), lambda x: x.roll((1, 2), 0))
item("repeat f32 [64,100] (2,3) bwd", rn(64, 100), lambda x: x.repeat(2, 3))
item("repeat f32 [100] (4,2) bwd", rn(100), lambda x: x.repeat(4, 2))
item("repeat f32 [64,100] (1,1) bwd", rn(64, 100), lambda x: x.repeat(1, 1))
item("repeat f32 [1,1,64] (8,16,1) bwd", rn(1, 1, 64), lambda x: x.repeat((8, 16, 1)))
item("repeat f32 [64,100].t() (2,1)", rn(64, 100, grad=False), lambda x: x.t().repeat(2, 1))
item("repeat err", rn(4, 4, grad=False), lambda x: x.repeat(2))
item("repeat_interleave f32 [64,100] 3 dim1 bwd", rn(64, 100), lambda x: x.repeat_interleave(3, dim=1))
item("repeat_interleave f32 [64,100] 3 dim0 bwd", rn(64, 100), lambda x: torch.repeat_interleave(x, 3, dim=0))
item("repeat_interleave f32 [64,100] 2 flat bwd", rn(64, 100), lambda x: x.repeat_interleave(2))
item("repeat_interleave f32 [2,8,128,64] 4 dim1 bwd", rn(2, 8, 128, 64), lambda x: x.repeat_interleave(4, dim=1))
item("repeat_interleave t repeats", lambda: (torch.randn(4, 5, device=dev), torch.tensor([1, 2, 3, 4], device=dev)),
     lambda x, r: x.repeat_interleave(r, dim=0))
item("repeat_interleave t repeats out_size", lambda: (torch.randn(4, 5, device=dev), torch.tensor([1, 2, 3, 4], device=dev)),
     lambda x, r: x.repeat_interleave(r, dim=0, output_size=10))
item("repeat_interleave tensor only", lambda: (torch.tensor([1, 2, 3, 4], device=dev),), lambda r: torch.repeat_interleave(r))

# --- logsumexp / prod
for shape, d, k in (((64, 1000), 1, False), ((64, 1000), 1, True), ((64, 1000), 0, False), ((64, 1000), (0, 1), False),
                    ((1000000,), 0, False)):
    item(f"logsumexp f32 {list(shape)} {d} keep={k} bwd", rn(*shape), lambda x, d=d, k=k: torch.logsumexp(x, d, keepdim=k))
item("logsumexp f16 [64,1000] 1 bwd", rn(64, 1000, dtype=torch.float16), lambda x: x.logsumexp(1))
item("logsumexp i64 [64,1000] 1", ri(64, 1000), lambda x: x.logsumexp(1))
item("logsumexp err no dim", rn(64, 1000, grad=False), lambda x: x.logsumexp())
item("prod f32 [64,100] bwd", rn(64, 100), lambda x: x.prod())
item("prod f32 [64,100] dim1 bwd", rn(64, 100), lambda x: x.prod(1))
item("prod f32 [64,100] dim0 keep bwd", rn(64, 100), lambda x: torch.prod(x, 0, keepdim=True))
item("prod f32 zeros bwd", lambda: (torch.zeros(64, 100, device=dev, requires_grad=True),), lambda x: x.prod())
item("prod f32 zeros dim1 bwd", lambda: (torch.zeros(64, 100, device=dev, requires_grad=True),), lambda x: x.prod(1))
item("prod i64 [64,100]", ri(64, 100), lambda x: x.prod())
item("prod i32 [64,100] dim1", ri(64, 100, dtype=torch.int32), lambda x: x.prod(1))
item("prod f16 dtype=f32 [64,100]", rn(64, 100, dtype=torch.float16), lambda x: x.prod(dtype=torch.float32))

# --- nonzero / masked_select / unique
def mask(*shape, frac):
    def make():
        n = 1
        for s in shape:
            n *= s
        m = (torch.arange(n, device=dev) % 100) < int(frac * 100)
        return (m.view(*shape),)
    return make


for shape, frac in (((1000,), 1.0), ((1000,), 0.5), ((64, 100), 1.0), ((64, 100), 0.3), ((100000,), 1.0),
                    ((1000000,), 0.5), ((8, 64, 100), 0.5)):
    item(f"nonzero {list(shape)} frac={frac}", mask(*shape, frac=frac), lambda m: torch.nonzero(m))
item("nonzero f32 [64,100]", rn(64, 100, grad=False), lambda x: x.nonzero())
item("nonzero as_tuple [64,100] 0.5", mask(64, 100, frac=0.5), lambda m: torch.nonzero(m, as_tuple=True))
item("nonzero 0-dim", lambda: (torch.tensor(True, device=dev),), lambda m: m.nonzero())
item("argwhere [64,100] 0.5", mask(64, 100, frac=0.5), lambda m: torch.argwhere(m))


def xm(shape, mshape, frac, grad=True):
    def make():
        x = torch.randn(*shape, device=dev, requires_grad=grad)
        return (x,) + mask(*mshape, frac=frac)()
    return make


for shape, mshape, frac in (((64, 100), (64, 100), 1.0), ((64, 100), (64, 100), 0.5), ((64, 100), (100,), 0.5),
                            ((1000000,), (1000000,), 0.5), ((1, 100), (64, 100), 0.5)):
    item(f"masked_select {list(shape)} mask {list(mshape)} {frac} bwd", xm(shape, mshape, frac),
         lambda x, m: torch.masked_select(x, m))
item("masked_select method f16", lambda: (torch.randn(64, 100, device=dev, dtype=torch.float16),) + mask(64, 100, frac=0.5)(),
     lambda x, m: x.masked_select(m))
item("x[mask] [64,100] 0.5 bwd", xm((64, 100), (64, 100), 0.5), lambda x, m: x[m])
item("masked_select err dtype", lambda: (torch.randn(4, device=dev), torch.ones(4, device=dev)), lambda x, m: x.masked_select(m))
item("unique [1000]", ri(1000), lambda x: torch.unique(x))

# --- kthvalue / median / mode
item("kthvalue f32 [64,1000] k=10 bwd", rn(64, 1000), lambda x: x.kthvalue(10, dim=1))
item("kthvalue f32 [64,5000] k=10", rn(64, 5000, grad=False), lambda x: torch.kthvalue(x, 10))
item("kthvalue f32 [100000] k=5", rn(100000, grad=False), lambda x: x.kthvalue(5))
item("median f32 [64,1000] dim1 bwd", rn(64, 1000), lambda x: x.median(dim=1))
item("median f32 [64,1000] all bwd", rn(64, 1000), lambda x: x.median())
item("median f32 [100001] all", rn(100001, grad=False), lambda x: torch.median(x))
item("nanmedian f32 [64,1000] all", rn(64, 1000, grad=False), lambda x: torch.nanmedian(x))
item("mode i64 [64,1000] dim1", ri(64, 1000), lambda x: x.mode(1))
item("mode f32 [64,1000] dim1 bwd", rn(64, 1000), lambda x: x.mode(1))

# --- C++ frames of the temporaries of the cub sort, topk and scan paths
os.environ.setdefault("TORCH_SYMBOLIZE_MODE", "dladdr")
signal.signal(signal.SIGALRM, lambda *a: (print("cpp frames: timed out", flush=True), sys.exit(0)))
signal.alarm(120)
item("cpp sort f32 [4,5000] bwd", rn(4, 5000), lambda x: x.sort(), cpp=True)
item("cpp topk f32 [1000000] k=1000", rn(1000000, grad=False), lambda x: x.topk(1000), cpp=True)
item("cpp cumsum f32 [1000000]", rn(1000000, grad=False), lambda x: x.cumsum(0), cpp=True)
item("cpp logsumexp f32 [64,1000] bwd", rn(64, 1000), lambda x: x.logsumexp(1), cpp=True)
signal.alarm(0)
