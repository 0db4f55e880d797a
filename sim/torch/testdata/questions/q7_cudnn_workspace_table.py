# cuDNN convolution workspaces over a grid of common conv configurations.
#
# For each configuration the forward (F.conv{1,2}d) and the backward
# (aten.convolution_backward with output_mask [input, weight], no bias: the
# bias gradient is a plain sum reduction) are traced with
# torch.cuda.memory._record_memory_history, twice each: "cold" (first call:
# cuDNN heuristics pick the engine, the plan is built and cached) and "warm"
# (the cached plan). A workspace is an allocation made and freed inside the
# op call (the op's result and nothing else survives it); each one is
# attributed to the phase that precedes it: forward, backward-data (after
# grad_input is allocated) or backward-filter (after grad_weight).
# fp16/bf16 run on pre-cast tensors: autocast casts the arguments and calls
# the same cudnn_convolution on them (the cast allocations are not part of
# the convolution). At the end one configuration is re-traced with C++
# stacks (in a subprocess, time-limited) to confirm the transient
# allocations come from cuDNN frames.
#
# Recorded (q7_cudnn_workspace_table.out) on an NVIDIA H200, not the H100 of
# the profile: its meta line says so; q4's H100 figures are reproduced exactly.
#
# Output: one JSON object per line: first {"meta": ...}, then one per
# configuration, then {"frames": ...} (or {"frames_skipped": why}).
import json, os, subprocess, sys, time

import torch
import torch.nn.functional as F

T0 = time.time()
DT = {"fp32": torch.float32, "fp16": torch.float16, "bf16": torch.bfloat16}


def meta():
    p = torch.cuda.get_device_properties(0)
    return {
        "torch": torch.__version__,
        "cuda": torch.version.cuda,
        "cudnn": torch.backends.cudnn.version(),
        "cudnn_enabled": torch.backends.cudnn.enabled,
        "benchmark": torch.backends.cudnn.benchmark,
        "deterministic": torch.backends.cudnn.deterministic,
        "allow_tf32": torch.backends.cudnn.allow_tf32,
        "device": p.name,
        "capability": list(torch.cuda.get_device_capability(0)),
        "total_memory": p.total_memory,
    }


def trace(fn):
    """Runs fn under memory-history recording; returns (result, events)."""
    torch.cuda.synchronize()
    torch.cuda.memory._record_memory_history(max_entries=100000, stacks="python")
    r = fn()
    torch.cuda.synchronize()
    tr = torch.cuda.memory._snapshot()["device_traces"][0]
    torch.cuda.memory._record_memory_history(enabled=None)
    evs = [(e["action"], e["addr"], e["size"]) for e in tr if e["action"] in ("alloc", "free_requested")]
    return r, evs


def classify(evs, results):
    """results: [(label, nbytes)] in the order the op allocates them.
    Returns (seq, {label_ws: [sizes]}): seq is the alloc/free sequence with
    workspaces marked "W<size>", results "R<size>", other allocs "a<size>",
    frees "f<size>"."""
    freed = {}
    for i, (a, addr, size) in enumerate(evs):
        if a == "free_requested":
            freed.setdefault(addr, []).append(i)
    seq, ws = [], {}
    phase = "pre"
    pending = list(results)
    for i, (a, addr, size) in enumerate(evs):
        if a == "free_requested":
            seq.append("f%d" % size)
            continue
        transient = any(j > i for j in freed.get(addr, []))
        if not transient and pending and pending[0][1] == size:
            phase = pending.pop(0)[0]
            seq.append("R%d" % size)
        elif transient:
            ws.setdefault(phase, []).append(size)
            seq.append("W%d" % size)
        else:
            seq.append("a%d" % size)
    return seq, ws


def run_config(cfg):
    k = cfg["dims"]
    dt = DT[cfg["dtype"]]
    n, cin, cout = cfg["batch"], cfg["cin"], cfg["cout"]
    sp, ks, st, pd = cfg["spatial"], cfg["kernel"], cfg["stride"], cfg["padding"]
    xs = [n, cin] + [sp] * k
    ws = [cout, cin] + [ks] * k
    x = torch.randn(xs, device="cuda", dtype=dt)
    w = torch.randn(ws, device="cuda", dtype=dt)
    b = torch.randn(cout, device="cuda", dtype=dt)
    conv = F.conv1d if k == 1 else F.conv2d
    es = x.element_size()
    out_sp = (sp + 2 * pd - ks) // st + 1
    ybytes = n * cout * out_sp ** k * es
    res = {}
    with torch.no_grad():
        for tag in ("cold", "warm"):
            y, evs = trace(lambda: conv(x, w, b, st, pd))
            seq, wsd = classify(evs, [("fwd", ybytes)])
            res[tag + "_fwd"] = (seq, wsd.get("fwd", []))
        g = torch.randn_like(y)
        for tag in ("cold", "warm"):
            r, evs = trace(lambda: torch.ops.aten.convolution_backward(
                g, x, w, None, [st] * k, [pd] * k, [1] * k, False, [0] * k, 1, [True, True, False]))
            seq, wsd = classify(evs, [("bwd_data", x.numel() * es), ("bwd_filter", w.numel() * es)])
            res[tag + "_bwd"] = (seq, wsd.get("bwd_data", []), wsd.get("bwd_filter", []), wsd.get("pre", []))
            del r
    out = dict(cfg)
    out["out_spatial"] = out_sp
    out["fwd_ws"] = res["warm_fwd"][1]
    out["bwd_data_ws"] = res["warm_bwd"][1]
    out["bwd_filter_ws"] = res["warm_bwd"][2]
    out["fwd_seq"] = res["warm_fwd"][0]
    out["bwd_seq"] = res["warm_bwd"][0]
    if res["warm_bwd"][3]:
        out["bwd_unattributed_ws"] = res["warm_bwd"][3]
    if res["cold_fwd"] != res["warm_fwd"]:
        out["cold_fwd_seq"] = res["cold_fwd"][0]
    if res["cold_bwd"] != res["warm_bwd"]:
        out["cold_bwd_seq"] = res["cold_bwd"][0]
    del x, w, b, y, g
    return out


