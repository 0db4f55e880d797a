# Question 20: pointwise math, reductions and small products on CUDA (PyTorch 2.11): every
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


def rn2(s1, s2, dtype=torch.float32, grad=True):
    def make():
        a = torch.randn(*s1, device=dev, dtype=dtype).requires_grad_(grad)
        b = torch.randn(*s2, device=dev, dtype=dtype).requires_grad_(grad)
        return (a, b)
    return make


def rnc(*shape, dtype=torch.float32):
    """A non-leaf input (x.clone() of a leaf) for in-place ops under autograd."""
    def make():
        x = torch.randn(*shape, device=dev, dtype=dtype, requires_grad=True)
        return (x.clone(),)
    return make


def rnc2(s1, s2):
    def make():
        a = torch.randn(*s1, device=dev, requires_grad=True)
        b = torch.randn(*s2, device=dev, requires_grad=True)
        return (a.clone(), b)
    return make


S = (64, 1000)
# --- unary pointwise, f32 [64,1000], with backward
unary = {
    "log1p": torch.log1p, "expm1": torch.expm1, "erf": torch.erf, "erfc": torch.erfc, "erfinv": torch.erfinv,
    "frac": torch.frac, "sgn": torch.sgn, "sign": torch.sign, "nan_to_num": torch.nan_to_num,
    "nan_to_num(0,1,-1)": lambda x: torch.nan_to_num(x, nan=0.0, posinf=1.0, neginf=-1.0),
    "clamp_min 0.1": lambda x: torch.clamp_min(x, 0.1), "clamp_max 0.1": lambda x: x.clamp_max(0.1),
    "sin": torch.sin, "cos": torch.cos, "tan": torch.tan, "asin": torch.asin, "acos": torch.acos,
    "atan": torch.atan, "sinh": torch.sinh, "cosh": torch.cosh, "asinh": torch.asinh, "acosh": torch.acosh,
    "atanh": torch.atanh, "log2": torch.log2, "log10": torch.log10, "exp2": torch.exp2,
    "logit": torch.logit, "logit eps": lambda x: torch.logit(x, eps=1e-6), "sinc": torch.sinc,
    "deg2rad": torch.deg2rad, "lgamma": torch.lgamma, "digamma": torch.digamma,
    "positive": torch.positive, "fix": torch.fix,
}
for name, f in unary.items():
    item(f"{name} f32 {list(S)} bwd", rn(*S), f)
item("log1p f16 bwd", rn(*S, dtype=torch.float16), torch.log1p)
item("erf bf16 bwd", rn(*S, dtype=torch.bfloat16), torch.erf)
item("expm1 f64 bwd", rn(*S, dtype=torch.float64), lambda x: x.expm1())
item("log1p i64", ri(*S), torch.log1p)
item("erf i64", ri(*S), torch.erf)
item("sgn i64", ri(*S), torch.sgn)
item("frac i64", ri(*S), torch.frac)
item("clamp_min i64 3", ri(*S), lambda x: x.clamp_min(3))
item("clamp_min i64 0.5", ri(*S), lambda x: x.clamp_min(0.5))
item("nan_to_num i64", ri(*S), torch.nan_to_num)
item("nan_to_num f16 bwd", rn(*S, dtype=torch.float16), torch.nan_to_num)
item("isfinite f32", rn(*S, grad=False), torch.isfinite)
item("isfinite i64", ri(*S), torch.isfinite)
item("isfinite bool", lambda: (torch.rand(*S, device=dev) > 0.5,), lambda x: x.isfinite())
item("isneginf f32", rn(*S, grad=False), torch.isneginf)
item("isposinf f32", rn(*S, grad=False), torch.isposinf)
item("isreal f32", rn(*S, grad=False), torch.isreal)
item("signbit f32", rn(*S, grad=False), torch.signbit)
item("sgn f32 non-contig t() bwd", rn(*S), lambda x: x.t().sgn())
item("erfinv f32 [64,1000].t() bwd", rn(*S), lambda x: x.t().erfinv())

