# Question 26 (session 14, H6): packed sequences, cuDNN RNNs on packed input,
# weight/spectral norm (parametrizations and the old hooks), DataParallel on
# one GPU (PyTorch 2.11): every allocation/free the caching allocator sees
# during each step and during its backward. One line per item:
#   NAME | out=[shapes/strides/dtypes] fn=grad_fn | F: fwd events | B: bwd events
# Events: "+id:size" an allocation (requested bytes; ids in allocation order
# within the op), "-id" its free ("-?" a block allocated before the op),
# "S<size>" a new segment. The backward is out.backward(g) with g allocated
# before recording (first output only). Items PyTorch rejects print "ERR Type: message".
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



import warnings
import torch.nn as nn
from torch.nn.utils.rnn import (pack_padded_sequence, pad_packed_sequence, pack_sequence,
                                PackedSequence)
from torch.nn.utils import parametrize
warnings.simplefilter("ignore")


def flat(r):
    # PackedSequence -> its four fields; nested tuples flattened
    out = []
    def add(v):
        if isinstance(v, PackedSequence):
            out.extend(list(v))
        elif isinstance(v, (tuple, list)):
            for w in v:
                add(w)
        else:
            out.append(v)
    add(r)
    return tuple(out)


LENS = [20, 18, 15, 15, 10, 7, 3, 1]
UNSORTED = [15, 20, 3, 18, 1, 15, 7, 10]


def padded(T, B, I, dtype=torch.float32, batch_first=False, grad=True):
    def make():
        shape = (B, T, I) if batch_first else (T, B, I)
        return (torch.randn(*shape, device=dev, dtype=dtype).requires_grad_(grad),)
    return make


# --- pack_padded_sequence: copies per length step, cat, backward
item("pack sorted [20,8,64]", padded(20, 8, 64), lambda x: flat(pack_padded_sequence(x, LENS)))
item("pack sorted bf [8,20,64]", padded(20, 8, 64, batch_first=True),
     lambda x: flat(pack_padded_sequence(x, LENS, batch_first=True)))
item("pack full lengths [20,8,64]", padded(20, 8, 64), lambda x: flat(pack_padded_sequence(x, [20] * 8)))
item("pack unsorted list [20,8,64]", padded(20, 8, 64),
     lambda x: flat(pack_padded_sequence(x, UNSORTED, enforce_sorted=False)))
item("pack unsorted tensor bf [8,20,64]", padded(20, 8, 64, batch_first=True),
     lambda x: flat(pack_padded_sequence(x, torch.tensor(UNSORTED), batch_first=True, enforce_sorted=False)))
item("pack f16 [20,8,64]", padded(20, 8, 64, dtype=torch.float16), lambda x: flat(pack_padded_sequence(x, LENS)))
item("pack nograd [20,8,64]", padded(20, 8, 64, grad=False), lambda x: flat(pack_padded_sequence(x, LENS)))
item("pack 2d [20,8]", lambda: (torch.randn(20, 8, device=dev, requires_grad=True),),
     lambda x: flat(pack_padded_sequence(x, LENS)))
item("pack err unsorted", padded(20, 8, 64, grad=False), lambda x: flat(pack_padded_sequence(x, UNSORTED)))
item("pack err cuda lengths", padded(20, 8, 64, grad=False),
     lambda x: flat(pack_padded_sequence(x, torch.tensor(LENS, device=dev))))
item("pack err zero length", padded(20, 8, 64, grad=False),
     lambda x: flat(pack_padded_sequence(x, LENS[:-1] + [0])))
item("pack err len mismatch", padded(20, 8, 64, grad=False), lambda x: flat(pack_padded_sequence(x, LENS[:-1])))
item("pack_sequence sorted", lambda: ([torch.randn(n, 64, device=dev, requires_grad=True) for n in LENS],),
     lambda seqs: flat(pack_sequence(seqs)))
