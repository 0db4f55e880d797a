# Question 17 (H2, session 13): the allocations of group_norm, instance_norm,
# rms_norm, the activations elu/softplus/mish/hardswish/hardtanh/relu6/
# logsigmoid/glu (out of place and in place) and feature dropout
# (dropout1d/2d/3d) in PyTorch 2.11 on CUDA, forward and backward.
# Per item: grad_fn name (and its next functions), the output's shape,
# strides and dtype, the grad_fn's _saved_* attribute names, then the caching
# allocator's trace during the forward ("F:") and the backward ("B:"):
# "+id:size" an allocation, "-id" its free, "S<size>" a new segment, ids in
# allocation order, plus the peak over the allocated bytes before the step.
# Errors: type and message of what PyTorch raises for bad arguments.
import json
import os
import signal
import sys
import warnings

import torch
import torch.nn as nn
import torch.nn.functional as F

warnings.simplefilter("ignore")
torch.cuda.init()
print(json.dumps({"gpu": torch.cuda.get_device_name(), "torch": torch.__version__,
                  "cuda": torch.version.cuda, "cap": list(torch.cuda.get_device_capability())}))
dev = "cuda"


def record(on, stacks="python"):
    if not on:
        torch.cuda.memory._record_memory_history(enabled=None)
        return
    try:
        torch.cuda.memory._record_memory_history(enabled="all", context="alloc", stacks=stacks,
                                                 max_entries=200000, clear_history=True)
    except TypeError:
        torch.cuda.memory._record_memory_history(enabled="all", context="alloc", stacks=stacks,
                                                 max_entries=200000)


def events(trace, start, cpp=False):
    ids, out, k = {}, [], 0
    for e in trace[start:]:
        a = e.get("action")
        if a == "alloc":
            k += 1
            ids[e["addr"]] = k
            tag = ""
            if cpp:
                names = [f.get("name", "") for f in e.get("frames", [])]
                keep = [n for n in names if ("at::native" in n or "at::cuda" in n or "autograd" in n)
                        and "CachingAllocator" not in n][:3]
                tag = "{" + " | ".join(n[:80] for n in keep) + "}"
            out.append(f"+{k}:{e['size']}{tag}")
        elif a == "free_requested":
            out.append(f"-{ids.get(e['addr'], '?')}")
        elif a == "segment_alloc":
            out.append(f"S{e['size']}")
    return out


def traced(fn, cpp=False):
    torch.cuda.synchronize()
    base = torch.cuda.memory_allocated()
    torch.cuda.reset_peak_memory_stats()
    record(True, "all" if cpp else "python")
    start = len(torch.cuda.memory._snapshot()["device_traces"][0])
    r = fn()
    torch.cuda.synchronize()
    peak = torch.cuda.max_memory_allocated() - base
    snap = torch.cuda.memory._snapshot()
    record(False)
    return r, peak, events(snap["device_traces"][0], start, cpp)


def gf_desc(y):
    g = y.grad_fn
    if g is None:
        return "None"
    nxt = [type(n).__name__ if n is not None else "None" for n, _ in g.next_functions]
    saved = [a for a in dir(g) if a.startswith("_saved_")]
    return f"{type(g).__name__}<-{nxt} saved={saved}"


def item(name, make, fwd, backward=True, cpp=False):
    """make() -> tuple of inputs (built outside the trace); fwd(*inputs) -> output."""
    try:
        torch.cuda.empty_cache()
        ins = make()
        y, pf, ef = traced(lambda: fwd(*ins), cpp)
        out = y[0] if isinstance(y, tuple) else y
        print(f"{name}: {gf_desc(out)} shape={tuple(out.shape)} stride={out.stride()} dtype={out.dtype} "
              f"F peak={pf}: {' '.join(ef)}", flush=True)
        if backward and out.requires_grad:
            g = torch.ones_like(out)
            _, pb, eb = traced(lambda: out.backward(g), cpp)
            print(f"  B peak={pb}: {' '.join(eb)}", flush=True)
        del ins, y, out
    except Exception as e:  # noqa: BLE001
        print(f"{name}: raised {type(e).__name__}: {e}", flush=True)