# --- clamp_min / clamp_max with tensor bounds
item("clamp_min tensor bwd", rn2(S, S), lambda x, m: torch.clamp_min(x, m))
item("clamp_max tensor bcast bwd", rn2(S, (1000,)), lambda x, m: x.clamp_max(m))
item("clamp tensor min max bwd", lambda: rn2(S, (1000,))() + (torch.randn(1000, device=dev, requires_grad=True),),
     lambda x, lo, hi: torch.clamp(x, lo, hi))

# --- in-place under autograd (x is a clone of a leaf)
inplace = {
    "log1p_": lambda x: x.log1p_(), "expm1_": lambda x: x.expm1_(), "erf_": lambda x: x.erf_(),
    "erfc_": lambda x: x.erfc_(), "erfinv_": lambda x: x.erfinv_(), "frac_": lambda x: x.frac_(),
    "sgn_": lambda x: x.sgn_(), "sign_": lambda x: x.sign_(), "nan_to_num_": lambda x: x.nan_to_num_(),
    "clamp_min_ 0": lambda x: x.clamp_min_(0), "clamp_max_ 0": lambda x: x.clamp_max_(0),
    "sin_": lambda x: x.sin_(), "cos_": lambda x: x.cos_(), "atan_": lambda x: x.atan_(),
    "log2_": lambda x: x.log2_(), "sinh_": lambda x: x.sinh_(), "logit_": lambda x: x.logit_(),
    "torch.log1p_": lambda x: torch.log1p_(x),
}
for name, f in inplace.items():
    item(f"{name} f32 bwd", rnc(*S), f)
for name, f in {"hypot_": lambda x, y: x.hypot_(y), "atan2_": lambda x, y: x.atan2_(y),
                "xlogy_": lambda x, y: x.xlogy_(y), "clamp_min_ t": lambda x, y: x.clamp_min_(y)}.items():
    item(f"{name} f32 bwd", rnc2(S, S), f)

# --- binary pointwise
binary = {"xlogy": torch.xlogy, "hypot": torch.hypot, "atan2": torch.atan2, "arctan2": torch.arctan2,
          "logaddexp": torch.logaddexp, "logaddexp2": torch.logaddexp2, "copysign": torch.copysign,
          "fmax": torch.fmax, "fmin": torch.fmin, "float_power": torch.float_power}
for name, f in binary.items():
    item(f"{name} f32 {list(S)} bwd", rn2(S, S), f)
item("xlogy scalar other bwd", rn(*S), lambda x: torch.xlogy(x, 2.0))
item("xlogy scalar self bwd", rn(*S), lambda y: torch.xlogy(2.0, y))
item("xlogy self only grad", lambda: (torch.randn(*S, device=dev, requires_grad=True), torch.randn(*S, device=dev)),
     torch.xlogy)
item("xlogy other only grad", lambda: (torch.randn(*S, device=dev), torch.randn(*S, device=dev, requires_grad=True)),
     torch.xlogy)
item("hypot bcast [64,1000]x[1000] bwd", rn2(S, (1000,)), torch.hypot)
item("atan2 bcast [64,1]x[1,1000] bwd", rn2((64, 1), (1, 1000)), torch.atan2)
item("logaddexp bcast [64,1000]x[64,1] bwd", rn2(S, (64, 1)), torch.logaddexp)
item("logaddexp f16 bwd", rn2(S, S, dtype=torch.float16), torch.logaddexp)
item("atan2 i64", lambda: (ri(*S)()[0], ri(*S)()[0]), torch.atan2)
item("hypot i64", lambda: (ri(*S)()[0], ri(*S)()[0]), torch.hypot)
item("xlogy i64", lambda: (ri(*S)()[0], ri(*S)()[0]), torch.xlogy)
item("logaddexp i64", lambda: (ri(*S)()[0], ri(*S)()[0]), torch.logaddexp)
item("hypot f32 x f16", lambda: (torch.randn(*S, device=dev), torch.randn(*S, device=dev, dtype=torch.float16)),
     torch.hypot)
item("atan2 f32 x scalar-tensor", lambda: (torch.randn(*S, device=dev), torch.tensor(2.0, device=dev)), torch.atan2)

