# cuDNN transposed convolutions and RNNs (LSTM/GRU/RNN), measured with
# torch.cuda.memory._record_memory_history (PyTorch 2.11, cuDNN 9.19).
#
# Part 1 ("ct" rows): F.conv_transpose{1,2}d forward (cuDNN backward-data)
# and aten.convolution_backward(transposed=True) with output_mask
# [input, weight] and [weight] only, cold and warm, as q7: each workspace is
# an allocation made and freed inside the op, attributed to the result it
# follows (fwd: the output; bwd_data: grad_input, a forward convolution;
# bwd_filter: grad_weight). Regular convolutions of the DCGAN
# discriminators are measured too in q7's row format ("q7" rows).
# Part 2 ("rnn" rows): every allocation and free (size and a per-address
# id) of nn.LSTM/GRU/RNN's .cuda() (flatten_parameters), training forward,
# backward (twice: the second accumulates into existing grads), forward in
# training mode under no_grad and in eval mode under no_grad, plus where
# the parameters' grads live (one dw buffer or not).
# Output: one JSON object per line.
import json, time

import torch
import torch.nn as nn
import torch.nn.functional as F

T0 = time.time()
DT = {"fp32": torch.float32, "fp16": torch.float16, "bf16": torch.bfloat16}


def meta():
    p = torch.cuda.get_device_properties(0)
    return {"torch": torch.__version__, "cuda": torch.version.cuda, "cudnn": torch.backends.cudnn.version(),
            "device": p.name, "capability": list(torch.cuda.get_device_capability(0)), "total_memory": p.total_memory}


def trace(fn):
    torch.cuda.synchronize()
    torch.cuda.memory._record_memory_history(max_entries=100000, stacks="python")
    r = fn()
    torch.cuda.synchronize()
    tr = torch.cuda.memory._snapshot()["device_traces"][0]
    torch.cuda.memory._record_memory_history(enabled=None)
    evs = [(e["action"], e["addr"], e["size"]) for e in tr if e["action"] in ("alloc", "free_requested")]
    return r, evs


def seq_of(evs):
    ids, out = {}, []
    for a, addr, size in evs:
        if a == "alloc":
            ids[addr] = len(ids)
            out.append("a%d#%d" % (size, ids[addr]))
        else:
            out.append("f%d#%s" % (size, ids.get(addr, "?")))
    return out


def classify(evs, results):
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


