# Question 22 (session 14, H3): the allocator's trace of nn modules and their
# functionals in PyTorch 2.11, forward and backward: LSTMCell/GRUCell/RNNCell
# (_thnn_fused_*_cell), Bilinear (_trilinear), EmbeddingBag (sum/mean/max,
# offsets, per_sample_weights, padding_idx), Unfold/Fold (im2col/col2im),
# PReLU, Softmin, Softmax2d, LocalResponseNorm, AdaptiveMaxPool1d/2d,
# ChannelShuffle, PairwiseDistance; plus error messages for bad arguments.
# Per item, one line: outputs (shape stride dtype), the autograd graph (grad_fn
# names, depth-first, AccumulateGrad left out), "F:" the forward's events,
# "B:" the backward's events (first output .backward(g), g preallocated).
# Events: "+k:size" the k-th allocation (requested bytes), "-k" its free,
# "S<size>" a new segment; "-?" frees a block allocated before recording.
# cuBLAS workspaces are warmed up on both threads before anything is recorded.
import json
import os
import signal
import sys

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.cuda.init()
print(json.dumps({"gpu": torch.cuda.get_device_name(), "torch": torch.__version__,
                  "cuda": torch.version.cuda, "cap": list(torch.cuda.get_device_capability())}))
dev = "cuda"


def record(on, cpp=False):
    if not on:
        torch.cuda.memory._record_memory_history(enabled=None)
        return
    torch.cuda.memory._record_memory_history(enabled="all", context="alloc" if cpp else None,
                                             stacks="all" if cpp else "python", max_entries=200000)


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
                keep = [n for n in names if ("at::native" in n or "at::cuda" in n or "cub" in n
                                             or "torch::autograd" in n or "at::_ops" in n)
                        and "CachingAllocator" not in n][:3]
                tag = "{" + " | ".join(n[:70] for n in keep) + "}"
            out.append(f"+{k}:{e['size']}{tag}")
        elif a == "free_requested":
            out.append(f"-{ids.get(e['addr'], '?')}")
        elif a == "segment_alloc":
            out.append(f"S{e['size']}")
    return out


def trace_len():
    return len(torch.cuda.memory._snapshot()["device_traces"][0])


def graph(fn):
    names, seen = [], set()

    def walk(f, depth):
        if f is None or id(f) in seen or depth > 12:
            return
        seen.add(id(f))
        n = type(f).__name__
        if n != "AccumulateGrad":
            names.append(n)
        for g, _ in f.next_functions:
            walk(g, depth + 1)
    walk(fn, 0)
    return ">".join(names)


def desc(r):
    ts = r if isinstance(r, (tuple, list)) else (r,)
    parts = []
    for t in ts:
        if isinstance(t, torch.Tensor):
            parts.append(f"{tuple(t.shape)}{t.stride()}{str(t.dtype)[6:]}")
        else:
            parts.append(type(t).__name__)
    first = ts[0] if ts else None
    g = graph(first.grad_fn) if isinstance(first, torch.Tensor) else ""
    return f"{' '.join(parts)} {g}"


# warm-up: cuBLAS workspaces of the main and the autograd thread
w = torch.randn(8, 8, device=dev, requires_grad=True)
(w @ w).sum().backward()
(torch.randn(2, 8, 8, device=dev, requires_grad=True).bmm(torch.randn(2, 8, 8, device=dev))).sum().backward()
del w
torch.cuda.synchronize()


def probe(label, make, op, backward=True, cpp=False):
    try:
        torch.cuda.empty_cache()
        ins = make()
        torch.cuda.synchronize()
        record(True, cpp)
        s0 = trace_len()
        out = op(*ins)
        torch.cuda.synchronize()
        fwd = events(torch.cuda.memory._snapshot()["device_traces"][0], s0, cpp)
        d = desc(out)
        first = out[0] if isinstance(out, (tuple, list)) else out
        bwd = []
        if backward and isinstance(first, torch.Tensor) and first.requires_grad:
            g = torch.ones_like(first)
            torch.cuda.synchronize()
            s1 = trace_len()
            first.backward(g)
            torch.cuda.synchronize()
            bwd = events(torch.cuda.memory._snapshot()["device_traces"][0], s1, cpp)
        record(False)
        print(f"{label} | {d} | F: {' '.join(fwd)} | B: {' '.join(bwd)}", flush=True)
    except Exception as e:  # noqa: BLE001
        record(False)
        print(f"{label} | {type(e).__name__}: {str(e).splitlines()[0][:240] if str(e) else ''}", flush=True)