def err(name, fn):
    try:
        fn()
        print(f"{name}: no error", flush=True)
    except Exception as e:  # noqa: BLE001
        print(f"{name}: {type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}", flush=True)


def leaf(*shape, dtype=torch.float32, rg=True):
    return torch.randn(*shape, device=dev, dtype=dtype).requires_grad_(rg)


def p(n, dtype=torch.float32, rg=True, fill=1.0):
    return torch.full((n,), fill, device=dev, dtype=dtype).requires_grad_(rg)


# ---- group norm ----
item("gn f32 8x32x16x16 G8 affine", lambda: (leaf(8, 32, 16, 16), p(32), p(32)),
     lambda x, w, b: F.group_norm(x, 8, w, b))
item("gn f32 8x32x16x16 G8 none", lambda: (leaf(8, 32, 16, 16),), lambda x: F.group_norm(x, 8))
item("gn f32 8x32x16x16 G8 weight only", lambda: (leaf(8, 32, 16, 16), p(32)),
     lambda x, w: F.group_norm(x, 8, w))
item("gn f32 x no grad, w/b grad", lambda: (leaf(8, 32, 16, 16, rg=False), p(32), p(32)),
     lambda x, w, b: F.group_norm(x, 8, w, b))
item("gn f32 x grad, w/b no grad", lambda: (leaf(8, 32, 16, 16), p(32, rg=False), p(32, rg=False)),
     lambda x, w, b: F.group_norm(x, 8, w, b))
item("gn f16 8x32x16x16 G8 f16 affine", lambda: (leaf(8, 32, 16, 16, dtype=torch.float16),
                                                 p(32, torch.float16), p(32, torch.float16)),
     lambda x, w, b: F.group_norm(x, 8, w, b))
item("gn bf16 x f32 affine", lambda: (leaf(8, 32, 16, 16, dtype=torch.bfloat16), p(32), p(32)),
     lambda x, w, b: F.group_norm(x, 8, w, b))
item("gn f32 2-d 64x32 G4 affine (HxW=1)", lambda: (leaf(64, 32), p(32), p(32)),
     lambda x, w, b: F.group_norm(x, 4, w, b))
item("gn f32 3-d 16x64x100 G32 affine", lambda: (leaf(16, 64, 100), p(64), p(64)),
     lambda x, w, b: F.group_norm(x, 32, w, b))
item("gn f32 4x64x64x64 G32 affine (big HxW)", lambda: (leaf(4, 64, 64, 64), p(64), p(64)),
     lambda x, w, b: F.group_norm(x, 32, w, b))
item("gn f32 channels_last 8x32x16x16", lambda: (leaf(8, 32, 16, 16).detach().to(memory_format=torch.channels_last).requires_grad_(), p(32), p(32)),
     lambda x, w, b: F.group_norm(x, 8, w, b))
item("gn f32 5-d 2x16x8x8x8 G4", lambda: (leaf(2, 16, 8, 8, 8), p(16), p(16)),
     lambda x, w, b: F.group_norm(x, 4, w, b))
item("gn no_grad 8x32x16x16", lambda: (leaf(8, 32, 16, 16, rg=False), p(32, rg=False), p(32, rg=False)),
     lambda x, w, b: F.group_norm(x, 8, w, b), backward=False)
item("nn.GroupNorm(4, 32) on 8x32x16x16", lambda: (leaf(8, 32, 16, 16), nn.GroupNorm(4, 32).cuda()),
     lambda x, m: m(x))

# ---- instance norm ----
item("in f32 8x16x32x32 no stats no affine", lambda: (leaf(8, 16, 32, 32),), lambda x: F.instance_norm(x))
item("in nn.InstanceNorm2d(16, affine) train", lambda: (leaf(8, 16, 32, 32), nn.InstanceNorm2d(16, affine=True).cuda()),
     lambda x, m: m(x))
item("in nn.InstanceNorm2d(16, track) train", lambda: (leaf(8, 16, 32, 32), nn.InstanceNorm2d(16, track_running_stats=True).cuda()),
     lambda x, m: m(x))