item("pack_sequence unsorted", lambda: ([torch.randn(n, 64, device=dev, requires_grad=True) for n in UNSORTED],),
     lambda seqs: flat(pack_sequence(seqs, enforce_sorted=False)))


# --- pad_packed_sequence
def packed(lens, I=64, sorted_=True, dtype=torch.float32):
    def make():
        x = torch.randn(max(lens), len(lens), I, device=dev, dtype=dtype)
        p = pack_padded_sequence(x, lens, enforce_sorted=sorted_)
        d = p.data.detach().requires_grad_()
        return (PackedSequence(d, p.batch_sizes, p.sorted_indices, p.unsorted_indices),)
    return make


item("pad_packed sorted", packed(LENS), lambda p: flat(pad_packed_sequence(p)))
item("pad_packed sorted bf", packed(LENS), lambda p: flat(pad_packed_sequence(p, batch_first=True)))
item("pad_packed total_length=25", packed(LENS), lambda p: flat(pad_packed_sequence(p, total_length=25)))
item("pad_packed unsorted", packed(UNSORTED, sorted_=False), lambda p: flat(pad_packed_sequence(p)))
item("pad_packed unsorted bf", packed(UNSORTED, sorted_=False),
     lambda p: flat(pad_packed_sequence(p, batch_first=True, padding_value=-1.0)))
item("pad_packed err total_length", packed(LENS), lambda p: flat(pad_packed_sequence(p, total_length=5)))
item("packed.to f16", packed(LENS), lambda p: flat(p.to(torch.float16)))


# --- cuDNN RNNs on packed input (forward train/eval + backward of output.data)
def rnn_make(kind, I, H, L, bi, lens, sorted_=True, dtype=torch.float32, train=True, hx=False, pad=False):
    def make():
        m = getattr(nn, kind)(I, H, num_layers=L, bidirectional=bi).to(dev, dtype)
        m.train(train)
        x = torch.randn(max(lens), len(lens), I, device=dev, dtype=dtype)
        if pad:
            inp = x.requires_grad_(train)
        else:
            p = pack_padded_sequence(x, lens, enforce_sorted=sorted_)
            inp = PackedSequence(p.data.detach().requires_grad_(train), p.batch_sizes, p.sorted_indices,
                                 p.unsorted_indices)
        h = None
        if hx:
            D = 2 if bi else 1
            h0 = torch.randn(L * D, len(lens), H, device=dev, dtype=dtype)
            h = (h0, torch.randn_like(h0)) if kind == "LSTM" else h0
        return (m, inp, h)
    return make


def rnn_op(m, inp, h):
    if m.training:
        return flat(m(inp, h))
    with torch.no_grad():
        return flat(m(inp, h))


RAND32 = [50, 49, 47, 45, 44, 40, 38, 37, 35, 33, 30, 30, 28, 27, 25, 24, 22, 20, 19, 18, 16, 15, 13, 12,
          11, 10, 8, 7, 5, 4, 3, 2]
