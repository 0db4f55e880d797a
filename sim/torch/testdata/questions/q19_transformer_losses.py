# Question 19 (H4, session 13): the caching allocator's trace (requested sizes, in
# order) of the losses smooth_l1 / huber / kl_div / cross_entropy(label_smoothing,
# probability targets) forward and backward, and of the pieces of
# torch/nn/modules/transformer.py that allocate outside the layers: the causal
# mask, _detect_is_causal_mask, F._canonical_mask, the encoder's nested-tensor
# left-alignment check, MHA with a bool key_padding_mask, the encoder-layer fast
# path (_transformer_encoder_layer_fwd) and one layer's slow path.
# "+k:size" an allocation (k in allocation order), "-k" its free.
import json

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.cuda.init()
print(json.dumps({"gpu": torch.cuda.get_device_name(), "torch": torch.__version__,
                  "cuda": torch.version.cuda, "cap": list(torch.cuda.get_device_capability())}))


def record(on):
    if not on:
        torch.cuda.memory._record_memory_history(enabled=None)
        return
    torch.cuda.memory._record_memory_history(enabled="all", context="alloc", stacks="python",
                                             max_entries=200000, clear_history=True)


def events(trace):
    ids, out, k = {}, [], 0
    for e in trace:
        a = e.get("action")
        if a == "alloc":
            k += 1
            ids[e["addr"]] = k
            out.append(f"+{k}:{e['size']}")
        elif a == "free_requested":
            out.append(f"-{ids.get(e['addr'], '?')}")
    return out


def traced(fn):
    torch.cuda.synchronize()
    record(True)
    res = fn()
    torch.cuda.synchronize()
    snap = torch.cuda.memory._snapshot()
    record(False)
    return res, events(snap["device_traces"][0])


def item(name, fwd, bwd=True):
    try:
        torch.cuda.empty_cache()
        out, ev = traced(fwd)
        t = out[0] if isinstance(out, tuple) else out
        gf = type(t.grad_fn).__name__ if hasattr(t, "grad_fn") and t.grad_fn is not None else None
        shape = tuple(t.shape) if hasattr(t, "shape") else t
        print(f"{name} fwd grad_fn={gf} shape={shape} dtype={getattr(t, 'dtype', None)}: {' '.join(ev)}", flush=True)
        if bwd and gf is not None:
            _, ev = traced(lambda: t.sum().backward() if t.dim() else t.backward())
            print(f"{name} bwd: {' '.join(ev)}", flush=True)
        del out, t
    except Exception as e:
        print(f"{name} ERROR {type(e).__name__}: {str(e).splitlines()[0][:200]}", flush=True)


dev = "cuda"
N, C = 256, 1000
for dt in (torch.float32, torch.float16):
    x = torch.randn(N, C, device=dev, dtype=dt, requires_grad=True)
    y = torch.randn(N, C, device=dev, dtype=dt)
    yg = torch.randn(N, C, device=dev, dtype=dt, requires_grad=True)
    tag = str(dt).split(".")[1]
    for red in ("mean", "sum", "none"):
        item(f"smooth_l1 {tag} {red}", lambda: F.smooth_l1_loss(x, y, reduction=red))
        item(f"huber {tag} {red}", lambda: F.huber_loss(x, y, reduction=red, delta=0.5))
    item(f"smooth_l1 {tag} beta=0", lambda: F.smooth_l1_loss(x, y, beta=0.0))
    item(f"smooth_l1 {tag} target grad", lambda: F.smooth_l1_loss(x, yg))
    item(f"huber {tag} target grad", lambda: F.huber_loss(x, yg))
    item(f"huber {tag} delta=0", lambda: F.huber_loss(x, y, delta=0.0), bwd=False)
    item(f"smooth_l1 {tag} beta<0", lambda: F.smooth_l1_loss(x, y, beta=-1.0), bwd=False)
    for red in ("batchmean", "mean", "sum", "none"):
        item(f"kl_div {tag} {red}", lambda: F.kl_div(x, y, reduction=red))
        item(f"kl_div {tag} {red} log_target", lambda: F.kl_div(x, y, reduction=red, log_target=True))
    item(f"kl_div {tag} target grad", lambda: F.kl_div(x, yg, reduction="batchmean"))
    item(f"kl_div {tag} log_target target grad", lambda: F.kl_div(x, yg, reduction="batchmean", log_target=True))
    tgt = torch.randint(0, C, (N,), device=dev)
    w = torch.rand(C, device=dev, dtype=dt)
    for red in ("mean", "sum", "none"):
        item(f"ce ls=0.1 {tag} {red}", lambda: F.cross_entropy(x, tgt, reduction=red, label_smoothing=0.1))
        item(f"ce prob {tag} {red}", lambda: F.cross_entropy(x, y.softmax(1), reduction=red))
        item(f"ce prob ls=0.1 {tag} {red}", lambda: F.cross_entropy(x, y.softmax(1), reduction=red, label_smoothing=0.1))
    item(f"ce ls=0.1 weight {tag} mean", lambda: F.cross_entropy(x, tgt, weight=w, label_smoothing=0.1))
    item(f"ce ls=0.1 ignore {tag} mean", lambda: F.cross_entropy(x, tgt, ignore_index=3, label_smoothing=0.1))
    item(f"ce ls=1.5 {tag}", lambda: F.cross_entropy(x, tgt, label_smoothing=1.5), bwd=False)
    x3 = torch.randn(8, C, 64, device=dev, dtype=dt, requires_grad=True)
    item(f"ce ls=0.1 3d {tag} mean", lambda: F.cross_entropy(x3, torch.randint(0, C, (8, 64), device=dev), label_smoothing=0.1))
    del x, y, yg, x3

