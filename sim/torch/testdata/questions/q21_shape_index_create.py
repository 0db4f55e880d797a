# Question 21: shape, indexing and creation ops on CUDA (PyTorch 2.11): every
# allocation/free the caching allocator sees during each op and during its
# backward, and the grad_fn names. One line per item:
#   NAME | out=[shapes/strides/dtypes] fn=grad_fn | F: fwd events | B: bwd events
# Events: "+id:size" an allocation (requested bytes; ids in allocation order
# within the op), "-id" its free ("-?" a block allocated before the op),
# "S<size>" a new segment. The backward is out.backward(g) with g allocated
# before recording (first output only), so B shows the op's backward and
# AccumulateGrad. Items PyTorch rejects print "ERR Type: message".
# Every index made here is in range (no device-side asserts).
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




def ix(n, *shape):
    """An int64 index of shape with values in [0, n)."""
    def make():
        return torch.randint(0, n, shape, device=dev)
    return make


def names(r):
    ts = r if isinstance(r, (tuple, list)) else (r,)
    return " ".join(type(t.grad_fn).__name__ if isinstance(t, torch.Tensor) and t.grad_fn is not None else "None"
                    for t in ts)


def show(name, f):
    try:
        print(f"{name} | {f()}", flush=True)
    except Exception as e:  # noqa: BLE001
        print(f"{name} | ERR {type(e).__name__}: {e}", flush=True)


# --- squeeze / unsqueeze grad_fn names and their backward views
item("squeeze() [4,1,8,1] bwd", rn(4, 1, 8, 1), lambda x: x.squeeze())
item("squeeze(1) [4,1,8,1] bwd", rn(4, 1, 8, 1), lambda x: x.squeeze(1))
item("squeeze((1,3)) [4,1,8,1] bwd", rn(4, 1, 8, 1), lambda x: x.squeeze((1, 3)))
item("squeeze(0) no-op [4,1,8] bwd", rn(4, 1, 8), lambda x: torch.squeeze(x, 0))
item("squeeze(1) of t() bwd", rn(8, 1, 4), lambda x: x.transpose(0, 2).squeeze(1))
item("squeeze() then t() bwd", rn(64, 1, 32), lambda x: x.squeeze().t())
item("squeeze(-1) then t() bwd", rn(64, 32, 1), lambda x: x.squeeze(-1).t())
item("unsqueeze(1) [4,8] bwd", rn(4, 8), lambda x: x.unsqueeze(1))
item("squeeze_(1) clone bwd", rn(4, 1, 8), lambda x: x.clone().squeeze_(1))
item("squeeze_() clone bwd", rn(4, 1, 8), lambda x: x.clone().squeeze_())
item("unsqueeze_(0) clone bwd", rn(4, 8), lambda x: x.clone().unsqueeze_(0))
show("squeeze names", lambda: names((torch.randn(2, 1, 3, requires_grad=True, device=dev).squeeze(),
                                     torch.randn(2, 1, 3, requires_grad=True, device=dev).squeeze(1),
                                     torch.randn(2, 1, 3, requires_grad=True, device=dev).squeeze((0, 1)),
                                     torch.randn(2, 1, 3, requires_grad=True, device=dev).squeeze(dim=[1]))))

# --- tensor_split / column_stack / dstack / meshgrid / cartesian_prod / block_diag
item("tensor_split 3 dim1 bwd", rn(64, 100), lambda x: torch.tensor_split(x, 3, dim=1))
item("tensor_split [10,50] bwd", rn(100, 64), lambda x: x.tensor_split([10, 50]))
item("tensor_split tensor idx", lambda: (torch.randn(100, 64, device=dev, requires_grad=True), torch.tensor([10, 50])),
     lambda x, i: torch.tensor_split(x, i))
item("tensor_split tensor n", lambda: (torch.randn(100, 64, device=dev, requires_grad=True), torch.tensor(3)),
     lambda x, i: torch.tensor_split(x, i, dim=0))
item("tensor_split err 0", rn(10, grad=False), lambda x: torch.tensor_split(x, 0))
item("tensor_split err cuda idx", lambda: (torch.randn(10, device=dev), torch.tensor([2], device=dev)),
     lambda x, i: torch.tensor_split(x, i))
item("tensor_split err 0-dim", lambda: (torch.randn((), device=dev),), lambda x: torch.tensor_split(x, 2))
item("column_stack 1d+2d bwd", lambda: (torch.randn(64, device=dev, requires_grad=True),
                                        torch.randn(64, 3, device=dev, requires_grad=True)),
     lambda a, b: torch.column_stack((a, b)))