def r(*shape, dtype=torch.float32, grad=True):
    return lambda: [torch.randn(*shape, device=dev, dtype=dtype).requires_grad_(grad)]


def mod(m, *shape, dtype=torch.float32, grad=True):
    def make():
        mm = m().to(device=dev, dtype=dtype)
        return [mm] + [torch.randn(*s, device=dev, dtype=dtype).requires_grad_(grad) for s in shape]
    return make


# --- cells: input [B, I], hidden H
B, I, H = 32, 64, 128
probe("LSTMCell no hx", mod(lambda: nn.LSTMCell(I, H), (B, I)), lambda m, x: m(x))
probe("LSTMCell hx", lambda: mod(lambda: nn.LSTMCell(I, H), (B, I), (B, H), (B, H))(),
      lambda m, x, h, c: m(x, (h, c)))
probe("LSTMCell hx h+c", lambda: mod(lambda: nn.LSTMCell(I, H), (B, I), (B, H), (B, H))(),
      lambda m, x, h, c: torch.add(*m(x, (h, c))))
probe("LSTMCell cy only", lambda: mod(lambda: nn.LSTMCell(I, H), (B, I), (B, H), (B, H))(),
      lambda m, x, h, c: m(x, (h, c))[1])
probe("LSTMCell no bias", mod(lambda: nn.LSTMCell(I, H, bias=False), (B, I), (B, H), (B, H)),
      lambda m, x, h, c: m(x, (h, c)))
probe("LSTMCell 1-d", mod(lambda: nn.LSTMCell(I, H), (I,)), lambda m, x: m(x))
probe("LSTMCell f16", mod(lambda: nn.LSTMCell(I, H), (B, I), (B, H), (B, H), dtype=torch.float16),
      lambda m, x, h, c: m(x, (h, c)))
probe("LSTMCell 2 steps", mod(lambda: nn.LSTMCell(I, H), (B, I), (B, I)),
      lambda m, x1, x2: m(x2, m(x1))[0])
probe("LSTMCell no_grad", mod(lambda: nn.LSTMCell(I, H), (B, I), grad=False),
      lambda m, x: torch.no_grad()(lambda: m(x))(), backward=False)
probe("GRUCell no hx", mod(lambda: nn.GRUCell(I, H), (B, I)), lambda m, x: m(x))
probe("GRUCell hx", mod(lambda: nn.GRUCell(I, H), (B, I), (B, H)), lambda m, x, h: m(x, h))
probe("GRUCell no bias", mod(lambda: nn.GRUCell(I, H, bias=False), (B, I), (B, H)), lambda m, x, h: m(x, h))
probe("GRUCell 1-d", mod(lambda: nn.GRUCell(I, H), (I,), (H,)), lambda m, x, h: m(x, h))
probe("GRUCell f16", mod(lambda: nn.GRUCell(I, H), (B, I), (B, H), dtype=torch.float16), lambda m, x, h: m(x, h))
probe("RNNCell tanh", mod(lambda: nn.RNNCell(I, H), (B, I), (B, H)), lambda m, x, h: m(x, h))
probe("RNNCell tanh no hx", mod(lambda: nn.RNNCell(I, H), (B, I)), lambda m, x: m(x))
probe("RNNCell relu", mod(lambda: nn.RNNCell(I, H, nonlinearity="relu"), (B, I), (B, H)), lambda m, x, h: m(x, h))
probe("RNNCell no bias", mod(lambda: nn.RNNCell(I, H, bias=False), (B, I), (B, H)), lambda m, x, h: m(x, h))
probe("LSTMCell err 3-d", mod(lambda: nn.LSTMCell(I, H), (2, B, I)), lambda m, x: m(x), backward=False)
probe("LSTMCell err size", mod(lambda: nn.LSTMCell(I, H), (B, I + 1)), lambda m, x: m(x), backward=False)
probe("GRUCell err hx size", mod(lambda: nn.GRUCell(I, H), (B, I), (B, H + 1)), lambda m, x, h: m(x, h), backward=False)
probe("RNNCell err nonlin", lambda: [None], lambda _: nn.RNNCell(I, H, nonlinearity="gelu"), backward=False)

