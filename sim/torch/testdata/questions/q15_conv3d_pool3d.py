# 3-d convolutions, pooling and batch norm (PyTorch 2.11, cuDNN 9.19):
# Part 1: cuDNN conv3d workspaces over a grid of video/volume network layers,
# measured exactly as q7 (q7_cudnn_workspace_table.py: forward and
# aten.convolution_backward traced with _record_memory_history, cold and
# warm; a workspace is an allocation made and freed inside the op).
# Part 2 ("op" rows): every allocation and free (size, per-address id) of
# max_pool3d (with and without indices), avg_pool3d, adaptive_avg_pool3d,
# adaptive_max_pool3d and 5-d batch norm (training), forward and backward,
# in fp32 and under bf16 autocast where it applies.
# Output: one JSON object per line.
import json, time

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
    conv = {1: F.conv1d, 2: F.conv2d, 3: F.conv3d}[k]
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
    # (batch, cin, cout, kernel, stride, padding, spatial): C3D/R3D-style and
    # 3-d U-Net-style layers, and the oracle case q047's shapes
    fp32 = [
        (4, 3, 16, 3, 1, 1, 16),     # q047 conv 1
        (4, 16, 32, 3, 1, 1, 8),     # q047 conv 2
        (1, 3, 16, 3, 1, 1, 16),
        (8, 3, 16, 3, 1, 1, 16),
        (2, 3, 64, 3, 1, 1, 32),
        (8, 3, 64, 3, 1, 1, 32),
        (2, 16, 32, 3, 1, 1, 16),
        (8, 16, 32, 3, 1, 1, 16),
        (2, 32, 64, 3, 2, 1, 16),
        (8, 32, 64, 3, 2, 1, 16),
        (2, 64, 64, 3, 1, 1, 8),
        (8, 64, 64, 3, 1, 1, 8),
        (8, 64, 128, 3, 2, 1, 8),
        (4, 128, 128, 3, 1, 1, 4),
        (4, 16, 16, 1, 1, 0, 16),
        (4, 64, 128, 1, 2, 0, 8),
        (2, 1, 8, 5, 2, 2, 32),
        (2, 8, 16, 3, 1, 1, 32),
    ]
    for (n, cin, cout, ks, st, pd, sp) in fp32:
        yield dict(dims=3, dtype="fp32", batch=n, cin=cin, cout=cout, kernel=ks, stride=st, padding=pd, spatial=sp)
    for dtype in ("bf16", "fp16"):
        for (n, cin, cout, ks, st, pd, sp) in fp32[:2] + fp32[3:4] + fp32[5:6] + fp32[7:8] + fp32[9:10] + fp32[11:13]:
            yield dict(dims=3, dtype=dtype, batch=n, cin=cin, cout=cout, kernel=ks, stride=st, padding=pd, spatial=sp)


def events(fn):
    torch.cuda.synchronize()
    torch.cuda.memory._record_memory_history(max_entries=100000)
    r = fn()
    torch.cuda.synchronize()
    snap = torch.cuda.memory._snapshot()
    torch.cuda.memory._record_memory_history(enabled=None)
    ids, out = {}, []
    for tr in snap["device_traces"][0]:
        if tr["action"] not in ("alloc", "free_completed"):
            continue
        a = tr["addr"]
        if a not in ids:
            ids[a] = len(ids)
        out.append([tr["action"][0], tr["size"], ids[a]])
    return r, out


def op_rows():
    x0 = torch.randn(4, 16, 8, 8, 8, device="cuda")
    def fb(name, f, x):
        xi = x.detach().clone().requires_grad_()
        y, ev_f = events(lambda: f(xi))
        yy = y[0] if isinstance(y, tuple) else y
        g = torch.randn_like(yy)
        _, ev_b = events(lambda: yy.backward(g))
        print(json.dumps({"op": name, "in": list(x.shape), "dtype": str(x.dtype), "out": list(yy.shape),
                          "fwd": ev_f, "bwd": ev_b}), flush=True)
    for x in (x0, x0[:, :, 1:7, 1:7, 1:7]):
        fb("max_pool3d(2)", lambda t: F.max_pool3d(t, 2), x)
        fb("max_pool3d(3,2,1,indices)", lambda t: F.max_pool3d(t, 3, 2, 1, return_indices=True), x)
        fb("avg_pool3d(2)", lambda t: F.avg_pool3d(t, 2), x)
        fb("avg_pool3d(3,2,1,ceil,no pad count)", lambda t: F.avg_pool3d(t, 3, 2, 1, ceil_mode=True, count_include_pad=False), x)
        fb("adaptive_avg_pool3d(1)", lambda t: F.adaptive_avg_pool3d(t, 1), x)
        fb("adaptive_avg_pool3d((2,3,2))", lambda t: F.adaptive_avg_pool3d(t, (2, 3, 2)), x)
        fb("adaptive_max_pool3d(2)", lambda t: F.adaptive_max_pool3d(t, 2), x)
    x1 = x0.detach().clone()
    w, b = torch.ones(16, device="cuda", requires_grad=True), torch.zeros(16, device="cuda", requires_grad=True)
    rm, rv = torch.zeros(16, device="cuda"), torch.ones(16, device="cuda")
    fb("batch_norm 5-d train", lambda t: F.batch_norm(t, rm, rv, w, b, training=True), x1)
    fb("batch_norm 5-d eval", lambda t: F.batch_norm(t, rm, rv, w, b, training=False), x1)
    with torch.autocast("cuda", dtype=torch.bfloat16):
        fb("bf16 autocast max_pool3d(2)", lambda t: F.max_pool3d(t, 2), x0)
        fb("bf16 autocast batch_norm 5-d train", lambda t: F.batch_norm(t, rm, rv, w, b, training=True), x1)
    fb("bf16 max_pool3d(2)", lambda t: F.max_pool3d(t, 2), x0.bfloat16())
    fb("bf16 adaptive_avg_pool3d(1)", lambda t: F.adaptive_avg_pool3d(t, 1), x0.bfloat16())
    fb("bf16 batch_norm 5-d train", lambda t: F.batch_norm(t, rm, rv, w, b, training=True), x0.bfloat16())




def main():
    print(json.dumps({"meta": meta()}), flush=True)
    for cfg in configs():
        try:
            print(json.dumps(run_config(cfg)), flush=True)
        except Exception as ex:  # report and go on (e.g. OOM)
            print(json.dumps({"error": repr(ex), **cfg}), flush=True)
        torch.cuda.empty_cache()
    op_rows()
    el = time.time() - T0
    print(json.dumps({"elapsed_grid_s": round(el, 1)}), flush=True)
    print(json.dumps({"elapsed_total_s": round(time.time() - T0, 1)}))


if __name__ == "__main__":
    main()