# transformer.py pieces
from torch.nn.modules import transformer as T
item("square mask 35", lambda: nn.Transformer.generate_square_subsequent_mask(35, device=dev), bwd=False)
m35 = nn.Transformer.generate_square_subsequent_mask(35, device=dev)
item("detect causal 35", lambda: torch.tensor(T._detect_is_causal_mask(m35, None, 35)), bwd=False)
print("detect causal on causal:", T._detect_is_causal_mask(m35, None, 35),
      "on zeros:", T._detect_is_causal_mask(torch.zeros(35, 35, device=dev), None, 35))
pad = torch.zeros(32, 40, dtype=torch.bool, device=dev)
pad[:, 30:] = True
item("canonical bool mask", lambda: F._canonical_mask(pad, "m", None, "", torch.float32), bwd=False)
src = torch.randn(32, 40, 256, device=dev)
item("left aligned check", lambda: torch.tensor(torch._nested_tensor_from_mask_left_aligned(src, pad.logical_not())), bwd=False)

mha = nn.MultiheadAttention(256, 8, batch_first=True).to(dev)
q = torch.randn(32, 40, 256, device=dev, requires_grad=True)
item("mha bool kpm", lambda: mha(q, q, q, key_padding_mask=pad, need_weights=False))
item("mha float mask+kpm", lambda: mha(q, q, q, key_padding_mask=pad, attn_mask=torch.zeros(40, 40, device=dev), need_weights=False))

enc = nn.TransformerEncoder(nn.TransformerEncoderLayer(256, 8, 512, dropout=0.0, batch_first=True), 1).to(dev)
print("use_nested_tensor", enc.use_nested_tensor)
enc.eval()
item("encoder eval grad kpm", lambda: enc(src, src_key_padding_mask=pad), bwd=False)
with torch.no_grad():
    item("encoder eval nograd kpm (nested)", lambda: enc(src, src_key_padding_mask=pad), bwd=False)
    item("encoder eval nograd nomask (fast)", lambda: enc(src), bwd=False)
    item("layer eval nograd (fast)", lambda: enc.layers[0](src), bwd=False)
    item("layer eval nograd causal (fast)", lambda: enc.layers[0](src, src_mask=m35.new_zeros(40, 40)), bwd=False)
enc.train()
item("layer train", lambda: enc.layers[0](q))
item("encoder train causal mask", lambda: enc(q, mask=nn.Transformer.generate_square_subsequent_mask(40, device=dev)))
dec = nn.TransformerDecoderLayer(256, 8, 512, dropout=0.0, batch_first=True, norm_first=True).to(dev)
mem_in = torch.randn(32, 30, 256, device=dev)
item("decoder layer train", lambda: dec(q, mem_in, tgt_mask=nn.Transformer.generate_square_subsequent_mask(40, device=dev), tgt_is_causal=True))
for name, fn in (("compile", lambda: torch.compile(mha)), ("Stream", lambda: torch.cuda.Stream()),
                 ("Event", lambda: torch.cuda.Event(enable_timing=True))):
    try:
        r = fn()
        print(name, "ok", type(r).__name__)
    except Exception as e:
        print(name, "ERROR", type(e).__name__, str(e)[:200])