item("in nn.InstanceNorm2d(16, affine, track) train",
     lambda: (leaf(8, 16, 32, 32), nn.InstanceNorm2d(16, affine=True, track_running_stats=True).cuda()),
     lambda x, m: m(x))
item("in nn.InstanceNorm2d(16, affine, track) eval",
     lambda: (leaf(8, 16, 32, 32), nn.InstanceNorm2d(16, affine=True, track_running_stats=True).cuda().eval()),
     lambda x, m: m(x))
item("in nn.InstanceNorm1d(16, affine) 8x16x100", lambda: (leaf(8, 16, 100), nn.InstanceNorm1d(16, affine=True).cuda()),
     lambda x, m: m(x))
item("in nn.InstanceNorm1d(16) unbatched 16x100", lambda: (leaf(16, 100), nn.InstanceNorm1d(16).cuda()),
     lambda x, m: m(x))
item("in nn.InstanceNorm3d(8, affine) 2x8x8x8x8", lambda: (leaf(2, 8, 8, 8, 8), nn.InstanceNorm3d(8, affine=True).cuda()),
     lambda x, m: m(x))
item("in f16 InstanceNorm2d(16, affine) half", lambda: (leaf(8, 16, 32, 32, dtype=torch.float16), nn.InstanceNorm2d(16, affine=True).cuda().half()),
     lambda x, m: m(x))
item("in f16 input, f32 affine", lambda: (leaf(8, 16, 32, 32, dtype=torch.float16), nn.InstanceNorm2d(16, affine=True).cuda()),
     lambda x, m: m(x))
item("in channels_last 8x16x32x32 affine", lambda: (leaf(8, 16, 32, 32).detach().to(memory_format=torch.channels_last).requires_grad_(), nn.InstanceNorm2d(16, affine=True).cuda()),
     lambda x, m: m(x))

# ---- rms norm ----
item("rms f32 8x128x512 w", lambda: (leaf(8, 128, 512), p(512)), lambda x, w: F.rms_norm(x, (512,), w), cpp=False)
item("rms f32 8x128x512 no w", lambda: (leaf(8, 128, 512),), lambda x: F.rms_norm(x, (512,)))
item("rms f32 x no grad, w grad", lambda: (leaf(8, 128, 512, rg=False), p(512)), lambda x, w: F.rms_norm(x, (512,), w))
item("rms f32 x grad, w no grad", lambda: (leaf(8, 128, 512), p(512, rg=False)), lambda x, w: F.rms_norm(x, (512,), w))
item("rms f16 8x128x512 w f16", lambda: (leaf(8, 128, 512, dtype=torch.float16), p(512, torch.float16)),
     lambda x, w: F.rms_norm(x, (512,), w))
item("rms bf16 8x128x512 w bf16", lambda: (leaf(8, 128, 512, dtype=torch.bfloat16), p(512, torch.bfloat16)),
     lambda x, w: F.rms_norm(x, (512,), w))
item("rms f16 x, f32 w (mismatch)", lambda: (leaf(8, 128, 512, dtype=torch.float16), p(512)),
     lambda x, w: F.rms_norm(x, (512,), w))
item("rms f32 norm (128,512)", lambda: (leaf(8, 128, 512), torch.ones(128, 512, device=dev, requires_grad=True)),
     lambda x, w: F.rms_norm(x, (128, 512), w))
item("rms f32 eps=1e-6 nn.RMSNorm(512)", lambda: (leaf(8, 128, 512), nn.RMSNorm(512, eps=1e-6).cuda()), lambda x, m: m(x))
item("rms f32 nn.RMSNorm(512, affine=False)", lambda: (leaf(8, 128, 512), nn.RMSNorm(512, elementwise_affine=False).cuda()), lambda x, m: m(x))
item("rms f32 transposed input", lambda: (leaf(128, 8, 512).detach().transpose(0, 1).requires_grad_(), p(512)),
     lambda x, w: F.rms_norm(x, (512,), w))
item("rms no_grad f32", lambda: (leaf(8, 128, 512, rg=False), p(512, rg=False)),
     lambda x, w: F.rms_norm(x, (512,), w), backward=False)