item("column_stack 1d x3 bwd", lambda: tuple(torch.randn(1000, device=dev, requires_grad=True) for _ in range(3)),
     lambda a, b, c: torch.column_stack([a, b, c]))
item("column_stack 0-d", lambda: (torch.randn((), device=dev), torch.randn((), device=dev)),
     lambda a, b: torch.column_stack([a, b]))
item("column_stack t() 1d", lambda: (torch.randn(3, 64, device=dev).t(), torch.randn(64, device=dev)),
     lambda a, b: torch.column_stack([a, b]))
item("dstack 2d bwd", lambda: (torch.randn(64, 32, device=dev, requires_grad=True),
                               torch.randn(64, 32, device=dev, requires_grad=True)), lambda a, b: torch.dstack([a, b]))
item("dstack 1d bwd", lambda: (torch.randn(64, device=dev, requires_grad=True),
                               torch.randn(64, device=dev, requires_grad=True)), lambda a, b: torch.dstack((a, b)))
item("dstack 3d", lambda: (torch.randn(4, 8, 2, device=dev), torch.randn(4, 8, 3, device=dev)), lambda a, b: torch.dstack((a, b)))
item("atleast_3d 2d", lambda: (torch.randn(4, 8, device=dev, requires_grad=True),), lambda a: torch.atleast_3d(a))
item("meshgrid ij bwd", lambda: (torch.randn(100, device=dev, requires_grad=True), torch.randn(64, device=dev, requires_grad=True)),
     lambda a, b: torch.meshgrid(a, b, indexing="ij"))
item("meshgrid xy bwd", lambda: (torch.randn(100, device=dev, requires_grad=True), torch.randn(64, device=dev, requires_grad=True)),
     lambda a, b: torch.meshgrid(a, b, indexing="xy"))
item("meshgrid list xy second", lambda: (torch.randn(100, device=dev, requires_grad=True), torch.randn(64, device=dev, requires_grad=True)),
     lambda a, b: torch.meshgrid([a, b], indexing="xy")[1:])
item("meshgrid 0-d", lambda: (torch.randn((), device=dev), torch.randn(3, device=dev)), lambda a, b: torch.meshgrid(a, b, indexing="ij"))
item("meshgrid err indexing", lambda: (torch.randn(3, device=dev),), lambda a: torch.meshgrid(a, indexing="zz"))
item("meshgrid err 2d", lambda: (torch.randn(3, 2, device=dev),), lambda a: torch.meshgrid(a, indexing="ij"))
item("cartesian_prod 2 bwd", lambda: (torch.randn(100, device=dev, requires_grad=True), torch.randn(64, device=dev, requires_grad=True)),
     lambda a, b: torch.cartesian_prod(a, b))
item("cartesian_prod 3", lambda: (torch.randn(10, device=dev), torch.randn(20, device=dev), torch.randn(30, device=dev)),
     lambda a, b, c: torch.cartesian_prod(a, b, c))
item("cartesian_prod 1 bwd", lambda: (torch.randn(100, device=dev, requires_grad=True),), lambda a: torch.cartesian_prod(a))
item("block_diag 2d bwd", lambda: (torch.randn(64, 32, device=dev, requires_grad=True),
                                   torch.randn(16, 48, device=dev, requires_grad=True)), lambda a, b: torch.block_diag(a, b))
item("block_diag 2d+1d+0d bwd", lambda: (torch.randn(64, 32, device=dev, requires_grad=True),
                                         torch.randn(16, device=dev, requires_grad=True),
                                         torch.randn((), device=dev, requires_grad=True)), lambda a, b, c: torch.block_diag(a, b, c))
item("block_diag f16+f32", lambda: (torch.randn(8, 8, device=dev, dtype=torch.float16), torch.randn(4, 4, device=dev)),
     lambda a, b: torch.block_diag(a, b))
item("block_diag err 3d", lambda: (torch.randn(2, 2, 2, device=dev),), lambda a: torch.block_diag(a))

# --- take_along_dim / type_as / sum_to_size / unfold / empty_strided / tri indices
item("take_along_dim dim1 bwd", lambda: (torch.randn(64, 1000, device=dev, requires_grad=True), ix(1000, 64, 5)()),
     lambda x, i: torch.take_along_dim(x, i, dim=1))