# --- bilinear (_trilinear)
probe("Bilinear [128,20]x[128,30]->40", mod(lambda: nn.Bilinear(20, 30, 40), (128, 20), (128, 30)),
      lambda m, a, b: m(a, b))
probe("Bilinear no bias", mod(lambda: nn.Bilinear(20, 30, 40, bias=False), (128, 20), (128, 30)),
      lambda m, a, b: m(a, b))
probe("Bilinear 3-d [4,32,20]", mod(lambda: nn.Bilinear(20, 30, 40), (4, 32, 20), (4, 32, 30)),
      lambda m, a, b: m(a, b))
probe("Bilinear same input", mod(lambda: nn.Bilinear(24, 24, 16), (64, 24)), lambda m, a: m(a, a))
probe("F.bilinear no grad w", lambda: [torch.randn(128, 20, device=dev, requires_grad=True),
                                       torch.randn(128, 30, device=dev), torch.randn(40, 20, 30, device=dev)],
      lambda a, b, w: F.bilinear(a, b, w))
probe("Bilinear err size", mod(lambda: nn.Bilinear(20, 30, 40), (128, 20), (128, 31)), lambda m, a, b: m(a, b),
      backward=False)


# --- embedding_bag: weight [1000, 64]
def bag(n_bags, per, num=1000, dim=64, flat=False, psw=False, last=False, dtype=torch.float32):
    def make():
        w = torch.randn(num, dim, device=dev, dtype=dtype, requires_grad=True)
        idx = torch.randint(0, num, (n_bags, per), device=dev)
        ins = [w, idx]
        if flat:
            ins = [w, idx.flatten(),
                   torch.arange(0, n_bags * per + (per if last else 0), per, device=dev)]
        if psw:
            ins.append(torch.randn(*ins[1].shape, device=dev, dtype=dtype, requires_grad=True))
        return ins
    return make


for mode in ("sum", "mean", "max"):
    probe(f"embedding_bag {mode} 2-d [32,10]", bag(32, 10), lambda w, i, mode=mode: F.embedding_bag(i, w, mode=mode))
    probe(f"embedding_bag {mode} 1-d offsets [320]", bag(32, 10, flat=True),
          lambda w, i, o, mode=mode: F.embedding_bag(i, w, o, mode=mode))
    probe(f"embedding_bag {mode} 2-d [64,100]", bag(64, 100), lambda w, i, mode=mode: F.embedding_bag(i, w, mode=mode))
    probe(f"torch.embedding_bag {mode} 2-d [32,10] outs", bag(32, 10, flat=True),
          lambda w, i, o, mode=mode: torch.embedding_bag(w, i, o, False, ["sum", "mean", "max"].index(mode)))
probe("embedding_bag sum psw 1-d", bag(32, 10, flat=True, psw=True),
      lambda w, i, o, p: F.embedding_bag(i, w, o, mode="sum", per_sample_weights=p))
probe("embedding_bag sum psw 2-d", bag(32, 10, psw=True),
      lambda w, i, p: F.embedding_bag(i, w, mode="sum", per_sample_weights=p))
probe("embedding_bag mean include_last_offset", bag(32, 10, flat=True, last=True),
      lambda w, i, o: F.embedding_bag(i, w, o, mode="mean", include_last_offset=True))
probe("embedding_bag sum padding_idx=0", bag(32, 10), lambda w, i: F.embedding_bag(i, w, mode="sum", padding_idx=0))
probe("embedding_bag mean f16", bag(32, 10, dtype=torch.float16), lambda w, i: F.embedding_bag(i, w, mode="mean"))
probe("embedding_bag mean big vocab [32,10] 50000x64", bag(32, 10, num=50000),
      lambda w, i: F.embedding_bag(i, w, mode="mean"))
probe("embedding_bag sum [8,1000] (8000 idx)", bag(8, 1000), lambda w, i: F.embedding_bag(i, w, mode="sum"))
probe("embedding_bag max [8,1000] (8000 idx)", bag(8, 1000), lambda w, i: F.embedding_bag(i, w, mode="max"))
probe("EmbeddingBag module mean", mod(lambda: nn.EmbeddingBag(1000, 64), ),
      lambda m: m(torch.randint(0, 1000, (32, 10), device=dev)))