item("rms channels_last 8x32x16x16 norm (16,)", lambda: (leaf(8, 32, 16, 16).detach().to(memory_format=torch.channels_last).requires_grad_(), p(16)),
     lambda x, w: F.rms_norm(x, (16,), w))

# ---- activations (x: 64x1000 f32 = 256000 B) ----
A = (64, 1000)
for nm, f in [("elu", lambda x: F.elu(x)), ("elu alpha=0.5", lambda x: F.elu(x, 0.5)),
              ("softplus", lambda x: F.softplus(x)), ("softplus beta=2", lambda x: F.softplus(x, beta=2, threshold=10)),
              ("mish", lambda x: F.mish(x)), ("hardswish", lambda x: F.hardswish(x)),
              ("hardtanh", lambda x: F.hardtanh(x)), ("hardtanh -2,2", lambda x: F.hardtanh(x, -2.0, 2.0)),
              ("relu6", lambda x: F.relu6(x)), ("logsigmoid", lambda x: F.logsigmoid(x)),
              ("glu dim-1", lambda x: F.glu(x)), ("glu dim0", lambda x: F.glu(x, 0)),
              ("selu", lambda x: F.selu(x)), ("celu", lambda x: F.celu(x)),
              ("hardsigmoid", lambda x: F.hardsigmoid(x)), ("softsign", lambda x: F.softsign(x)),
              ("tanhshrink", lambda x: F.tanhshrink(x)), ("softshrink", lambda x: F.softshrink(x)),
              ("hardshrink", lambda x: F.hardshrink(x)), ("threshold", lambda x: F.threshold(x, 0.1, 20.0)),
              ("log_sigmoid direct", lambda x: torch._C._nn.log_sigmoid_forward(x))]:
    item(f"act {nm}", lambda: (leaf(*A),), f)
item("act glu f16", lambda: (leaf(*A, dtype=torch.float16),), lambda x: F.glu(x))
item("act mish f16", lambda: (leaf(*A, dtype=torch.float16),), lambda x: F.mish(x))
item("act glu transposed", lambda: (leaf(1000, 64).detach().t().requires_grad_(),), lambda x: F.glu(x, 0))
# in place on a clone (CloneBackward0 passes the gradient through)
for nm, f in [("elu_", lambda y: F.elu(y, inplace=True)), ("elu_ alpha2", lambda y: F.elu_(y, 2.0)),
              ("mish_", lambda y: F.mish(y, inplace=True)), ("hardswish_", lambda y: F.hardswish(y, inplace=True)),
              ("hardtanh_", lambda y: F.hardtanh(y, inplace=True)), ("hardtanh_ fn", lambda y: F.hardtanh_(y)),
              ("relu6_", lambda y: F.relu6(y, inplace=True)), ("selu_", lambda y: F.selu(y, inplace=True)),
              ("celu_", lambda y: F.celu(y, inplace=True)), ("hardsigmoid_", lambda y: F.hardsigmoid(y, inplace=True)),
              ("threshold_", lambda y: F.threshold(y, 0.1, 20.0, inplace=True)),
              ("softplus_ via module?", lambda y: nn.Softplus()(y))]:
    item(f"act {nm}", lambda: (leaf(*A).clone(),), f)
item("act hardswish_ no grad", lambda: (leaf(*A, rg=False),), lambda y: F.hardswish(y, inplace=True), backward=False)
item("act mish_ no grad", lambda: (leaf(*A, rg=False),), lambda y: F.mish(y, inplace=True), backward=False)
item("act logsigmoid no grad", lambda: (leaf(*A, rg=False),), lambda y: F.logsigmoid(y), backward=False)