# --- isclose / allclose
item("isclose f32", rn2(S, S, grad=False), torch.isclose)
item("isclose f32 equal_nan", rn2(S, S, grad=False), lambda a, b: torch.isclose(a, b, equal_nan=True))
item("isclose f32 tol 0", rn2(S, S, grad=False), lambda a, b: a.isclose(b, rtol=0, atol=0))
item("isclose bcast [64,1000]x[1000]", rn2(S, (1000,), grad=False), torch.isclose)
item("isclose i64", lambda: (ri(*S)()[0], ri(*S)()[0]), torch.isclose)
item("isclose bool", lambda: (torch.rand(*S, device=dev) > 0.5, torch.rand(*S, device=dev) > 0.5), torch.isclose)
item("isclose f16", rn2(S, S, dtype=torch.float16, grad=False), torch.isclose)
item("isclose err dtype", lambda: (torch.randn(*S, device=dev), torch.randn(*S, device=dev, dtype=torch.float64)),
     torch.isclose)
item("isclose err rtol", rn2(S, S, grad=False), lambda a, b: torch.isclose(a, b, rtol=-1.0))
item("allclose f32", rn2(S, S, grad=False), lambda a, b: torch.tensor(torch.allclose(a, b)))
item("allclose same", rn(*S, grad=False), lambda a: torch.tensor(a.allclose(a)))
item("allclose requires_grad", rn2(S, S), lambda a, b: torch.tensor(torch.allclose(a, b)))

# --- reductions
item("count_nonzero f32 all", rn(*S, grad=False), torch.count_nonzero)
item("count_nonzero f32 dim1", rn(*S, grad=False), lambda x: torch.count_nonzero(x, dim=1))
item("count_nonzero f32 dim0", rn(*S, grad=False), lambda x: x.count_nonzero(0))
item("count_nonzero f32 dims(0,1)", rn(*S, grad=False), lambda x: x.count_nonzero((0, 1)))
item("count_nonzero i64 dim1", ri(*S), lambda x: x.count_nonzero(dim=1))
item("count_nonzero bool all", lambda: (torch.rand(*S, device=dev) > 0.5,), torch.count_nonzero)
item("count_nonzero f32 [1000000]", rn(1000000, grad=False), torch.count_nonzero)
item("aminmax f32 all", rn(*S), torch.aminmax)
item("aminmax f32 dim1", rn(*S), lambda x: torch.aminmax(x, dim=1))
item("aminmax f32 dim0 keepdim", rn(*S), lambda x: x.aminmax(dim=0, keepdim=True))
item("aminmax i64 all", ri(*S), torch.aminmax)
item("aminmax f16 dim1", rn(*S, dtype=torch.float16), lambda x: x.aminmax(dim=1))
item("aminmax f32 [1000000]", rn(1000000, grad=False), torch.aminmax)
for nm, f in (("std_mean", torch.std_mean), ("var_mean", torch.var_mean)):
    item(f"{nm} f32 all bwd", rn(*S), f)
    item(f"{nm} f32 dim1 bwd", rn(*S), lambda x, f=f: f(x, dim=1))
    item(f"{nm} f32 dim0 keepdim bwd", rn(*S), lambda x, f=f: f(x, 0, keepdim=True))
    item(f"{nm} f32 dim1 unbiased=False bwd", rn(*S), lambda x, f=f: f(x, 1, unbiased=False))
    item(f"{nm} f32 dim1 correction=0 bwd", rn(*S), lambda x, f=f: f(x, dim=1, correction=0))
    item(f"{nm} f32 dims(0,1) bwd", rn(*S), lambda x, f=f: f(x, dim=(0, 1)))
    item(f"{nm} f16 dim1 bwd", rn(*S, dtype=torch.float16), lambda x, f=f: f(x, dim=1))
    item(f"{nm} f32 [8,64,32] dim(0,2) bwd", rn(8, 64, 32), lambda x, f=f: f(x, dim=(0, 2)))
    item(f"{nm} f32 [1000000] bwd", rn(1000000), f)
