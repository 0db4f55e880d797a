# SDPA backends on CUDA (sdpa brief, session 10): which backend does
# F.scaled_dot_product_attention pick for each dtype x head dim x mask x grad,
# what does every op allocate and free (forward and backward), and what is
# alive after the forward? One JSON line per configuration.
#
# Each line: cfg, grad_fn, out shape/stride/storage bytes, deltas of
# allocated/reserved/peak after forward and backward, the forward's and the
# backward's allocator events tagged with the aten op that was running
# ("-" = between ops: Python releasing a reference), and the requested sizes
# of every live block after the forward.
import json, sys, time
import torch
import torch.nn.functional as F
from torch.utils._python_dispatch import TorchDispatchMode

DEADLINE = float(sys.argv[1]) if len(sys.argv) > 1 else 240.0
T0 = time.time()
print(json.dumps({"gpu": torch.cuda.get_device_name(0), "torch": torch.__version__,
                  "cudnn": torch.backends.cudnn.version(),
                  "cap": torch.cuda.get_device_capability(0)}), flush=True)


def counters():
    s = torch.cuda.memory_stats()
    return s["allocation.all.allocated"], s["allocation.all.freed"]


class OpLog(TorchDispatchMode):
    """Records, per aten op, the allocation/free counters before and after."""

    def __init__(self):
        super().__init__()
        self.ops = []

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        a0, f0 = counters()
        out = func(*args, **(kwargs or {}))
        a1, f1 = counters()
        self.ops.append((func.__name__, a0, a1, f0, f1))
        return out


def tag_events(ops, base_a, base_f):
    """Allocator events since recording started, each tagged with its op."""
    evs = [e for e in torch.cuda.memory._snapshot()["device_traces"][0]
           if e["action"] in ("alloc", "free_completed", "segment_alloc")]
    na, nf = base_a, base_f
    res = []
    a_end, f_end = counters()
    extra = sum(1 for e in evs if e["action"] == "alloc") - (a_end - base_a)
    if extra:
        res.append(["TRACE_MISMATCH", extra])
    for e in evs:
        if e["action"] == "alloc":
            k, kind = na, "a"
            na += 1
        elif e["action"] == "free_completed":
            k, kind = nf, "f"
            nf += 1
        else:
            res.append(["SEG", e["size"]])
            continue
        name = "-"
        for (op, a0, a1, f0, f1) in ops:
            if (kind == "a" and a0 <= k < a1) or (kind == "f" and f0 <= k < f1):
                name = op
                break
        res.append([name, kind, e["size"]])
    return res


def live_blocks():
    out = []
    for seg in torch.cuda.memory._snapshot()["segments"]:
        for b in seg["blocks"]:
            if b["state"] == "active_allocated":
                out.append(b.get("requested_size", b["size"]))
    return sorted(out)


def stats():
    return (torch.cuda.memory_allocated(), torch.cuda.memory_reserved(),
            torch.cuda.max_memory_allocated())


class NoLog:
    """Stands in for OpLog when the dispatch mode itself failed."""

    def __init__(self):
        self.ops = []

    def __enter__(self):
        return self

    def __exit__(self, *a):
        return False


def make(shape, dt, rg, layout):
    """[B, H, L, E] contiguous, or the [B, L, H, E] transpose layout of MHA."""
    if layout == "blhe":
        b, h, l, e = shape
        return torch.randn(b, l, h, e, device="cuda", dtype=dt).transpose(1, 2).requires_grad_(rg)
    return torch.randn(*shape, device="cuda", dtype=dt, requires_grad=rg)