probe("embedding_bag err mode", bag(32, 10), lambda w, i: F.embedding_bag(i, w, mode="min"), backward=False)
probe("embedding_bag err psw mean", bag(32, 10, psw=True),
      lambda w, i, p: F.embedding_bag(i, w, mode="mean", per_sample_weights=p), backward=False)
probe("embedding_bag err 2-d offsets", bag(32, 10),
      lambda w, i: F.embedding_bag(i, w, torch.arange(0, 320, 10, device=dev)), backward=False)
probe("embedding_bag err 1-d no offsets", bag(32, 10, flat=True), lambda w, i, o: F.embedding_bag(i, w),
      backward=False)

# --- unfold / fold (im2col / col2im)
probe("unfold [8,3,32,32] k3 p1", r(8, 3, 32, 32), lambda x: F.unfold(x, 3, padding=1))
probe("unfold [8,16,32,32] k2 s2", r(8, 16, 32, 32), lambda x: F.unfold(x, kernel_size=2, stride=2))
probe("unfold [3,32,32] 3-d k3", r(3, 32, 32), lambda x: F.unfold(x, 3))
probe("unfold dilation 2", r(4, 8, 20, 20), lambda x: F.unfold(x, (3, 2), dilation=2, padding=(1, 0), stride=(1, 2)))
probe("unfold f16", r(8, 3, 32, 32, dtype=torch.float16), lambda x: F.unfold(x, 3, padding=1))
probe("unfold channels_last", lambda: [torch.randn(8, 16, 32, 32, device=dev).to(
    memory_format=torch.channels_last).requires_grad_()], lambda x: F.unfold(x, 2, stride=2))
probe("nn.Unfold", mod(lambda: nn.Unfold(kernel_size=(2, 3)), (8, 3, 32, 32)), lambda m, x: m(x))
probe("fold [8,27,1024]->(32,32) k3 p1", r(8, 27, 1024), lambda x: F.fold(x, (32, 32), 3, padding=1))
probe("fold [8,64,256]->(32,32) k2 s2", r(8, 64, 256), lambda x: F.fold(x, 32, 2, stride=2))
probe("fold 2-d [27,1024]", r(27, 1024), lambda x: F.fold(x, (32, 32), 3, padding=1))
probe("nn.Fold", mod(lambda: nn.Fold(output_size=(32, 32), kernel_size=3, padding=1), (8, 27, 1024)),
      lambda m, x: m(x))
probe("fold transposed input", r(8, 1024, 27), lambda x: F.fold(x.transpose(1, 2), (32, 32), 3, padding=1))
probe("unfold err 5-d", r(2, 3, 4, 8, 8), lambda x: F.unfold(x, 3), backward=False)
probe("unfold err big kernel", r(2, 3, 4, 4), lambda x: F.unfold(x, 5), backward=False)
probe("fold err size", r(8, 27, 1000), lambda x: F.fold(x, (32, 32), 3, padding=1), backward=False)
probe("fold err channels", r(8, 28, 1024), lambda x: F.fold(x, (32, 32), 3, padding=1), backward=False)

# --- prelu
probe("PReLU() [32,64,16,16]", mod(lambda: nn.PReLU(), (32, 64, 16, 16)), lambda m, x: m(x))
probe("PReLU(64) [32,64,16,16]", mod(lambda: nn.PReLU(64), (32, 64, 16, 16)), lambda m, x: m(x))
probe("PReLU(64) [32,64]", mod(lambda: nn.PReLU(64), (32, 64)), lambda m, x: m(x))
probe("PReLU() [1000]", mod(lambda: nn.PReLU(), (1000,)), lambda m, x: m(x))
probe("PReLU(64) [8,64,100]", mod(lambda: nn.PReLU(64), (8, 64, 100)), lambda m, x: m(x))
probe("PReLU() f16", mod(lambda: nn.PReLU(), (32, 64, 16, 16), dtype=torch.float16), lambda m, x: m(x))
probe("F.prelu input only grad", lambda: [torch.randn(32, 64, device=dev, requires_grad=True),
                                          torch.full((64,), 0.25, device=dev)], lambda x, w: F.prelu(x, w))
probe("PReLU(64) channels_last", lambda: [nn.PReLU(64).to(dev), torch.randn(8, 64, 16, 16, device=dev).to(
    memory_format=torch.channels_last).requires_grad_()], lambda m, x: m(x))