def ct_row(cfg):
    k = cfg["dims"]
    dt = DT[cfg["dtype"]]
    n, cin, cout, g = cfg["batch"], cfg["cin"], cfg["cout"], cfg["groups"]
    sp, ks, st, pd, op, dl = cfg["spatial"], cfg["kernel"], cfg["stride"], cfg["padding"], cfg["output_padding"], cfg["dilation"]
    x = torch.randn([n, cin] + [sp] * k, device="cuda", dtype=dt)
    w = torch.randn([cin, cout // g] + [ks] * k, device="cuda", dtype=dt)
    b = torch.randn(cout, device="cuda", dtype=dt) if cfg["bias"] else None
    f = F.conv_transpose1d if k == 1 else F.conv_transpose2d
    es = x.element_size()
    out_sp = (sp - 1) * st - 2 * pd + dl * (ks - 1) + op + 1
    res = {}
    with torch.no_grad():
        for tag in ("cold", "warm"):
            y, evs = trace(lambda: f(x, w, b, st, pd, op, g, dl))
            seq, wsd = classify(evs, [("fwd", y.numel() * es)])
            res[tag + "_fwd"] = (seq, wsd.get("fwd", []))
        gy = torch.randn_like(y)
        for mask in ("iw", "w"):
            for tag in ("cold", "warm"):
                om = [mask == "iw", True, False]
                r, evs = trace(lambda: torch.ops.aten.convolution_backward(
                    gy, x, w, None, [st] * k, [pd] * k, [dl] * k, True, [op] * k, g, om))
                results = ([("bwd_data", x.numel() * es)] if mask == "iw" else []) + [("bwd_filter", w.numel() * es)]
                seq, wsd = classify(evs, results)
                res[tag + "_bwd_" + mask] = (seq, wsd.get("bwd_data", []), wsd.get("bwd_filter", []), wsd.get("pre", []))
                del r
    out = dict(cfg)
    out["kind"] = "ct"
    out["out_spatial"] = out_sp
    out["out_shape"] = list(y.shape)
    out["fwd_ws"] = res["warm_fwd"][1]
    out["bwd_data_ws"] = res["warm_bwd_iw"][1]
    out["bwd_filter_ws"] = res["warm_bwd_iw"][2]
    out["bwd_w_only_filter_ws"] = res["warm_bwd_w"][2]
    out["fwd_seq"] = res["warm_fwd"][0]
    out["bwd_seq"] = res["warm_bwd_iw"][0]
    out["bwd_w_only_seq"] = res["warm_bwd_w"][0]
    for key in ("bwd_iw", "bwd_w"):
        if res["warm_" + key][3]:
            out[key + "_unattributed_ws"] = res["warm_" + key][3]
    for key in ("fwd", "bwd_iw", "bwd_w"):
        if res["cold_" + key] != res["warm_" + key]:
            out["cold_" + key + "_seq"] = res["cold_" + key][0]
    return out


def conv_row(cfg):
    # q7's row format (regular convolution)
    k = cfg["dims"]
    dt = DT[cfg["dtype"]]
    n, cin, cout = cfg["batch"], cfg["cin"], cfg["cout"]
    sp, ks, st, pd = cfg["spatial"], cfg["kernel"], cfg["stride"], cfg["padding"]
    x = torch.randn([n, cin] + [sp] * k, device="cuda", dtype=dt)
    w = torch.randn([cout, cin] + [ks] * k, device="cuda", dtype=dt)
    conv = F.conv1d if k == 1 else F.conv2d
    es = x.element_size()
    out_sp = (sp + 2 * pd - ks) // st + 1
    res = {}
    with torch.no_grad():
        for tag in ("cold", "warm"):
            y, evs = trace(lambda: conv(x, w, None, st, pd))
            seq, wsd = classify(evs, [("fwd", y.numel() * es)])
            res[tag + "_fwd"] = (seq, wsd.get("fwd", []))
        gy = torch.randn_like(y)
        for tag in ("cold", "warm"):
            r, evs = trace(lambda: torch.ops.aten.convolution_backward(
                gy, x, w, None, [st] * k, [pd] * k, [1] * k, False, [0] * k, 1, [True, True, False]))
            seq, wsd = classify(evs, [("bwd_data", x.numel() * es), ("bwd_filter", w.numel() * es)])
            res[tag + "_bwd"] = (seq, wsd.get("bwd_data", []), wsd.get("bwd_filter", []))
            del r
        r, evs = trace(lambda: torch.ops.aten.convolution_backward(
            gy, x, w, None, [st] * k, [pd] * k, [1] * k, False, [0] * k, 1, [False, True, False]))
        seq_w, wsd_w = classify(evs, [("bwd_filter", w.numel() * es)])
    out = dict(cfg)
    out["source"] = "q13_conv_transpose_rnn"
    out["out_spatial"] = out_sp
    out["fwd_ws"] = res["warm_fwd"][1]
    out["bwd_data_ws"] = res["warm_bwd"][1]
    out["bwd_filter_ws"] = res["warm_bwd"][2]
    out["fwd_seq"] = res["warm_fwd"][0]
    out["bwd_seq"] = res["warm_bwd"][0]
    out["bwd_w_only_seq"] = seq_w
    if res["cold_fwd"] != res["warm_fwd"]:
        out["cold_fwd_seq"] = res["cold_fwd"][0]
    if res["cold_bwd"] != res["warm_bwd"]:
        out["cold_bwd_seq"] = res["cold_bwd"][0]
    return out


def ct_configs():
    # (batch, cin, cout, kernel, stride, padding, output_padding, groups, dilation, spatial, bias)
    dc = []
    for n in (16,):  # q044 / dcgan.py
        dc += [(n, 100, 512, 4, 1, 0, 0, 1, 1, 1, False), (n, 512, 256, 4, 2, 1, 0, 1, 1, 4, False),
               (n, 256, 3, 4, 2, 1, 0, 1, 1, 8, False)]
    for n in (64, 128):  # pytorch/examples dcgan at 64x64
        dc += [(n, 100, 512, 4, 1, 0, 0, 1, 1, 1, False), (n, 512, 256, 4, 2, 1, 0, 1, 1, 4, False),
               (n, 256, 128, 4, 2, 1, 0, 1, 1, 8, False), (n, 128, 64, 4, 2, 1, 0, 1, 1, 16, False),
               (n, 64, 3, 4, 2, 1, 0, 1, 1, 32, False)]
    for dtype in ("fp32", "fp16", "bf16"):
        for c in dc:
            if dtype != "fp32" and c[0] == 128:
                continue
            yield dict(dims=2, dtype=dtype, batch=c[0], cin=c[1], cout=c[2], kernel=c[3], stride=c[4], padding=c[5],
                       output_padding=c[6], groups=c[7], dilation=c[8], spatial=c[9], bias=c[10])
    others2 = [
        (2, 8, 4, 3, 2, 1, 1, 1, 1, 5, True),     # q044 output_padding + bias
        (8, 64, 32, 3, 2, 1, 1, 1, 1, 16, True),  # U-Net style upsampling
        (8, 128, 64, 2, 2, 0, 0, 1, 1, 32, True),  # U-Net 2x2 up-conv
        (4, 64, 64, 3, 1, 1, 0, 1, 1, 32, True),
        (4, 64, 64, 3, 1, 2, 0, 1, 2, 32, False),  # dilated
        (4, 64, 64, 3, 2, 1, 1, 4, 1, 16, False),  # grouped
        (32, 256, 128, 4, 2, 1, 0, 1, 1, 8, False),
    ]
    for c in others2:
        yield dict(dims=2, dtype="fp32", batch=c[0], cin=c[1], cout=c[2], kernel=c[3], stride=c[4], padding=c[5],
                   output_padding=c[6], groups=c[7], dilation=c[8], spatial=c[9], bias=c[10])
    others1 = [
        (4, 16, 8, 4, 2, 1, 0, 2, 1, 32, True),    # q044 conv_transpose1d groups
        (8, 64, 32, 4, 2, 1, 0, 1, 1, 100, True),
        (8, 128, 64, 16, 8, 4, 0, 1, 1, 200, False),  # vocoder-style upsampling
    ]
    for c in others1:
        yield dict(dims=1, dtype="fp32", batch=c[0], cin=c[1], cout=c[2], kernel=c[3], stride=c[4], padding=c[5],
                   output_padding=c[6], groups=c[7], dilation=c[8], spatial=c[9], bias=c[10])


def conv_configs():
    # discriminators: (batch, cin, cout, kernel, stride, padding, spatial)
    dd = []
    for n in (16,):
        dd += [(n, 3, 64, 4, 2, 1, 16), (n, 64, 128, 4, 2, 1, 8), (n, 128, 1, 4, 1, 0, 4)]
    for n in (64, 128):
        dd += [(n, 3, 64, 4, 2, 1, 64), (n, 64, 128, 4, 2, 1, 32), (n, 128, 256, 4, 2, 1, 16),
               (n, 256, 512, 4, 2, 1, 8), (n, 512, 1, 4, 1, 0, 4)]
    for dtype in ("fp32", "fp16", "bf16"):
        for c in dd:
            if dtype != "fp32" and c[0] == 128:
                continue
            yield dict(dims=2, dtype=dtype, batch=c[0], cin=c[1], cout=c[2], kernel=c[3], stride=c[4], padding=c[5], spatial=c[6])


def rnn_row(cfg, full):
    mode = cfg["mode"]
    dt = DT[cfg["dtype"]]
    cls = {"LSTM": nn.LSTM, "GRU": nn.GRU, "RNN": nn.RNN}[mode]
    m = cls(cfg["inp"], cfg["hid"], cfg["layers"], batch_first=cfg["bf"], bidirectional=cfg["bidir"], dropout=cfg["dropout"])
    m = m.to(dt)
    out = dict(cfg)
    out["kind"] = "rnn"
    out["params"] = [[n, list(p.shape)] for n, p in m.named_parameters()]
    _, evs = trace(lambda: m.cuda())
    out["to_cuda"] = seq_of(evs)
    s, b = cfg["seq"], cfg["batch"]
    D = 2 if cfg["bidir"] else 1
    xs = [b, s, cfg["inp"]] if cfg["bf"] else [s, b, cfg["inp"]]
    x = torch.randn(xs, device="cuda", dtype=dt, requires_grad=True)
    hx = None
    if cfg["hx"]:
        h0 = torch.randn(cfg["layers"] * D, b, cfg["hid"], device="cuda", dtype=dt)
        hx = (h0, torch.randn_like(h0)) if mode == "LSTM" else h0
    res = {}
    for it in (1, 2) if full else (1,):
        a0 = torch.cuda.memory_allocated()
        (y, h), evs = trace(lambda: m(x, hx))
        res["fwd%d" % it] = seq_of(evs)
        res["fwd%d_delta" % it] = torch.cuda.memory_allocated() - a0
        gy = torch.randn_like(y)
        a0 = torch.cuda.memory_allocated()
        _, evs = trace(lambda: y.backward(gy))
        res["bwd%d" % it] = seq_of(evs)
        res["bwd%d_delta" % it] = torch.cuda.memory_allocated() - a0
        if it == 1:
            base = None
            gi = []
            for n, p in m.named_parameters():
                st = p.grad.untyped_storage()
                if base is None:
                    base = st.data_ptr()
                gi.append([n, st.data_ptr() - base, p.grad.storage_offset(), st.nbytes(), p.grad.is_contiguous()])
            res["grads"] = gi
            pb = None
            pi = []
            for n, p in m.named_parameters():
                st = p.untyped_storage()
                if pb is None:
                    pb = st.data_ptr()
                pi.append([n, st.data_ptr() - pb, p.storage_offset(), st.nbytes()])
            res["param_storage"] = pi
        del y, h, gy
    with torch.no_grad():
        m.train()
        (y, h), evs = trace(lambda: m(x, hx))
        res["fwd_train_nograd"] = seq_of(evs)
        del y, h
        m.eval()
        (y, h), evs = trace(lambda: m(x, hx))
        res["fwd_eval_nograd"] = seq_of(evs)
        del y, h
    m.eval()
    (y, h), evs = trace(lambda: m(x, hx))
    res["fwd_eval_grad"] = seq_of(evs)
    del y, h
    out.update(res)
    return out


def rnn_configs():
    def c(mode, inp, hid, layers, bf, bidir, dropout, seq, batch, hx, dtype="fp32"):
        return dict(mode=mode, inp=inp, hid=hid, layers=layers, bf=bf, bidir=bidir, dropout=dropout, seq=seq,
                    batch=batch, hx=hx, dtype=dtype)
    full = [
        c("LSTM", 128, 256, 2, False, False, 0.2, 35, 20, True),   # q045
        c("GRU", 128, 256, 1, True, False, 0.0, 35, 20, False),    # q045 GRU
        c("LSTM", 64, 128, 1, False, False, 0.0, 10, 4, False),
        c("LSTM", 64, 128, 1, True, False, 0.0, 10, 4, False),
        c("LSTM", 64, 128, 2, False, True, 0.0, 10, 4, False),
        c("GRU", 64, 128, 2, False, False, 0.5, 10, 4, True),
        c("LSTM", 64, 128, 3, False, False, 0.5, 10, 4, False),
        c("RNN", 64, 128, 1, False, False, 0.0, 10, 4, False),
        c("LSTM", 100, 200, 1, False, False, 0.0, 7, 3, False),
        c("LSTM", 64, 128, 1, False, False, 0.0, 10, 4, False, "fp16"),
        c("GRU", 64, 128, 1, True, True, 0.0, 10, 4, True),
    ]
    for x in full:
        yield x, True
    for mode in ("LSTM", "GRU", "RNN"):
        for hid in (64, 256, 1024):
            for (seq, batch) in ((1, 1), (35, 20), (100, 64)):
                for layers, bidir in ((1, False), (2, False), (2, True)):
                    yield c(mode, hid // 2, hid, layers, False, bidir, 0.0, seq, batch, False), False


def main():
    print(json.dumps({"meta": meta()}), flush=True)
    for cfg in ct_configs():
        try:
            print(json.dumps(ct_row(cfg)), flush=True)
        except Exception as ex:
            print(json.dumps({"kind": "ct", "error": repr(ex), **cfg}), flush=True)
        torch.cuda.empty_cache()
    for cfg in conv_configs():
        try:
            print(json.dumps(conv_row(cfg)), flush=True)
        except Exception as ex:
            print(json.dumps({"error": repr(ex), **cfg}), flush=True)
        torch.cuda.empty_cache()
    print(json.dumps({"elapsed_conv_s": round(time.time() - T0, 1)}), flush=True)
    for cfg, full in rnn_configs():
        if time.time() - T0 > 200:
            print(json.dumps({"skipped": cfg}), flush=True)
            continue
        try:
            print(json.dumps(rnn_row(cfg, full)), flush=True)
        except Exception as ex:
            print(json.dumps({"kind": "rnn", "error": repr(ex), **cfg}), flush=True)
        torch.cuda.empty_cache()
    print(json.dumps({"elapsed_total_s": round(time.time() - T0, 1)}), flush=True)


if __name__ == "__main__":
    main()