item("take_along_dim bcast bwd", lambda: (torch.randn(64, 1000, device=dev, requires_grad=True), ix(1000, 1, 5)()),
     lambda x, i: x.take_along_dim(i, 1))
item("take_along_dim flat bwd", lambda: (torch.randn(64, 1000, device=dev, requires_grad=True), ix(64000, 50)()),
     lambda x, i: torch.take_along_dim(x, i))
item("take_along_dim bcast self", lambda: (torch.randn(1, 1000, device=dev, requires_grad=True), ix(1000, 64, 5)()),
     lambda x, i: torch.take_along_dim(x, i, dim=1))
item("take_along_dim argsort bwd", lambda: (torch.randn(64, 100, device=dev, requires_grad=True),),
     lambda x: torch.take_along_dim(x, x.detach().argsort(dim=1), dim=1))
item("take_along_dim err dims", lambda: (torch.randn(4, 5, device=dev), ix(5, 4)()), lambda x, i: torch.take_along_dim(x, i, dim=1))
item("take_along_dim err dtype", lambda: (torch.randn(4, 5, device=dev), torch.zeros(4, 1, device=dev, dtype=torch.int32)),
     lambda x, i: torch.take_along_dim(x, i, dim=1))
item("type_as f16 bwd", lambda: (torch.randn(64, 100, device=dev, requires_grad=True), torch.randn(1, device=dev, dtype=torch.float16)),
     lambda x, o: x.type_as(o))
item("type_as same bwd", lambda: (torch.randn(64, 100, device=dev, requires_grad=True), torch.randn(1, device=dev)),
     lambda x, o: x.type_as(o))
item("sum_to_size bwd", rn(64, 100), lambda x: x.sum_to_size(1, 100))
item("sum_to_size (100,) bwd", rn(64, 100), lambda x: x.sum_to_size((100,)))
item("sum_to_size same bwd", rn(64, 100), lambda x: x.sum_to_size(64, 100))
item("sum_to_size err", rn(64, 100, grad=False), lambda x: x.sum_to_size(3, 100))
item("unfold(1,8,4) bwd", rn(64, 100), lambda x: x.unfold(1, 8, 4))
item("unfold(1,4,8) gap bwd", rn(64, 100), lambda x: x.unfold(1, 4, 8))
item("unfold(1,4,4) bwd", rn(64, 100), lambda x: x.unfold(1, 4, 4))
item("unfold(0,16,1) 1d bwd", rn(10000), lambda x: x.unfold(0, 16, 1))
item("unfold 2d patches bwd", rn(8, 3, 32, 32), lambda x: x.unfold(2, 8, 8).unfold(3, 8, 8))
item("unfold t() bwd", rn(100, 64), lambda x: x.t().unfold(1, 8, 4))
item("unfold 0-d", lambda: (torch.randn((), device=dev),), lambda x: x.unfold(0, 1, 1))
item("unfold err size", rn(4, 5, grad=False), lambda x: x.unfold(1, 6, 1))
item("unfold err step", rn(4, 5, grad=False), lambda x: x.unfold(1, 2, 0))
item("empty_strided", lambda: (), lambda: torch.empty_strided((64, 100), (1, 64), device=dev))
item("empty_strided overlap", lambda: (), lambda: torch.empty_strided((64, 100), (0, 1), device=dev, dtype=torch.float16))
item("empty_strided grad", lambda: (), lambda: torch.empty_strided((4, 5), (5, 1), device=dev, requires_grad=True))
item("tril_indices 100", lambda: (), lambda: torch.tril_indices(100, 100, device=dev))
item("tril_indices 64,100,-3", lambda: (), lambda: torch.tril_indices(64, 100, -3, device=dev))
item("triu_indices 100,1", lambda: (), lambda: torch.triu_indices(100, 100, 1, device=dev))
item("triu_indices int32", lambda: (), lambda: torch.triu_indices(64, 100, offset=5, device=dev, dtype=torch.int32))
item("tril_indices cpu", lambda: (), lambda: torch.tril_indices(4, 4))
item("tril_indices err", lambda: (), lambda: torch.tril_indices(-1, 4, device=dev))

# --- index_copy / index_fill
item("index_copy dim0 bwd", lambda: (torch.randn(1000, 64, device=dev, requires_grad=True), torch.randperm(1000, device=dev)[:100],
                                     torch.randn(100, 64, device=dev, requires_grad=True)), lambda x, i, s: x.index_copy(0, i, s))