probe("prelu err weight", lambda: [torch.randn(32, 64, device=dev), torch.full((3,), 0.25, device=dev)],
      lambda x, w: F.prelu(x, w), backward=False)

# --- softmin / softmax2d
probe("softmin dim1 [64,1000]", r(64, 1000), lambda x: F.softmin(x, dim=1))
probe("Softmin(dim=-1)", mod(lambda: nn.Softmin(dim=-1), (64, 1000)), lambda m, x: m(x))
probe("softmin dtype f32 from f16", r(64, 1000, dtype=torch.float16), lambda x: F.softmin(x, 1, dtype=torch.float32))
probe("Softmax2d [8,16,32,32]", mod(lambda: nn.Softmax2d(), (8, 16, 32, 32)), lambda m, x: m(x))
probe("Softmax2d [16,32,32]", mod(lambda: nn.Softmax2d(), (16, 32, 32)), lambda m, x: m(x))
probe("Softmax2d err 2-d", mod(lambda: nn.Softmax2d(), (16, 32)), lambda m, x: m(x), backward=False)

# --- local_response_norm
probe("LRN(5) [8,64,16,16]", mod(lambda: nn.LocalResponseNorm(5), (8, 64, 16, 16)), lambda m, x: m(x))
probe("LRN(2) [8,64,100] 3-d", mod(lambda: nn.LocalResponseNorm(2), (8, 64, 100)), lambda m, x: m(x))
probe("LRN(3) [2,16,4,8,8] 5-d", mod(lambda: nn.LocalResponseNorm(3), (2, 16, 4, 8, 8)), lambda m, x: m(x))
probe("LRN err 2-d", r(8, 64), lambda x: F.local_response_norm(x, 5), backward=False)

# --- adaptive max pool 1d/2d
probe("AdaptiveMaxPool2d(7) [8,64,32,32]", mod(lambda: nn.AdaptiveMaxPool2d(7), (8, 64, 32, 32)), lambda m, x: m(x))
probe("AdaptiveMaxPool2d((1,1)) [8,64,32,32]", mod(lambda: nn.AdaptiveMaxPool2d((1, 1)), (8, 64, 32, 32)),
      lambda m, x: m(x))
probe("AdaptiveMaxPool2d(5) idx", mod(lambda: nn.AdaptiveMaxPool2d(5, return_indices=True), (8, 64, 32, 32)),
      lambda m, x: m(x))
probe("AdaptiveMaxPool2d((None,4)) 3-d", mod(lambda: nn.AdaptiveMaxPool2d((None, 4)), (64, 32, 32)), lambda m, x: m(x))
probe("adaptive_max_pool2d f16", r(8, 64, 32, 32, dtype=torch.float16), lambda x: F.adaptive_max_pool2d(x, 7))
probe("adaptive_max_pool2d channels_last", lambda: [torch.randn(8, 64, 32, 32, device=dev).to(
    memory_format=torch.channels_last).requires_grad_()], lambda x: F.adaptive_max_pool2d(x, 7))
probe("AdaptiveMaxPool1d(10) [8,64,100]", mod(lambda: nn.AdaptiveMaxPool1d(10), (8, 64, 100)), lambda m, x: m(x))
probe("adaptive_max_pool1d idx [64,100]", r(64, 100), lambda x: F.adaptive_max_pool1d(x, 7, return_indices=True))
probe("adaptive_max_pool2d err 5-d", r(2, 8, 4, 32, 32), lambda x: F.adaptive_max_pool2d(x, 7), backward=False)
probe("adaptive_max_pool1d err 4-d", r(2, 8, 4, 32), lambda x: F.adaptive_max_pool1d(x, 7), backward=False)

# --- channel shuffle
probe("ChannelShuffle(4) [8,64,16,16]", mod(lambda: nn.ChannelShuffle(4), (8, 64, 16, 16)), lambda m, x: m(x))
probe("F.channel_shuffle [8,64,100]", r(8, 64, 100), lambda x: F.channel_shuffle(x, 2))
probe("native_channel_shuffle [8,64,16,16]", r(8, 64, 16, 16), lambda x: F.native_channel_shuffle(x, 4))
probe("channel_shuffle channels_last", lambda: [torch.randn(8, 64, 16, 16, device=dev).to(
    memory_format=torch.channels_last).requires_grad_()], lambda x: F.channel_shuffle(x, 4))