item("std_mean mean-grad only", rn(*S), lambda x: torch.std_mean(x, dim=1)[1])
item("var_mean i64", ri(*S), torch.var_mean)
item("std_mean f32 [64,1000].t() dim1 bwd", rn(*S), lambda x: torch.std_mean(x.t(), dim=1))
item("cummax f32 [64,100] dim1 bwd", rn(64, 100), lambda x: torch.cummax(x, 1))
item("cummin f32 [64,100] dim0 bwd", rn(64, 100), lambda x: x.cummin(0))
item("cummax f32 [1000] bwd", rn(1000), lambda x: x.cummax(0))
item("cummax f32 [100000] bwd", rn(100000), lambda x: x.cummax(0))
item("cummin f16 [64,100] bwd", rn(64, 100, dtype=torch.float16), lambda x: x.cummin(1))
item("cummax i64 [64,100]", ri(64, 100), lambda x: x.cummax(1))
item("cummax f32 [64,100].t() dim1 bwd", rn(64, 100), lambda x: x.t().cummax(1))
item("cummax f32 0-dim bwd", lambda: (torch.randn((), device=dev, requires_grad=True),), lambda x: x.cummax(0))
item("logcumsumexp f32 [1000] bwd", rn(1000), lambda x: torch.logcumsumexp(x, 0))
item("logcumsumexp f32 [64,100] dim0 bwd", rn(64, 100), lambda x: x.logcumsumexp(0))
item("logcumsumexp f32 [100000] bwd", rn(100000), lambda x: x.logcumsumexp(0))
item("logcumsumexp f16 [64,100] bwd", rn(64, 100, dtype=torch.float16), lambda x: x.logcumsumexp(1))
item("logcumsumexp i64", ri(64, 100), lambda x: x.logcumsumexp(1))
item("diff f32 [64,1000] bwd", rn(*S), torch.diff)
item("diff f32 dim0 bwd", rn(*S), lambda x: x.diff(dim=0))
item("diff f32 n=2 bwd", rn(*S), lambda x: torch.diff(x, n=2))
item("diff f32 prepend bwd", rn2(S, (64, 1)), lambda x, p: torch.diff(x, prepend=p))
item("diff f32 prepend append bwd", lambda: rn2(S, (64, 1))() + (torch.randn(64, 2, device=dev, requires_grad=True),),
     lambda x, p, a: torch.diff(x, dim=-1, prepend=p, append=a))
item("diff bool", lambda: (torch.rand(*S, device=dev) > 0.5,), torch.diff)
item("diff i64", ri(*S), torch.diff)
item("diff f32 [1000] n=3 bwd", rn(1000), lambda x: x.diff(3))
item("diff f32 n=0", rn(*S), lambda x: x.diff(n=0))
item("diff err 0-dim", lambda: (torch.randn((), device=dev),), torch.diff)
item("diff err n<0", rn(*S, grad=False), lambda x: x.diff(n=-1))
item("trace f32 [100,100] bwd", rn(100, 100), torch.trace)
item("trace f32 [100,200] bwd", rn(100, 200), lambda x: x.trace())
item("trace f32 [200,100].t() bwd", rn(200, 100), lambda x: x.t().trace())
item("trace i64 [100,100]", ri(100, 100), torch.trace)
item("trace i32 [100,100]", ri(100, 100, dtype=torch.int32), torch.trace)
item("trace f16 [100,100] bwd", rn(100, 100, dtype=torch.float16), torch.trace)
item("trace err 1-d", rn(100, grad=False), torch.trace)
for p in (2, 1, 0, 3, float("inf")):
    item(f"dist f32 p={p} bwd", rn2(S, S), lambda a, b, p=p: torch.dist(a, b, p))
item("dist f32 bcast [64,1000]x[1000] bwd", rn2(S, (1000,)), torch.dist)
item("dist f16 bwd", rn2(S, S, dtype=torch.float16), lambda a, b: a.dist(b))
item("dist self-only grad", lambda: (torch.randn(*S, device=dev, requires_grad=True), torch.randn(*S, device=dev)),
     torch.dist)