item("index_copy dim1 bwd", lambda: (torch.randn(64, 1000, device=dev, requires_grad=True), torch.randperm(1000, device=dev)[:100],
                                     torch.randn(64, 100, device=dev, requires_grad=True)), lambda x, i, s: torch.index_copy(x, 1, i, s))
item("index_copy_ clone bwd", lambda: (torch.randn(1000, 64, device=dev, requires_grad=True), torch.randperm(1000, device=dev)[:100],
                                       torch.randn(100, 64, device=dev, requires_grad=True)), lambda x, i, s: x.clone().index_copy_(0, i, s))
item("index_copy_ nograd", lambda: (torch.randn(1000, 64, device=dev), torch.randperm(1000, device=dev)[:100],
                                    torch.randn(100, 64, device=dev)), lambda x, i, s: x.index_copy_(0, i, s))
item("index_copy t() self", lambda: (torch.randn(64, 1000, device=dev), torch.randperm(1000, device=dev)[:100],
                                     torch.randn(100, 64, device=dev)), lambda x, i, s: x.t().index_copy(0, i, s))
item("index_copy err size", lambda: (torch.randn(10, 4, device=dev), torch.tensor([0, 1], device=dev), torch.randn(3, 4, device=dev)),
     lambda x, i, s: x.index_copy(0, i, s))
item("index_copy err dtype", lambda: (torch.randn(10, 4, device=dev), torch.tensor([0, 1], device=dev, dtype=torch.int32),
                                      torch.randn(2, 4, device=dev)), lambda x, i, s: x.index_copy(0, i, s))
item("index_fill dim0 bwd", lambda: (torch.randn(1000, 64, device=dev, requires_grad=True), torch.randperm(1000, device=dev)[:100]),
     lambda x, i: x.index_fill(0, i, -1.0))
item("index_fill dim1 bwd", lambda: (torch.randn(64, 1000, device=dev, requires_grad=True), torch.randperm(1000, device=dev)[:100]),
     lambda x, i: torch.index_fill(x, 1, i, 0))
item("index_fill 0-d value", lambda: (torch.randn(64, 1000, device=dev), torch.randperm(1000, device=dev)[:100],
                                      torch.tensor(2.0, device=dev)), lambda x, i, v: x.index_fill(1, i, v))
item("index_fill 0-d value grad", lambda: (torch.randn(64, 1000, device=dev, requires_grad=True), torch.randperm(1000, device=dev)[:100],
                                           torch.tensor(2.0, device=dev, requires_grad=True)), lambda x, i, v: x.index_fill(1, i, v))
item("index_fill_ clone bwd", lambda: (torch.randn(1000, 64, device=dev, requires_grad=True), torch.randperm(1000, device=dev)[:100]),
     lambda x, i: x.clone().index_fill_(0, i, 1.5))
item("index_fill_ nograd t()", lambda: (torch.randn(64, 1000, device=dev), torch.randperm(64, device=dev)[:10]),
     lambda x, i: x.t().index_fill_(1, i, 0.0))
item("index_fill cpu index", lambda: (torch.randn(64, 1000, device=dev), torch.tensor([1, 2, 3])),
     lambda x, i: x.index_fill(1, i, 0.0))
item("index_fill err 2d index", lambda: (torch.randn(10, 4, device=dev), torch.zeros(2, 2, device=dev, dtype=torch.long)),
     lambda x, i: x.index_fill(0, i, 0.0))
item("index_fill err value dim", lambda: (torch.randn(10, 4, device=dev), torch.tensor([0], device=dev), torch.ones(2, device=dev)),
     lambda x, i, v: x.index_fill(0, i, v))

# --- scatter_reduce
for red in ("sum", "prod", "mean", "amax", "amin"):
    for inc in (True, False):
        item(f"scatter_reduce {red} self={inc} bwd",
             lambda: (torch.randn(64, 100, device=dev, requires_grad=True), ix(100, 64, 400)(),
                      torch.randn(64, 400, device=dev, requires_grad=True)),
             lambda x, i, s, red=red, inc=inc: x.scatter_reduce(1, i, s, red, include_self=inc))
item("scatter_reduce mean src-only grad", lambda: (torch.zeros(1000, 64, device=dev), ix(1000, 5000, 64)(),
                                                   torch.randn(5000, 64, device=dev, requires_grad=True)),
     lambda x, i, s: torch.scatter_reduce(x, 0, i, s, reduce="mean", include_self=False))