probe("channel_shuffle err groups", r(8, 64, 16, 16), lambda x: F.channel_shuffle(x, 5), backward=False)
probe("channel_shuffle err 2-d", r(8, 64), lambda x: F.channel_shuffle(x, 4), backward=False)

# --- pairwise distance
probe("PairwiseDistance [128,256]", mod(lambda: nn.PairwiseDistance(), (128, 256), (128, 256)), lambda m, a, b: m(a, b))
probe("pairwise_distance p=1 keepdim", r(128, 256), lambda a: F.pairwise_distance(a, a.detach() * 2, p=1, keepdim=True))
probe("pairwise_distance 1-d", r(256), lambda a: F.pairwise_distance(a, torch.randn(256, device=dev)))
probe("pairwise_distance broadcast [128,256] [256]", r(128, 256), lambda a: F.pairwise_distance(a, torch.randn(256, device=dev)))
probe("pairwise_distance p=inf", r(128, 256), lambda a: F.pairwise_distance(a, torch.randn(128, 256, device=dev), p=float("inf")))
probe("pairwise_distance p=3 f16", r(128, 256, dtype=torch.float16), lambda a: F.pairwise_distance(a, torch.randn(128, 256, device=dev, dtype=torch.float16), p=3))

# --- reprs
try:
  for m in (nn.LSTMCell(4, 8), nn.GRUCell(4, 8, bias=False), nn.RNNCell(4, 8, nonlinearity="relu"), nn.Bilinear(2, 3, 4),
          nn.EmbeddingBag(10, 3, mode="max"), nn.EmbeddingBag(10, 3, padding_idx=0), nn.Unfold(3, padding=1),
          nn.Fold((4, 5), 2), nn.PReLU(3), nn.Softmin(1), nn.Softmax2d(), nn.LocalResponseNorm(2),
          nn.AdaptiveMaxPool1d(3), nn.AdaptiveMaxPool2d((None, 3), True), nn.ChannelShuffle(2),
          nn.PairwiseDistance(p=1, keepdim=True), nn.ParameterList([nn.Parameter(torch.zeros(2, 3)), torch.zeros(4)]),
          nn.ParameterDict({"a": nn.Parameter(torch.zeros(2)), "b": torch.zeros(3, dtype=torch.float16)})):
      print("repr", repr(m).replace("\n", "\\n"))
  pl = nn.ParameterList([nn.Parameter(torch.zeros(2))])
  pl.append(torch.ones(3, device=dev))
  pl.extend([nn.Parameter(torch.zeros(1))])
  pd = nn.ParameterDict({"x": nn.Parameter(torch.zeros(2))})
  pd.update({"y": torch.zeros(1)})
  print("plist", len(pl), [type(p).__name__ for p in pl], [n for n, _ in pl.named_parameters()],
        list(pl.state_dict().keys()), pl[1].requires_grad, pl[1].device)
  print("pdict", list(pd.keys()), [n for n, _ in pd.named_parameters()], "x" in pd, pd.get("z"),
        type(pd["y"]).__name__, pd["y"].requires_grad)
except Exception as e:  # noqa: BLE001
  print("reprs", type(e).__name__, e)

# --- C++ frames of the temporaries (embedding_bag, bilinear, LSTMCell)
os.environ.setdefault("TORCH_SYMBOLIZE_MODE", "dladdr")
signal.signal(signal.SIGALRM, lambda *a: (print("cpp frames: timed out", flush=True), sys.exit(0)))
signal.alarm(120)
probe("cpp embedding_bag mean 2-d [32,10]", bag(32, 10), lambda w, i: F.embedding_bag(i, w, mode="mean"), cpp=True)
probe("cpp embedding_bag max [8,1000]", bag(8, 1000), lambda w, i: F.embedding_bag(i, w, mode="max"), cpp=True)
probe("cpp Bilinear", mod(lambda: nn.Bilinear(20, 30, 40), (128, 20), (128, 30)), lambda m, a, b: m(a, b), cpp=True)
probe("cpp LSTMCell hx", mod(lambda: nn.LSTMCell(I, H), (B, I), (B, H), (B, H)), lambda m, x, h, c: m(x, (h, c)),
      cpp=True)
signal.alarm(0)