# --- small products
item("inner 1d [1000] bwd", rn2((1000,), (1000,)), torch.inner)
item("inner [64,100]x[32,100] bwd", rn2((64, 100), (32, 100)), torch.inner)
item("inner [8,16,100]x[100] bwd", rn2((8, 16, 100), (100,)), lambda a, b: a.inner(b))
item("inner 0-dim bwd", lambda: (torch.randn((), device=dev, requires_grad=True),
                                 torch.randn(64, 100, device=dev, requires_grad=True)), torch.inner)
item("inner err", rn2((64, 100), (32, 99), grad=False), torch.inner)
item("mv [1000,512]x[512] bwd", rn2((1000, 512), (512,)), torch.mv)
item("mv t() bwd", rn2((512, 1000), (512,)), lambda a, v: a.t().mv(v))
item("mv f16 bwd", rn2((1000, 512), (512,), dtype=torch.float16), torch.mv)
item("mv vec-only grad", lambda: (torch.randn(1000, 512, device=dev), torch.randn(512, device=dev, requires_grad=True)),
     torch.mv)
item("mv err size", rn2((1000, 512), (511,), grad=False), torch.mv)
item("mv err dim", rn2((1000, 512), (512, 1), grad=False), torch.mv)
item("addmv bwd", lambda: rn2((1000, 512), (512,))() + (torch.randn(1000, device=dev, requires_grad=True),),
     lambda m, v, b: torch.addmv(b, m, v))
item("addmv beta alpha bwd", lambda: rn2((1000, 512), (512,))() + (torch.randn(1000, device=dev, requires_grad=True),),
     lambda m, v, b: torch.addmv(b, m, v, beta=0.5, alpha=2.0))
item("addmv beta=0 bwd", lambda: rn2((1000, 512), (512,))() + (torch.randn(1000, device=dev, requires_grad=True),),
     lambda m, v, b: b.addmv(m, v, beta=0))
item("addmv bcast bias [1] bwd", lambda: rn2((1000, 512), (512,))() + (torch.randn(1, device=dev, requires_grad=True),),
     lambda m, v, b: torch.addmv(b, m, v))
item("addmv_ bwd", lambda: rn2((1000, 512), (512,))() + (torch.randn(1000, device=dev, requires_grad=True).clone(),),
     lambda m, v, b: b.addmv_(m, v))
item("addbmm bwd", lambda: rn2((8, 64, 32), (8, 32, 128))() + (torch.randn(64, 128, device=dev, requires_grad=True),),
     lambda a, b, c: torch.addbmm(c, a, b))
item("addbmm beta alpha bwd", lambda: rn2((8, 64, 32), (8, 32, 128))() + (torch.randn(64, 128, device=dev, requires_grad=True),),
     lambda a, b, c: torch.addbmm(c, a, b, beta=0.5, alpha=2.0))
item("addbmm bcast bias [128] bwd", lambda: rn2((8, 64, 32), (8, 32, 128))() + (torch.randn(128, device=dev, requires_grad=True),),
     lambda a, b, c: c.addbmm(a, b))
item("addbmm large [32,256,256]", lambda: rn2((32, 256, 256), (32, 256, 256), grad=False)() + (torch.randn(256, 256, device=dev),),
     lambda a, b, c: torch.addbmm(c, a, b))
item("addbmm_ bwd", lambda: rn2((8, 64, 32), (8, 32, 128))() + (torch.randn(64, 128, device=dev, requires_grad=True).clone(),),
     lambda a, b, c: c.addbmm_(a, b))