item("scatter_reduce amax nograd", lambda: (torch.zeros(1000, 64, device=dev), ix(1000, 5000, 64)(), torch.randn(5000, 64, device=dev)),
     lambda x, i, s: torch.scatter_reduce(x, 0, i, s, reduce="amax"))
item("scatter_reduce_ sum nograd", lambda: (torch.zeros(1000, 64, device=dev), ix(1000, 5000, 64)(), torch.randn(5000, 64, device=dev)),
     lambda x, i, s: x.scatter_reduce_(0, i, s, "sum"))
item("scatter_reduce_ mean nograd", lambda: (torch.zeros(1000, 64, device=dev), ix(1000, 5000, 64)(), torch.randn(5000, 64, device=dev)),
     lambda x, i, s: x.scatter_reduce_(0, i, s, "mean", include_self=False))
item("scatter_reduce_ amax clone bwd", lambda: (torch.randn(64, 100, device=dev, requires_grad=True), ix(100, 64, 400)(),
                                                 torch.randn(64, 400, device=dev, requires_grad=True)),
     lambda x, i, s: x.clone().scatter_reduce_(1, i, s, "amax"))
item("scatter_reduce i64 sum", lambda: (torch.zeros(100, device=dev, dtype=torch.long), ix(100, 1000)(), torch.ones(1000, device=dev, dtype=torch.long)),
     lambda x, i, s: x.scatter_reduce(0, i, s, "sum"))
item("scatter_reduce i64 mean", lambda: (torch.zeros(100, device=dev, dtype=torch.long), ix(100, 1000)(), torch.ones(1000, device=dev, dtype=torch.long)),
     lambda x, i, s: x.scatter_reduce(0, i, s, "mean"))
item("scatter_reduce f16 mean bwd", lambda: (torch.randn(64, 100, device=dev, dtype=torch.float16, requires_grad=True), ix(100, 64, 400)(),
                                             torch.randn(64, 400, device=dev, dtype=torch.float16, requires_grad=True)),
     lambda x, i, s: x.scatter_reduce(1, i, s, "mean"))
item("scatter_reduce small index bwd", lambda: (torch.randn(64, 100, device=dev, requires_grad=True), ix(100, 32, 50)(),
                                                torch.randn(64, 400, device=dev, requires_grad=True)),
     lambda x, i, s: x.scatter_reduce(1, i, s, "amax", include_self=False))
item("scatter_reduce err reduce", lambda: (torch.zeros(10, device=dev), ix(10, 5)(), torch.ones(5, device=dev)),
     lambda x, i, s: x.scatter_reduce(0, i, s, "max"))
item("scatter_reduce err dtype", lambda: (torch.zeros(10, device=dev), ix(10, 5)(), torch.ones(5, device=dev, dtype=torch.float64)),
     lambda x, i, s: x.scatter_reduce(0, i, s, "sum"))

# --- masked_scatter
def msk(shape, frac, src_numel=None, grad=True, mshape=None):
    def make():
        mshape_ = mshape or shape
        n = 1
        for s in mshape_:
            n *= s
        m = ((torch.arange(n, device=dev) % 100) < int(frac * 100)).view(*mshape_)
        k = src_numel if src_numel is not None else n
        return (torch.randn(*shape, device=dev, requires_grad=grad), m, torch.randn(k, device=dev, requires_grad=grad))
    return make


item("masked_scatter full src bwd", msk((64, 100), 0.5), lambda x, m, s: x.masked_scatter(m, s.view(64, 100)))
item("masked_scatter exact src bwd", msk((64, 100), 0.5, 3200), lambda x, m, s: x.masked_scatter(m, s))
item("masked_scatter frac1 bwd", msk((64, 100), 1.0, 6400), lambda x, m, s: torch.masked_scatter(x, m, s))
item("masked_scatter bcast mask bwd", msk((64, 100), 0.5, 3200, mshape=(100,)), lambda x, m, s: x.masked_scatter(m, s))
item("masked_scatter big nograd", msk((1000, 1000), 0.5, 500000, grad=False), lambda x, m, s: x.masked_scatter(m, s))
item("masked_scatter_ nograd", msk((64, 100), 0.5, 6400, grad=False), lambda x, m, s: x.masked_scatter_(m, s))
item("masked_scatter_ clone bwd", msk((64, 100), 0.5, 6400), lambda x, m, s: x.clone().masked_scatter_(m, s))
item("masked_scatter llava bwd", lambda: (torch.randn(2, 600, 256, device=dev, requires_grad=True),
                                          (torch.arange(600, device=dev) % 3 == 0).view(1, 600, 1).expand(2, 600, 256),
                                          torch.randn(400, 256, device=dev, requires_grad=True)),
     lambda x, m, s: x.masked_scatter(m, s))