# ---- feature dropout ----
item("fd dropout2d 16x32x8x8 p0.5", lambda: (leaf(16, 32, 8, 8),), lambda x: F.dropout2d(x, 0.5))
item("fd dropout2d inplace", lambda: (leaf(16, 32, 8, 8).clone(),), lambda x: F.dropout2d(x, 0.5, inplace=True))
item("fd dropout2d p=1", lambda: (leaf(16, 32, 8, 8),), lambda x: F.dropout2d(x, 1.0))
item("fd dropout2d p=1 inplace", lambda: (leaf(16, 32, 8, 8).clone(),), lambda x: F.dropout2d(x, 1.0, inplace=True))
item("fd dropout2d p=0", lambda: (leaf(16, 32, 8, 8),), lambda x: F.dropout2d(x, 0.0))
item("fd dropout2d training=False", lambda: (leaf(16, 32, 8, 8),), lambda x: F.dropout2d(x, 0.5, training=False))
item("fd dropout2d unbatched 32x8x8", lambda: (leaf(32, 8, 8),), lambda x: F.dropout2d(x, 0.5))
item("fd dropout2d unbatched inplace", lambda: (leaf(32, 8, 8).clone(),), lambda x: F.dropout2d(x, 0.5, inplace=True))
item("fd dropout2d 5-d input", lambda: (leaf(2, 4, 3, 8, 8),), lambda x: F.dropout2d(x, 0.5))
item("fd dropout1d 16x32x100", lambda: (leaf(16, 32, 100),), lambda x: F.dropout1d(x, 0.3))
item("fd dropout1d unbatched 32x100", lambda: (leaf(32, 100),), lambda x: F.dropout1d(x, 0.3))
item("fd dropout3d 4x8x4x8x8", lambda: (leaf(4, 8, 4, 8, 8),), lambda x: F.dropout3d(x, 0.2))
item("fd dropout3d unbatched 8x4x8x8", lambda: (leaf(8, 4, 8, 8),), lambda x: F.dropout3d(x, 0.2))
item("fd dropout2d f16", lambda: (leaf(16, 32, 8, 8, dtype=torch.float16),), lambda x: F.dropout2d(x, 0.5))
item("fd nn.Dropout2d eval", lambda: (leaf(16, 32, 8, 8), nn.Dropout2d().eval()), lambda x, m: m(x))
item("fd dropout2d no grad", lambda: (leaf(16, 32, 8, 8, rg=False),), lambda x: F.dropout2d(x, 0.5), backward=False)
item("fd alpha_dropout", lambda: (leaf(16, 32, 8, 8),), lambda x: F.alpha_dropout(x, 0.5, True))
item("fd feature_alpha_dropout", lambda: (leaf(16, 32, 8, 8),), lambda x: F.feature_alpha_dropout(x, 0.5, True))

