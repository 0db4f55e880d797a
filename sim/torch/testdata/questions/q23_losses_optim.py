# Question 23: margin/embedding losses, training utilities and the Adamax/NAdam/RAdam
# optimizers on CUDA (PyTorch 2.11): every allocation/free the caching allocator sees during
# each op and during its backward. One line per item:
#   NAME | out=[shapes/strides/dtypes] fn=grad_fn | F: fwd events | B: bwd events
# Events: "+id:size" an allocation (requested bytes; ids in allocation order within the op),
# "-id" its free ("-?" a block allocated before the op), "S<size>" a new segment. The backward
# is out.backward(g) with g allocated before recording (first output only), so B shows the
# op's backward and AccumulateGrad. Items PyTorch rejects print "ERR Type: message".
# Optimizer items print "STEP n | events" for each step (state created lazily in step 1).
import json

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.cuda.init()
print(json.dumps({"gpu": torch.cuda.get_device_name(), "torch": torch.__version__,
                  "cuda": torch.version.cuda, "cap": list(torch.cuda.get_device_capability())}))
dev = "cuda"


def record(on):
    if not on:
        torch.cuda.memory._record_memory_history(enabled=None)
        return
    torch.cuda.memory._record_memory_history(enabled="all", context="alloc", stacks="python",
                                             max_entries=200000)


def events(trace, start, ids):
    out = []
    for e in trace[start:]:
        a = e.get("action")
        if a == "alloc":
            ids["k"] += 1
            ids[e["addr"]] = ids["k"]
            out.append(f"+{ids['k']}:{e['size']}")
        elif a == "free_requested":
            out.append(f"-{ids.get(e['addr'], '?')}")
        elif a == "segment_alloc":
            out.append(f"S{e['size']}")
    return out


def traced(fn):
    """Runs fn() under the recorder; returns (result, events)."""
    torch.cuda.synchronize()
    ids = {"k": 0}
    record(True)
    start = len(torch.cuda.memory._snapshot()["device_traces"][0])
    try:
        r = fn()
        torch.cuda.synchronize()
        snap = torch.cuda.memory._snapshot()
    finally:
        record(False)
    return r, events(snap["device_traces"][0], start, ids)


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


def item(name, make, op, back=True):
    """make() -> inputs tuple; op(*inputs) -> result."""
    try:
        torch.cuda.synchronize()
        torch.cuda.empty_cache()
        inp = make()
        try:
            r, fwd = traced(lambda: op(*inp))
        except Exception as e:  # noqa: BLE001
            print(f"{name} | ERR {type(e).__name__}: {e}", flush=True)
            return
        line = f"{name} | {desc(r)} | F: {' '.join(fwd)}"
        first = r[0] if isinstance(r, (tuple, list)) else r
        if back and isinstance(first, torch.Tensor) and first.requires_grad:
            g = torch.ones_like(first)
            _, bwd = traced(lambda: first.backward(g))
            line += f" | B: {' '.join(bwd)}"
            del g
        print(line, flush=True)
        del r, first, inp
    except Exception as e:  # noqa: BLE001
        record(False)
        print(f"{name} | FAIL {type(e).__name__}: {e}", flush=True)


def rn(*shape, dtype=torch.float32, grad=True):
    return torch.randn(*shape, device=dev, dtype=dtype).requires_grad_(grad)


def sign(*shape):
    return torch.randint(0, 2, shape, device=dev).float() * 2 - 1


def cls(n, c):
    return torch.randint(0, c, (n,), device=dev)


# --- margin_ranking / hinge_embedding / soft_margin / cosine_embedding / triplet
for red in ("mean", "sum", "none"):
    item(f"margin_ranking [4096] {red}", lambda: (rn(4096), rn(4096), sign(4096)),
         lambda a, b, y, red=red: F.margin_ranking_loss(a, b, y, margin=0.1, reduction=red))