item("kron [64,64]x[4,4] bwd", rn2((64, 64), (4, 4)), torch.kron)
item("kron [100]x[10] bwd", rn2((100,), (10,)), torch.kron)
item("kron [8,8]x[2,3,4] bwd", rn2((8, 8), (2, 3, 4)), lambda a, b: a.kron(b))
item("kron i64", lambda: (ri(16, 16)()[0], ri(4, 4)()[0]), torch.kron)
item("cross [1000,3] dim1 bwd", rn2((1000, 3), (1000, 3)), lambda a, b: torch.cross(a, b, dim=1))
item("cross [1000,3] no dim bwd", rn2((1000, 3), (1000, 3)), torch.cross)
item("linalg.cross [1000,3] bwd", rn2((1000, 3), (1000, 3)), torch.linalg.cross)
item("linalg.cross bcast [1000,3]x[1,3] bwd", rn2((1000, 3), (1, 3)), torch.linalg.cross)
item("linalg.cross [3,1000] dim0 bwd", rn2((3, 1000), (3, 1000)), lambda a, b: torch.linalg.cross(a, b, dim=0))
item("cross method [8,3,16] dim1", rn2((8, 3, 16), (8, 3, 16)), lambda a, b: a.cross(b, dim=1))
item("linalg.cross err size", rn2((1000, 4), (1000, 4), grad=False), torch.linalg.cross)
item("cross no dim [3,1000]", rn2((3, 1000), (3, 1000), grad=False), torch.cross)
for s1, s2 in (((64, 100, 32), (64, 200, 32)), ((4, 10, 8), (4, 20, 8)), ((1000, 64), (500, 64)),
               ((20, 64), (25, 64)), ((26, 64), (10, 64)), ((2, 3000, 3), (2, 3000, 3))):
    for p in (2.0, 1.0):
        item(f"cdist {list(s1)}x{list(s2)} p={p} bwd", rn2(s1, s2), lambda a, b, p=p: torch.cdist(a, b, p=p))
item("cdist p=inf bwd", rn2((64, 100, 32), (64, 200, 32)), lambda a, b: torch.cdist(a, b, p=float("inf")))
item("cdist p=0", rn2((64, 100, 32), (64, 200, 32)), lambda a, b: torch.cdist(a, b, p=0))
item("cdist p=3 bwd", rn2((64, 100, 32), (64, 200, 32)), lambda a, b: torch.cdist(a, b, p=3))
item("cdist use_mm always small bwd", rn2((4, 10, 8), (4, 20, 8)),
     lambda a, b: torch.cdist(a, b, compute_mode="use_mm_for_euclid_dist"))
item("cdist donot_use_mm large bwd", rn2((64, 100, 32), (64, 200, 32)),
     lambda a, b: torch.cdist(a, b, compute_mode="donot_use_mm_for_euclid_dist"))
item("cdist bcast batch [1,100,32]x[8,200,32] bwd", rn2((1, 100, 32), (8, 200, 32)), torch.cdist)
item("cdist x1-only grad mm", lambda: (torch.randn(1000, 64, device=dev, requires_grad=True), torch.randn(500, 64, device=dev)),
     torch.cdist)
item("cdist f16 mm bwd", rn2((1000, 64), (500, 64), dtype=torch.float16), torch.cdist)
item("cdist f16 small", rn2((10, 64), (20, 64), dtype=torch.float16, grad=False), torch.cdist)
item("cdist err cols", rn2((10, 64), (20, 63), grad=False), torch.cdist)
item("cdist err p<0", rn2((10, 64), (20, 64), grad=False), lambda a, b: torch.cdist(a, b, p=-1.0))
item("cdist err mode", rn2((10, 64), (20, 64), grad=False), lambda a, b: torch.cdist(a, b, compute_mode="x"))

# --- C++ frames of composite/cuda paths
os.environ.setdefault("TORCH_SYMBOLIZE_MODE", "dladdr")
signal.signal(signal.SIGALRM, lambda *a: (print("cpp frames: timed out", flush=True), sys.exit(0)))
signal.alarm(150)
item("cpp cdist mm bwd", rn2((1000, 64), (500, 64)), torch.cdist, cpp=True)
item("cpp cdist p=2 small bwd", rn2((4, 10, 8), (4, 20, 8)), torch.cdist, cpp=True)
item("cpp std_mean dim1 bwd", rn(*S), lambda x: torch.std_mean(x, dim=1), cpp=True)
item("cpp addbmm bwd", lambda: rn2((8, 64, 32), (8, 32, 128))() + (torch.randn(64, 128, device=dev, requires_grad=True),),
     lambda a, b, c: torch.addbmm(c, a, b), cpp=True)
item("cpp isclose", rn2(S, S, grad=False), torch.isclose, cpp=True)
item("cpp dist bwd", rn2(S, S), torch.dist, cpp=True)
signal.alarm(0)