def run(dt, e, mask_kind, grad, B, H, L, S, layout="bhle", use_mode=True):
    dev = "cuda"
    rg = grad in ("grad", "rg_nograd")
    q = make((B, H, L, e), dt, rg, layout)
    k = make((B, H, S, e), dt, rg, layout)
    v = make((B, H, S, e), dt, rg, layout)
    mask, causal = None, False
    if mask_kind == "causal":
        causal = True
    elif mask_kind == "float":
        mask = torch.randn(L, S, device=dev, dtype=dt)
    elif mask_kind == "bool":
        mask = torch.rand(L, S, device=dev) > 0.2
    torch.cuda.synchronize()
    torch.cuda.reset_peak_memory_stats()
    s0 = stats()
    torch.cuda.memory._record_memory_history(max_entries=100000, context=None, stacks="python")
    ba, bf = counters()
    log = OpLog() if use_mode else NoLog()
    with log:
        if grad == "rg_nograd":
            with torch.no_grad():
                o = F.scaled_dot_product_attention(q, k, v, attn_mask=mask, is_causal=causal)
        else:
            o = F.scaled_dot_product_attention(q, k, v, attn_mask=mask, is_causal=causal)
    torch.cuda.synchronize()
    s1 = stats()
    fwd = tag_events(log.ops, ba, bf)
    live = live_blocks()
    torch.cuda.memory._record_memory_history(enabled=None)
    rec = {"cfg": [str(dt).split(".")[1], e, mask_kind, grad, B, H, L, S, layout],
           "mode": use_mode,
           "grad_fn": type(o.grad_fn).__name__ if o.grad_fn is not None else None,
           "shape": list(o.shape), "stride": list(o.stride()),
           "storage": o.untyped_storage().nbytes(), "offset": o.storage_offset(),
           "fwd_delta": [s1[0] - s0[0], s1[1] - s0[1], s1[2] - s0[0]],
           "fwd": fwd, "live_after_fwd": live,
           "inputs": [q.untyped_storage().nbytes(), k.untyped_storage().nbytes(),
                      v.untyped_storage().nbytes(), 0 if mask is None else mask.untyped_storage().nbytes()]}
    if o.grad_fn is not None:
        g = torch.randn_like(o)
        torch.cuda.synchronize()
        torch.cuda.reset_peak_memory_stats()
        s2 = stats()
        torch.cuda.memory._record_memory_history(max_entries=100000, context=None, stacks="python")
        ba, bf = counters()
        log = OpLog() if use_mode else NoLog()
        with log:
            o.backward(g)
        torch.cuda.synchronize()
        s3 = stats()
        rec["bwd"] = tag_events(log.ops, ba, bf)
        torch.cuda.memory._record_memory_history(enabled=None)
        rec["bwd_delta"] = [s3[0] - s2[0], s3[1] - s2[1], s3[2] - s2[0]]
        rec["grads"] = [[list(t.grad.shape), list(t.grad.stride())] for t in (q, k, v)]
        rec["in_strides"] = [list(t.stride()) for t in (q, k, v)]
        del g
    del q, k, v, o, mask
    torch.cuda.empty_cache()
    return rec


# warm up cuBLAS/cuDNN handles outside the measured configurations
_a = torch.randn(64, 64, device="cuda")
(_a @ _a).sum().item()
_q = torch.randn(1, 1, 128, 64, device="cuda", dtype=torch.float16, requires_grad=True)
F.scaled_dot_product_attention(_q, _q, _q).sum().backward()
del _a, _q
torch.cuda.empty_cache()

DTYPES = [torch.float16, torch.bfloat16, torch.float32]
EDIMS = [4, 6, 8, 16, 64, 80, 128]
MASKS = ["none", "causal", "float", "bool"]
GRADS = ["grad", "none", "rg_nograd"]
SEQS = [(2, 4, 256, 256), (2, 4, 100, 36)]
n = 0


def one(*cfg, layout="bhle"):
    global n
    try:
        rec = run(*cfg, layout=layout)
    except Exception as ex:  # retry without the dispatch mode, keep going
        torch.cuda.memory._record_memory_history(enabled=None)
        try:
            rec = run(*cfg, layout=layout, use_mode=False)
            rec["mode_error"] = repr(ex)[:300]
        except Exception as ex2:
            torch.cuda.memory._record_memory_history(enabled=None)
            rec = {"cfg": [str(cfg[0]).split(".")[1], *cfg[1:], layout], "error": repr(ex2)[:300]}
    print(json.dumps(rec, separators=(",", ":")), flush=True)
    n += 1


# the [B, L, H, E] transposed layout nn.MultiheadAttention-style code passes
for dt in (torch.float16, torch.float32):
    for e in (12, 64):
        for m in ("none", "float"):
            one(dt, e, m, "grad", 2, 4, 256, 256, layout="blhe")
for seq in SEQS:
    for dt in DTYPES:
        for e in EDIMS:
            for m in MASKS:
                for gr in GRADS:
                    if time.time() - T0 > DEADLINE:
                        print(json.dumps({"stopped": "deadline", "done": n}), flush=True)
                        sys.exit(0)
                    one(dt, e, m, gr, *seq)
print(json.dumps({"done": n, "seconds": round(time.time() - T0, 1)}), flush=True)