item("margin_ranking [64,1]x[64] bcast", lambda: (rn(64, 1), rn(64), sign(64)), lambda a, b, y: F.margin_ranking_loss(a, b, y))
item("margin_ranking err size", lambda: (rn(4), rn(5), sign(4)), lambda a, b, y: F.margin_ranking_loss(a, b, y))
for red in ("mean", "none"):
    item(f"hinge_embedding [64,1000] {red}", lambda: (rn(64, 1000), sign(64, 1000)),
         lambda x, y, red=red: F.hinge_embedding_loss(x, y, margin=1.0, reduction=red))
for red in ("mean", "sum", "none"):
    item(f"soft_margin [64,1000] {red}", lambda: (rn(64, 1000), sign(64, 1000)),
         lambda x, y, red=red: F.soft_margin_loss(x, y, reduction=red))
item("soft_margin f16 [64,1000] mean", lambda: (rn(64, 1000, dtype=torch.float16), sign(64, 1000).half()),
     lambda x, y: F.soft_margin_loss(x, y))
item("soft_margin [64,1000] target grad", lambda: (rn(64, 1000), sign(64, 1000).requires_grad_()),
     lambda x, y: F.soft_margin_loss(x, y))
for red in ("mean", "none"):
    item(f"cosine_embedding [256,512] {red}", lambda: (rn(256, 512), rn(256, 512), sign(256)),
         lambda a, b, y, red=red: F.cosine_embedding_loss(a, b, y, margin=0.2, reduction=red))
item("cosine_embedding 1-d [512]", lambda: (rn(512), rn(512), sign(1)[0]), lambda a, b, y: F.cosine_embedding_loss(a, b, y))
item("cosine_embedding err", lambda: (rn(4, 5), rn(4, 6), sign(4)), lambda a, b, y: F.cosine_embedding_loss(a, b, y))
item("cosine_embedding err target", lambda: (rn(4, 5), rn(4, 5), sign(4, 1)), lambda a, b, y: F.cosine_embedding_loss(a, b, y))
for kw in ({}, {"swap": True}, {"p": 1.0}, {"reduction": "none"}):
    item(f"triplet [256,512] {kw}", lambda: (rn(256, 512), rn(256, 512), rn(256, 512)),
         lambda a, p, n, kw=kw: F.triplet_margin_loss(a, p, n, margin=1.0, **kw))
item("triplet err dims", lambda: (rn(4, 5), rn(4, 5), rn(5)), lambda a, p, n: F.triplet_margin_loss(a, p, n))
item("pairwise_distance [256,512]", lambda: (rn(256, 512), rn(256, 512)), lambda a, b: F.pairwise_distance(a, b))

# --- multi_margin (CUDA kernel), multilabel_soft_margin, poisson_nll, gaussian_nll
for kw in ({}, {"p": 2}, {"reduction": "sum"}, {"reduction": "none"}, {"margin": 0.5, "p": 2, "reduction": "none"}):
    item(f"multi_margin [512,100] {kw}", lambda: (rn(512, 100), cls(512, 100)),
         lambda x, y, kw=kw: F.multi_margin_loss(x, y, **kw))
item("multi_margin weight", lambda: (rn(512, 100), cls(512, 100), torch.rand(100, device=dev)),
     lambda x, y, w: F.multi_margin_loss(x, y, weight=w))