# ---- errors ----
x4 = torch.randn(8, 30, 4, 4, device=dev)
err("gn groups 7 of 30", lambda: F.group_norm(x4, 7))
err("gn weight 29", lambda: F.group_norm(x4, 3, torch.ones(29, device=dev)))
err("gn bias 29", lambda: F.group_norm(x4, 3, None, torch.ones(29, device=dev)))
err("gn 1-d", lambda: F.group_norm(torch.randn(30, device=dev), 3))
err("gn 1 per group", lambda: F.group_norm(torch.randn(1, 30, device=dev), 30))
err("nn.GroupNorm(3, 10)", lambda: nn.GroupNorm(3, 10))
err("gn int", lambda: F.group_norm(torch.ones(2, 4, 3, device=dev, dtype=torch.long), 2))
err("gn groups 0", lambda: F.group_norm(x4, 0))
err("in 1 spatial", lambda: F.instance_norm(torch.randn(8, 16, 1, device=dev)))
err("in InstanceNorm2d 2-d", lambda: nn.InstanceNorm2d(16)(torch.randn(8, 16, device=dev)))
err("in InstanceNorm1d 4-d", lambda: nn.InstanceNorm1d(16)(torch.randn(2, 16, 4, 4, device=dev)))
err("in wrong C affine", lambda: nn.InstanceNorm2d(8, affine=True).cuda()(torch.randn(2, 16, 4, 4, device=dev)))
err("in eval no stats", lambda: F.instance_norm(torch.randn(2, 16, 4, 4, device=dev), use_input_stats=False))
err("rms wrong shape", lambda: F.rms_norm(torch.randn(4, 10, device=dev), (8,)))
err("rms weight shape", lambda: F.rms_norm(torch.randn(4, 10, device=dev), (10,), torch.ones(9, device=dev)))
err("rms int", lambda: F.rms_norm(torch.ones(4, 10, device=dev, dtype=torch.long), (10,)))
xi = torch.ones(4, 6, device=dev, dtype=torch.long)
err("elu int", lambda: F.elu(xi))
err("softplus int", lambda: F.softplus(xi))
err("mish int", lambda: F.mish(xi))
err("hardswish int", lambda: F.hardswish(xi))
err("hardtanh int", lambda: F.hardtanh(xi))
err("relu6 int", lambda: F.relu6(xi))
err("logsigmoid int", lambda: F.logsigmoid(xi))
err("glu int", lambda: F.glu(xi))
err("glu odd", lambda: F.glu(torch.randn(4, 5, device=dev)))
err("glu dim 2", lambda: F.glu(torch.randn(4, 6, device=dev), 2))
err("glu scalar", lambda: F.glu(torch.tensor(1.0, device=dev)))
err("hardtanh min>max", lambda: F.hardtanh(torch.randn(4, device=dev), 2.0, 1.0))
err("elu_ on leaf", lambda: F.elu(torch.randn(4, device=dev, requires_grad=True), inplace=True))
err("dropout2d p=1.5", lambda: F.dropout2d(torch.randn(2, 3, 4, 4, device=dev), 1.5))
err("dropout1d 4-d", lambda: F.dropout1d(torch.randn(2, 3, 4, 4, device=dev)))
err("dropout1d 1-d", lambda: F.dropout1d(torch.randn(4, device=dev)))
err("dropout2d 1-d", lambda: F.dropout2d(torch.randn(4, device=dev)))
err("dropout3d 3-d", lambda: F.dropout3d(torch.randn(2, 3, 4, device=dev)))
err("nn.Dropout2d(p=2)", lambda: nn.Dropout2d(2.0))
err("feature_dropout 1-d", lambda: torch.feature_dropout(torch.randn(4, device=dev), 0.5, True))
err("elu int inplace", lambda: F.elu(xi.clone(), inplace=True))
err("hardtanh bool", lambda: F.hardtanh(torch.ones(3, dtype=torch.bool, device=dev)))

# reprs
for m in [nn.GroupNorm(4, 32), nn.InstanceNorm2d(16), nn.InstanceNorm1d(8, affine=True, track_running_stats=True),
          nn.RMSNorm(512), nn.RMSNorm([4, 8], eps=1e-6, elementwise_affine=False), nn.ELU(), nn.ELU(0.5, inplace=True),
          nn.Softplus(), nn.Softplus(2, 10), nn.Mish(), nn.Mish(True), nn.Hardswish(), nn.Hardtanh(), nn.Hardtanh(-2, 2, True),
          nn.ReLU6(), nn.ReLU6(True), nn.LogSigmoid(), nn.GLU(), nn.GLU(0), nn.Dropout1d(), nn.Dropout2d(0.3, True), nn.Dropout3d()]:
    print(repr(m), [n for n, _ in m.named_parameters()], [n for n, _ in m.named_buffers()])
print("InstanceNorm2d state_dict", list(nn.InstanceNorm2d(4, track_running_stats=True).state_dict().keys()))

# C++ frames for the uncertain kernels
os.environ.setdefault("TORCH_SYMBOLIZE_MODE", "dladdr")
signal.signal(signal.SIGALRM, lambda *a: (print("cpp frames: timed out", flush=True), sys.exit(0)))
signal.alarm(120)
item("cpp gn f32 affine", lambda: (leaf(8, 32, 16, 16), p(32), p(32)), lambda x, w, b: F.group_norm(x, 8, w, b), cpp=True)
item("cpp rms f32 w", lambda: (leaf(8, 128, 512), p(512)), lambda x, w: F.rms_norm(x, (512,), w), cpp=True)
item("cpp dropout2d", lambda: (leaf(16, 32, 8, 8),), lambda x: F.dropout2d(x, 0.5), cpp=True)
signal.alarm(0)