for kind, I, H, L, bi, lens, dt, tag in (
        ("LSTM", 64, 128, 1, False, LENS, torch.float32, ""),
        ("LSTM", 64, 128, 2, True, LENS, torch.float32, ""),
        ("GRU", 64, 128, 1, False, LENS, torch.float32, ""),
        ("RNN", 64, 128, 1, False, LENS, torch.float32, ""),
        ("LSTM", 64, 128, 1, False, LENS, torch.float16, ""),
        ("LSTM", 64, 128, 1, False, [20] * 8, torch.float32, " full"),
        ("LSTM", 64, 128, 1, False, [20, 1, 1, 1, 1, 1, 1, 1], torch.float32, " skew"),
        ("LSTM", 64, 128, 1, False, [10] * 8, torch.float32, " S10"),
        ("LSTM", 256, 512, 1, False, RAND32, torch.float32, ""),
        ("LSTM", 256, 512, 2, True, RAND32, torch.float32, ""),
        ("GRU", 256, 512, 2, False, RAND32, torch.float32, ""),
        ("LSTM", 128, 256, 2, False, [35] * 20, torch.float32, " 35x20")):
    name = f"{kind} I{I} H{H} L{L} D{2 if bi else 1} {str(dt)[6:]} T{sum(lens)} S{max(lens)} B{len(lens)}{tag}"
    item(f"packed {name} train", rnn_make(kind, I, H, L, bi, lens, dtype=dt), rnn_op)
    item(f"packed {name} eval", rnn_make(kind, I, H, L, bi, lens, dtype=dt, train=False), rnn_op)
    if tag in ("", " full") and dt == torch.float32 and I == 64 and L == 1:
        item(f"padded {name} train", rnn_make(kind, I, H, L, bi, lens, dtype=dt, pad=True), rnn_op)
item("packed LSTM unsorted hx train", rnn_make("LSTM", 64, 128, 1, False, UNSORTED, sorted_=False, hx=True), rnn_op)
item("packed GRU unsorted hx train", rnn_make("GRU", 64, 128, 1, False, UNSORTED, sorted_=False, hx=True), rnn_op)
item("packed LSTM unsorted nohx train", rnn_make("LSTM", 64, 128, 1, False, UNSORTED, sorted_=False), rnn_op)


# --- weight norm / spectral norm
def lin(i=512, o=256, dtype=torch.float32):
    return lambda: (nn.Linear(i, o).to(dev, dtype),)


def conv():
    return (nn.Conv1d(80, 256, 7, padding=3).to(dev),)


def params(m):
    names = [f"{n}{list(p.shape)}" for n, p in m.named_parameters()]
    bufs = [f"{n}{list(b.shape)}" for n, b in m.named_buffers()]
    print("   params:", " ".join(names), "| buffers:", " ".join(bufs), "| sd:", " ".join(m.state_dict().keys()), flush=True)
    return m


PW = torch.nn.utils.parametrizations
item("P.weight_norm register Linear", lin(), lambda m: params(PW.weight_norm(m)))
item("P.weight_norm register Conv1d", conv, lambda m: params(PW.weight_norm(m)))
item("P.weight_norm register dim=None", lin(), lambda m: params(PW.weight_norm(m, dim=None)))
item("P.weight_norm register dim=1", lin(), lambda m: params(PW.weight_norm(m, dim=1)))


def fwd(make_mod, wrap, shape, dtype=torch.float32, mode="train", twice=False):
    def make():
        m = wrap(make_mod()[0])
        m.train(mode == "train")
        x = torch.randn(*shape, device=dev, dtype=dtype, requires_grad=True)
        return (m, x)
    return make


def run_fwd(m, x):
    return m(x)


def run_weight(m, x):
    return m.weight


def run_cached(m, x):
    with parametrize.cached():
        return m(x) + m(x)


item("P.weight_norm Linear fwd", fwd(lin(), PW.weight_norm, (64, 512)), run_fwd)
item("P.weight_norm Linear .weight", fwd(lin(), PW.weight_norm, (64, 512)), run_weight)
item("P.weight_norm Linear cached x2", fwd(lin(), PW.weight_norm, (64, 512)), run_cached)
item("P.weight_norm Linear f16 fwd", fwd(lin(dtype=torch.float16), PW.weight_norm, (64, 512), torch.float16), run_fwd)
item("P.weight_norm Linear dim=1 fwd", fwd(lin(), lambda m: PW.weight_norm(m, dim=1), (64, 512)), run_fwd)
item("P.weight_norm Linear dim=None fwd", fwd(lin(), lambda m: PW.weight_norm(m, dim=None), (64, 512)), run_fwd)
item("P.weight_norm Conv1d fwd", fwd(conv, PW.weight_norm, (8, 80, 400)), run_fwd)
item("P.weight_norm Linear no_grad fwd", fwd(lin(), PW.weight_norm, (64, 512)),
     lambda m, x: torch.no_grad()(run_fwd)(m, x))