item("multi_margin f16", lambda: (rn(512, 100, dtype=torch.float16), cls(512, 100)), lambda x, y: F.multi_margin_loss(x, y))
item("multi_margin x.t()", lambda: (rn(100, 512), cls(512, 100)), lambda x, y: F.multi_margin_loss(x.t(), y))
item("multi_margin x.t() none", lambda: (rn(100, 512), cls(512, 100)), lambda x, y: F.multi_margin_loss(x.t(), y, reduction="none"))
item("multi_margin 1-d", lambda: (rn(100), cls(1, 100)), lambda x, y: F.multi_margin_loss(x, y))
item("multi_margin 1-d none", lambda: (rn(100), cls(1, 100)), lambda x, y: F.multi_margin_loss(x, y, reduction="none"))
item("multi_margin err p", lambda: (rn(8, 10), cls(8, 10)), lambda x, y: F.multi_margin_loss(x, y, p=3))
item("multi_margin err target", lambda: (rn(8, 10), cls(7, 10)), lambda x, y: F.multi_margin_loss(x, y))
item("multi_margin err weight", lambda: (rn(8, 10), cls(8, 10), torch.rand(9, device=dev)), lambda x, y, w: F.multi_margin_loss(x, y, weight=w))
item("multi_margin err 3-d", lambda: (rn(2, 8, 10), cls(8, 10)), lambda x, y: F.multi_margin_loss(x, y))
for red in ("mean", "none"):
    item(f"multilabel_soft_margin [64,1000] {red}", lambda: (rn(64, 1000), torch.randint(0, 2, (64, 1000), device=dev).float()),
         lambda x, y, red=red: F.multilabel_soft_margin_loss(x, y, reduction=red))
item("multilabel_soft_margin weight", lambda: (rn(64, 1000), torch.randint(0, 2, (64, 1000), device=dev).float(), torch.rand(1000, device=dev)),
     lambda x, y, w: F.multilabel_soft_margin_loss(x, y, weight=w))
item("logsigmoid [64,1000]", lambda: (rn(64, 1000),), lambda x: F.logsigmoid(x))
for kw in ({}, {"log_input": False}, {"full": True}, {"reduction": "none"}):
    item(f"poisson_nll [64,1000] {kw}", lambda: (rn(64, 1000), torch.rand(64, 1000, device=dev) * 5),
         lambda x, y, kw=kw: F.poisson_nll_loss(x, y, **kw))
for kw, vs in (({}, (64, 10)), ({}, (64,)), ({}, (64, 1)), ({"full": True}, (64, 10)), ({"reduction": "none"}, (64, 10))):
    item(f"gaussian_nll [64,10] var{list(vs)} {kw}",
         lambda vs=vs: (rn(64, 10), torch.randn(64, 10, device=dev), (torch.rand(*vs, device=dev) + 0.1).requires_grad_()),
         lambda x, y, v, kw=kw: F.gaussian_nll_loss(x, y, v, **kw))
item("gaussian_nll err var", lambda: (rn(64, 10), torch.randn(64, 10, device=dev), torch.rand(10, device=dev)),
     lambda x, y, v: F.gaussian_nll_loss(x, y, v))

# --- pad_sequence, parameters_to_vector / vector_to_parameters, register_hook
from torch.nn.utils import parameters_to_vector, vector_to_parameters  # noqa: E402
from torch.nn.utils.rnn import pad_sequence  # noqa: E402


def seqs():
    return ([rn(5, 64), rn(3, 64), rn(7, 64)],)


item("pad_sequence", seqs, lambda s: pad_sequence(s))
item("pad_sequence batch_first", seqs, lambda s: pad_sequence(s, batch_first=True, padding_value=-1.0))
item("pad_sequence left", seqs, lambda s: pad_sequence(s, batch_first=True, padding_side="left"))
item("pad_sequence 1-d", lambda: ([rn(5), rn(9)],), lambda s: pad_sequence(s, batch_first=True))
item("pad_sequence no grad i64", lambda: ([cls(5, 9), cls(2, 9)],), lambda s: pad_sequence(s, batch_first=True))
item("parameters_to_vector", lambda: (nn.Linear(256, 128).cuda(),), lambda m: parameters_to_vector(m.parameters()))
item("vector_to_parameters", lambda: (nn.Linear(256, 128).cuda(), torch.randn(256 * 128 + 128, device=dev)),
     lambda m, v: (vector_to_parameters(v, m.parameters()), m.weight)[1], back=False)