item("masked_scatter err dtype", lambda: (torch.randn(4, device=dev), torch.ones(4, device=dev), torch.randn(4, device=dev)),
     lambda x, m, s: x.masked_scatter(m, s))

# --- searchsorted / bucketize
def srt(*shape):
    def make():
        return torch.sort(torch.randn(*shape, device=dev), dim=-1).values
    return make


item("searchsorted 1d [1000] [64,100]", lambda: (srt(1000)(), torch.randn(64, 100, device=dev)), lambda b, v: torch.searchsorted(b, v))
item("searchsorted nd [64,1000] [64,100] right", lambda: (srt(64, 1000)(), torch.randn(64, 100, device=dev)),
     lambda b, v: torch.searchsorted(b, v, right=True))
item("searchsorted side=right int32", lambda: (srt(1000)(), torch.randn(64, 100, device=dev)),
     lambda b, v: torch.searchsorted(b, v, side="right", out_int32=True))
item("searchsorted t() values", lambda: (srt(64, 1000)(), torch.randn(100, 64, device=dev).t()), lambda b, v: torch.searchsorted(b, v))
item("searchsorted t() boundaries", lambda: (srt(1000, 64)().t(), torch.randn(64, 100, device=dev)), lambda b, v: torch.searchsorted(b, v))
item("searchsorted scalar", lambda: (srt(1000)(),), lambda b: torch.searchsorted(b, 0.5))
item("searchsorted sorter", lambda: (torch.randn(1000, device=dev), torch.randn(64, 100, device=dev)),
     lambda b, v: torch.searchsorted(b, v, sorter=b.argsort()))
item("searchsorted f16 vs f32", lambda: (srt(1000)().half(), torch.randn(64, 100, device=dev)), lambda b, v: torch.searchsorted(b, v))
item("searchsorted grad values", lambda: (srt(1000)(), torch.randn(64, 100, device=dev, requires_grad=True)),
     lambda b, v: torch.searchsorted(b, v))
item("searchsorted err shape", lambda: (srt(4, 100)(), torch.randn(3, 10, device=dev)), lambda b, v: torch.searchsorted(b, v))
item("searchsorted err side", lambda: (srt(100)(), torch.randn(10, device=dev)),
     lambda b, v: torch.searchsorted(b, v, side="left", right=True))
item("bucketize [64,100] [1000]", lambda: (torch.randn(64, 100, device=dev), srt(1000)()), lambda v, b: torch.bucketize(v, b))
item("bucketize right int32", lambda: (torch.randn(64, 100, device=dev), srt(1000)()),
     lambda v, b: torch.bucketize(v, b, right=True, out_int32=True))
item("bucketize t() input", lambda: (torch.randn(100, 64, device=dev).t(), srt(1000)()), lambda v, b: torch.bucketize(v, b))
item("bucketize scalar", lambda: (srt(1000)(),), lambda b: torch.bucketize(0.5, b))
item("bucketize err 2d", lambda: (torch.randn(10, device=dev), srt(4, 10)()), lambda v, b: torch.bucketize(v, b))

# --- dtype helpers (no memory) and layout
show("result_type", lambda: (torch.result_type(torch.ones(2, device=dev, dtype=torch.int32), 1.0),
                             torch.result_type(torch.ones(2, device=dev, dtype=torch.float16), torch.ones((), device=dev)),
                             torch.result_type(torch.ones((), dtype=torch.float64), torch.ones(2, dtype=torch.int64)),
                             torch.result_type(2, 3.5), torch.result_type(torch.ones(2, dtype=torch.bool), True)))
show("promote_types", lambda: (torch.promote_types(torch.int32, torch.float16), torch.promote_types(torch.bfloat16, torch.float16),
                               torch.promote_types(torch.uint8, torch.int8), torch.promote_types(torch.bool, torch.int64)))
show("can_cast", lambda: (torch.can_cast(torch.float64, torch.float32), torch.can_cast(torch.float32, torch.int32),
                          torch.can_cast(torch.int64, torch.bool), torch.can_cast(torch.bool, torch.float16),
                          torch.can_cast(torch.int32, torch.uint8)))
show("layout", lambda: (torch.ones(2, device=dev).layout, torch.strided, str(torch.strided), type(torch.strided).__name__))
show("result_type err", lambda: torch.result_type(1, 2, 3))