item("old weight_norm register Linear", lin(), lambda m: params(nn.utils.weight_norm(m)))
item("old weight_norm Linear fwd", fwd(lin(), nn.utils.weight_norm, (64, 512)), run_fwd)
item("old weight_norm Conv1d fwd", fwd(conv, nn.utils.weight_norm, (8, 80, 400)), run_fwd)
item("remove_weight_norm", lambda: (nn.utils.weight_norm(nn.Linear(512, 256).to(dev)),),
     lambda m: params(nn.utils.remove_weight_norm(m)))
item("remove_parametrizations", lambda: (PW.weight_norm(nn.Linear(512, 256).to(dev)),),
     lambda m: params(parametrize.remove_parametrizations(m, "weight")))

item("P.spectral_norm register Linear", lin(), lambda m: params(PW.spectral_norm(m)))
item("P.spectral_norm register Conv1d", conv, lambda m: params(PW.spectral_norm(m)))
item("P.spectral_norm Linear fwd train", fwd(lin(), PW.spectral_norm, (64, 512)), run_fwd)
item("P.spectral_norm Linear fwd eval", fwd(lin(), PW.spectral_norm, (64, 512), mode="eval"), run_fwd)
item("P.spectral_norm Conv1d fwd train", fwd(conv, PW.spectral_norm, (8, 80, 400)), run_fwd)
item("P.spectral_norm Linear f16 fwd", fwd(lin(dtype=torch.float16), PW.spectral_norm, (64, 512), torch.float16),
     run_fwd)
item("P.spectral_norm iters=3 fwd", fwd(lin(), lambda m: PW.spectral_norm(m, n_power_iterations=3), (64, 512)),
     run_fwd)
item("old spectral_norm register Linear", lin(), lambda m: params(nn.utils.spectral_norm(m)))
item("old spectral_norm Linear fwd train", fwd(lin(), nn.utils.spectral_norm, (64, 512)), run_fwd)
item("old spectral_norm Linear fwd eval", fwd(lin(), nn.utils.spectral_norm, (64, 512), mode="eval"), run_fwd)
item("old spectral_norm Conv1d fwd train", fwd(conv, nn.utils.spectral_norm, (8, 80, 400)), run_fwd)
item("P.spectral_norm err dim", lin(), lambda m: PW.spectral_norm(m, dim=3))
item("P.weight_norm err name", lin(), lambda m: PW.weight_norm(m, name="nope"))


# --- DataParallel on one GPU
def mlp():
    return nn.Sequential(nn.Linear(512, 1024), nn.ReLU(), nn.Linear(1024, 10))


item("DataParallel wrap cpu model", lambda: (mlp(),), lambda m: params(nn.DataParallel(m)))
item("DataParallel wrap cuda model", lambda: (mlp().to(dev),), lambda m: params(nn.DataParallel(m)))
item("DataParallel fwd cuda input", lambda: (nn.DataParallel(mlp().to(dev)),
                                             torch.randn(64, 512, device=dev, requires_grad=True)), run_fwd)
item("DataParallel fwd cpu input", lambda: (nn.DataParallel(mlp().to(dev)), torch.randn(64, 512)), run_fwd)
item("DataParallel fwd cuda input dim=1", lambda: (nn.DataParallel(mlp().to(dev), dim=1),
                                                   torch.randn(64, 512, device=dev)), run_fwd)
item("DataParallel err cpu params", lambda: (nn.DataParallel(mlp().to(dev)),),
     lambda m: m.module.cpu() and m(torch.randn(4, 512)))
item("DDP err", lambda: (mlp().to(dev),), lambda m: nn.parallel.DistributedDataParallel(m))
print("done", flush=True)