def configs():
    # (cin, cout, kernel, stride, padding, spatial): ResNet/CIFAR-style layers.
    layers2d = [
        (3, 64, 7, 2, 3, 224),   # ResNet stem
        (3, 64, 3, 1, 1, 32),    # CIFAR stem (s003)
        (64, 64, 3, 1, 1, 56),
        (64, 64, 1, 1, 0, 56),
        (64, 128, 3, 2, 1, 56),
        (64, 128, 1, 2, 0, 56),  # downsample
        (128, 128, 3, 1, 1, 28),
        (128, 256, 3, 1, 1, 14),
        (128, 256, 3, 2, 1, 28),
        (256, 512, 3, 1, 1, 7),
        (256, 512, 3, 2, 1, 14),
        (256, 512, 1, 1, 0, 14),
    ]
    for dtype in ("fp32", "fp16", "bf16"):
        for (cin, cout, ks, st, pd, sp) in layers2d:
            for n in (1, 8, 32, 64):
                yield dict(dims=2, dtype=dtype, batch=n, cin=cin, cout=cout, kernel=ks, stride=st, padding=pd, spatial=sp)
        # the oracle cases' and q4's shapes: (batch, cin, cout, kernel, stride, padding, spatial)
        for (n, cin, cout, ks, st, pd, sp) in [
            (16, 3, 16, 3, 1, 1, 64),    # p014
            (32, 3, 32, 3, 1, 1, 64),    # q009 conv 1
            (32, 32, 64, 3, 1, 1, 32),   # q009 conv 2
            (64, 64, 128, 3, 1, 1, 16),  # q4
            (32, 128, 256, 3, 1, 1, 8),  # q4
        ]:
            yield dict(dims=2, dtype=dtype, batch=n, cin=cin, cout=cout, kernel=ks, stride=st, padding=pd, spatial=sp)
        for (cin, cout, ks, st, pd, sp) in [
            (16, 32, 3, 1, 1, 100),      # p014
            (64, 64, 3, 1, 1, 256),
            (128, 128, 5, 1, 2, 1024),
            (80, 256, 3, 1, 1, 3000),    # speech front end
            (256, 256, 3, 2, 1, 1500),
        ]:
            for n in (1, 8, 32):
                yield dict(dims=1, dtype=dtype, batch=n, cin=cin, cout=cout, kernel=ks, stride=st, padding=pd, spatial=sp)


FRAMES_CHILD = r'''
import torch, json
import torch.nn.functional as F
x = torch.randn(64, 64, 16, 16, device="cuda"); w = torch.randn(128, 64, 3, 3, device="cuda")
with torch.no_grad():
    F.conv2d(x, w, None, 1, 1)
    torch.cuda.synchronize()
    torch.cuda.memory._record_memory_history(max_entries=1000, stacks="all")
    y = F.conv2d(x, w, None, 1, 1)
    torch.ops.aten.convolution_backward(torch.ones_like(y), x, w, None, [1, 1], [1, 1], [1, 1], False, [0, 0], 1, [True, True, False])
    torch.cuda.synchronize()
    tr = torch.cuda.memory._snapshot()["device_traces"][0]
for e in tr:
    if e["action"] == "alloc":
        names = [f["name"] for f in e["frames"] if "conv" in f["name"].lower() or "cudnn" in f["name"].lower()]
        print(json.dumps({"frames": {"size": e["size"], "conv_frames": names[:6]}}))
'''


def main():
    print(json.dumps({"meta": meta()}), flush=True)
    for cfg in configs():
        try:
            print(json.dumps(run_config(cfg)), flush=True)
        except Exception as ex:  # report and go on (e.g. OOM)
            print(json.dumps({"error": repr(ex), **cfg}), flush=True)
        torch.cuda.empty_cache()
    el = time.time() - T0
    print(json.dumps({"elapsed_grid_s": round(el, 1)}), flush=True)
    if el > 150:
        print(json.dumps({"frames_skipped": "grid took %.0f s" % el}))
        return
    try:
        p = subprocess.run([sys.executable, "-c", FRAMES_CHILD], capture_output=True, text=True, timeout=max(30, 200 - el))
        sys.stdout.write(p.stdout)
        if p.returncode:
            print(json.dumps({"frames_error": p.stderr[-2000:]}))
    except subprocess.TimeoutExpired:
        print(json.dumps({"frames_skipped": "symbolising C++ frames timed out"}))
    print(json.dumps({"elapsed_total_s": round(time.time() - T0, 1)}))


if __name__ == "__main__":
    main()