def hooked(kind):
    def run():
        x = rn(1000, 1000)
        h = (x * 2) if kind != "leaf" else x
        handles = []
        if kind in ("leaf", "nonleaf-new"):
            handles.append(h.register_hook(lambda g: g * 3))
        elif kind == "nonleaf-none":
            handles.append(h.register_hook(lambda g: None))
        elif kind == "removed":
            handles.append(h.register_hook(lambda g: g * 3))
            handles[0].remove()
        elif kind == "two":
            h.register_hook(lambda g: g * 3)
            h.register_hook(lambda g: g + 1)
        y = (h * h).sum()
        _, ev = traced(lambda: y.backward())
        print(f"register_hook {kind} | {type(handles[0]).__name__ if handles else '-'} | B: {' '.join(ev)}", flush=True)
    try:
        torch.cuda.empty_cache()
        run()
    except Exception as e:  # noqa: BLE001
        record(False)
        print(f"register_hook {kind} | FAIL {type(e).__name__}: {e}", flush=True)


for k in ("leaf", "nonleaf-new", "nonleaf-none", "removed", "two"):
    hooked(k)
try:
    torch.randn(3, device=dev).register_hook(lambda g: g)
except Exception as e:  # noqa: BLE001
    print(f"register_hook no grad | ERR {type(e).__name__}: {e}")

# --- optimizers: two steps on a 2-layer MLP (4 params), foreach default on CUDA
def opt_item(name, cls_, **kw):
    try:
        torch.cuda.synchronize()
        torch.cuda.empty_cache()
        torch.manual_seed(0)
        m = nn.Sequential(nn.Linear(256, 512), nn.ReLU(), nn.Linear(512, 64)).cuda()
        for p in m.parameters():
            p.grad = torch.randn_like(p)
        opt = cls_(m.parameters(), **kw)
        parts = []
        for s in (1, 2):
            _, ev = traced(opt.step)
            parts.append(f"STEP {s} | {' '.join(ev)}")
        st = opt.state[m[0].weight]
        keys = ",".join(f"{k}:{v.device.type}" for k, v in st.items())
        print(f"{name} | {keys} | " + " | ".join(parts), flush=True)
    except Exception as e:  # noqa: BLE001
        record(False)
        print(f"{name} | ERR {type(e).__name__}: {e}", flush=True)


for cname, c in (("Adamax", torch.optim.Adamax), ("NAdam", torch.optim.NAdam), ("RAdam", torch.optim.RAdam)):
    opt_item(f"{cname}", c)
    opt_item(f"{cname} wd", c, weight_decay=0.01)
    opt_item(f"{cname} maximize", c, maximize=True)
    opt_item(f"{cname} wd maximize", c, weight_decay=0.01, maximize=True)
    opt_item(f"{cname} foreach=False", c, foreach=False, weight_decay=0.01)
    opt_item(f"{cname} capturable", c, capturable=True)
    if cname != "Adamax":
        opt_item(f"{cname} decoupled", c, weight_decay=0.01, decoupled_weight_decay=True)
opt_item("RAdam capturable wd", torch.optim.RAdam, capturable=True, weight_decay=0.01)
opt_item("NAdam capturable wd", torch.optim.NAdam, capturable=True, weight_decay=0.01)
opt_item("Adamax capturable wd", torch.optim.Adamax, capturable=True, weight_decay=0.01)
for bad in ({"lr": -1.0}, {"betas": (1.0, 0.9)}, {"eps": -1.0}, {"weight_decay": -1}):
    for cname, c in (("Adamax", torch.optim.Adamax), ("NAdam", torch.optim.NAdam), ("RAdam", torch.optim.RAdam)):
        try:
            c([nn.Parameter(torch.zeros(2, device=dev))], **bad)
            print(f"{cname} {bad} | accepted")
        except Exception as e:  # noqa: BLE001
            print(f"{cname} {bad} | ERR {type(e).__name__}: {e}")
try:
    torch.optim.NAdam([nn.Parameter(torch.zeros(2, device=dev))], momentum_decay=-1)
except Exception as e:  # noqa: BLE001
    print(f"NAdam momentum_decay | ERR {type(e).__name__}: {e}")
print("done")
