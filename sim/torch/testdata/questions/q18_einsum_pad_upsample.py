# Question 18 (session 13, H3): the allocator's trace of einsum, tensordot,
# outer/dot/baddbmm, addcmul/addcdiv/lerp, F.pad (4 modes), F.interpolate,
# pixel_shuffle, one_hot, normalize, cosine_similarity, hstack/vstack, movedim,
# broadcast_to, tile, diag in PyTorch 2.11, forward and backward.
# Per item, one line: out shape/stride/dtype, the autograd graph (grad_fn names,
# depth-first, AccumulateGrad left out), "F:" the forward's events, "B:" the
# backward's events (out.backward(g) with a preallocated contiguous g).
# Events: "+k:size" the k-th allocation (requested bytes), "-k" its free,
# "S<size>" a new segment; "-?" frees a block allocated before recording.
# cuBLAS workspaces are warmed up on both threads before anything is recorded.
import json

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.cuda.init()
print(json.dumps({"gpu": torch.cuda.get_device_name(), "torch": torch.__version__,
                  "cuda": torch.version.cuda, "cap": list(torch.cuda.get_device_capability())}))
try:
    import torch.backends.opt_einsum as oe
    print("opt_einsum available", oe.is_available(), "enabled", oe.enabled, "strategy", oe.strategy)
except Exception as e:  # noqa: BLE001
    print("opt_einsum", type(e).__name__, e)


def record(on):
    if not on:
        torch.cuda.memory._record_memory_history(enabled=None)
        return
    torch.cuda.memory._record_memory_history(enabled="all", context=None, stacks="python",
                                             max_entries=200000)


def events(trace, start):
    ids, out, k = {}, [], 0
    for e in trace[start:]:
        a = e.get("action")
        if a == "alloc":
            k += 1
            ids[e["addr"]] = k
            out.append(f"+{k}:{e['size']}")
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


# warm-up: cuBLAS workspaces of the main and the autograd thread
w = torch.randn(8, 8, device="cuda", requires_grad=True)
(w @ w).sum().backward()
(torch.randn(2, 8, 8, device="cuda", requires_grad=True).bmm(torch.randn(2, 8, 8, device="cuda"))).sum().backward()
del w
torch.cuda.synchronize()


def probe(label, make, op, backward=True):
    try:
        ins = make()
        torch.cuda.synchronize()
        record(True)
        s0 = trace_len()
        out = op(*ins)
        torch.cuda.synchronize()
        s1 = trace_len()
        fwd = events(torch.cuda.memory._snapshot()["device_traces"][0], s0)
        desc = f"{tuple(out.shape)} {out.stride()} {str(out.dtype)[6:]} {graph(out.grad_fn)}"
        bwd = []
        if backward and out.requires_grad:
            g = torch.ones_like(out)
            torch.cuda.synchronize()
            s1 = trace_len()
            out.backward(g)
            torch.cuda.synchronize()
            bwd = events(torch.cuda.memory._snapshot()["device_traces"][0], s1)
        record(False)
        print(f"{label} | {desc} | F: {' '.join(fwd)} | B: {' '.join(bwd)}", flush=True)
    except Exception as e:  # noqa: BLE001
        record(False)
        print(f"{label} | {type(e).__name__}: {str(e).splitlines()[0][:200]}", flush=True)


def r(*shape, dtype=torch.float32, grad=True):
    return lambda: [torch.randn(*shape, device="cuda", dtype=dtype).requires_grad_(grad)]


def rs(*shapes):
    return lambda: [torch.randn(*s, device="cuda").requires_grad_(True) for s in shapes]


E = torch.einsum
for eq, shapes in [
    ("bij,bjk->bik", [(4, 5, 6), (4, 6, 7)]),
    ("bhqd,bhkd->bhqk", [(2, 3, 5, 8), (2, 3, 7, 8)]),
    ("bhqk,bhkd->bhqd", [(2, 3, 5, 7), (2, 3, 7, 8)]),
    ("ij,j->i", [(5, 6), (6,)]),
    ("i,j->ij", [(5,), (6,)]),
    ("ij,kj->ik", [(5, 6), (7, 6)]),
    ("ij,jk", [(5, 6), (6, 7)]),
    ("bld,dh->blh", [(2, 5, 6), (6, 7)]),
    ("bi,bi->b", [(5, 6), (5, 6)]),
    ("ij,ij->", [(5, 6), (5, 6)]),
    ("ij,ij->ij", [(5, 6), (5, 6)]),
    ("...ij,...jk->...ik", [(2, 3, 5, 6), (2, 3, 6, 7)]),
    ("bij,bkj->bik", [(4, 5, 6), (4, 7, 6)]),
    ("bij,jk->bk", [(4, 5, 6), (6, 7)]),
    ("ij->ji", [(5, 6)]),
    ("ii->i", [(5, 5)]),
    ("ii", [(5, 5)]),
    ("bij->b", [(4, 5, 6)]),
    ("bij->bji", [(4, 5, 6)]),
    ("ijk->", [(4, 5, 6)]),
    ("bn,anm,bm->ba", [(4, 5), (3, 5, 6), (4, 6)]),
    ("ij,jk,kl->il", [(5, 6), (6, 7), (7, 3)]),
    ("ijk,ikl,ilm->ijm", [(2, 3, 4), (2, 4, 5), (2, 5, 6)]),
    ("bi,bj,bk->bijk", [(2, 3), (2, 4), (2, 5)]),
    ("nchw,nchw->nc", [(2, 3, 4, 5), (2, 3, 4, 5)]),
    ("ab,cd->abcd", [(2, 3), (4, 5)]),
    ("bqhd,bkhd->bhqk", [(2, 5, 3, 8), (2, 7, 3, 8)]),
]:
    probe(f"einsum {eq} {shapes}", rs(*shapes), lambda *t, eq=eq: E(eq, *t))
probe("einsum list-operands bij,bjk->bik", rs((4, 5, 6), (4, 6, 7)), lambda a, b: E("bij,bjk->bik", [a, b]))
probe("einsum bij,bjk->bik fp16", lambda: [torch.randn(4, 5, 6, device="cuda", dtype=torch.half, requires_grad=True),
                                          torch.randn(4, 6, 7, device="cuda", dtype=torch.half, requires_grad=True)],
      lambda a, b: E("bij,bjk->bik", a, b))
probe("einsum big bij,bjk->bik", rs((8, 128, 256), (8, 256, 64)), lambda a, b: E("bij,bjk->bik", a, b))
probe("einsum big bthd,bshd->bhts", rs((4, 64, 8, 32), (4, 64, 8, 32)), lambda a, b: E("bthd,bshd->bhts", a, b))

probe("tensordot dims=2", rs((3, 4, 5), (4, 5, 6)), lambda a, b: torch.tensordot(a, b, dims=2))
probe("tensordot dims=([1,0],[0,1])", rs((3, 4, 5), (4, 3, 6)), lambda a, b: torch.tensordot(a, b, dims=([1, 0], [0, 1])))
probe("tensordot dims=([2],[0])", rs((3, 4, 5), (5, 6)), lambda a, b: torch.tensordot(a, b, dims=([2], [0])))
probe("tensordot dims=0", rs((3, 4), (5,)), lambda a, b: torch.tensordot(a, b, dims=0))
probe("outer", rs((5,), (6,)), lambda a, b: torch.outer(a, b))
probe("ger", rs((5,), (6,)), lambda a, b: torch.ger(a, b))
probe("dot", rs((7,), (7,)), lambda a, b: torch.dot(a, b))
probe("vdot", rs((7,), (7,)), lambda a, b: torch.vdot(a, b))
probe("baddbmm", rs((4, 5, 7), (4, 5, 6), (4, 6, 7)), lambda m, a, b: torch.baddbmm(m, a, b))
probe("baddbmm bcast beta=0.5 alpha=2", rs((5, 7), (4, 5, 6), (4, 6, 7)), lambda m, a, b: torch.baddbmm(m, a, b, beta=0.5, alpha=2))
probe("baddbmm beta=0", rs((4, 5, 7), (4, 5, 6), (4, 6, 7)), lambda m, a, b: m.baddbmm(a, b, beta=0))
probe("baddbmm_ on clone", rs((4, 5, 7), (4, 5, 6), (4, 6, 7)), lambda m, a, b: m.clone().baddbmm_(a, b, alpha=0.5))
probe("addbmm", rs((5, 7), (4, 5, 6), (4, 6, 7)), lambda m, a, b: torch.addbmm(m, a, b))
probe("addmv", rs((5,), (5, 6), (6,)), lambda m, a, b: torch.addmv(m, a, b))
probe("addr", rs((5, 6), (5,), (6,)), lambda m, a, b: torch.addr(m, a, b))

probe("addcmul value=0.5", rs((5, 6), (5, 6), (5, 6)), lambda t, a, b: torch.addcmul(t, a, b, value=0.5))
probe("addcmul default", rs((5, 6), (5, 6), (5, 6)), lambda t, a, b: t.addcmul(a, b))
probe("addcmul bcast", rs((5, 6), (5, 1), (1, 6)), lambda t, a, b: torch.addcmul(t, a, b))
probe("addcmul_ on clone", rs((5, 6), (5, 6), (5, 6)), lambda t, a, b: t.clone().addcmul_(a, b, value=2))
probe("addcdiv value=0.5", rs((5, 6), (5, 6), (5, 6)), lambda t, a, b: torch.addcdiv(t, a, b, value=0.5))
probe("addcdiv_ on clone", rs((5, 6), (5, 6), (5, 6)), lambda t, a, b: t.clone().addcdiv_(a, b))
probe("lerp scalar", rs((5, 6), (5, 6)), lambda a, b: torch.lerp(a, b, 0.3))
probe("lerp tensor", rs((5, 6), (5, 6), (5, 6)), lambda a, b, c: torch.lerp(a, b, c))
probe("lerp_ scalar on clone", rs((5, 6), (5, 6)), lambda a, b: a.clone().lerp_(b, 0.3))

x4 = r(2, 3, 8, 9)
probe("pad constant (1,2,3,4)", x4, lambda x: F.pad(x, (1, 2, 3, 4)))
probe("pad constant value=1.5 (1,1)", x4, lambda x: F.pad(x, (1, 1), value=1.5))
probe("pad constant negative (-1,2,0,-2)", x4, lambda x: F.pad(x, (-1, 2, 0, -2)))
probe("pad constant 6-tuple", x4, lambda x: F.pad(x, (1, 1, 1, 1, 1, 1)))
probe("pad constant non-contiguous", x4, lambda x: F.pad(x.transpose(2, 3), (1, 1)))
probe("pad constant channels_last", x4, lambda x: F.pad(x.contiguous(memory_format=torch.channels_last), (1, 1, 1, 1)))
probe("pad reflect (1,1,2,2)", x4, lambda x: F.pad(x, (1, 1, 2, 2), mode="reflect"))
probe("pad replicate (1,1,2,2)", x4, lambda x: F.pad(x, (1, 1, 2, 2), mode="replicate"))
probe("pad circular (1,1,2,2)", x4, lambda x: F.pad(x, (1, 1, 2, 2), mode="circular"))
probe("pad reflect 3d input (2,3)", r(2, 3, 10), lambda x: F.pad(x, (2, 3), mode="reflect"))
probe("pad replicate 3d input (2,3)", r(2, 3, 10), lambda x: F.pad(x, (2, 3), mode="replicate"))
probe("pad circular 3d input (2,3)", r(2, 3, 10), lambda x: F.pad(x, (2, 3), mode="circular"))
probe("pad replicate 5d (1,1,1,1,1,1)", r(2, 3, 4, 5, 6), lambda x: F.pad(x, (1, 1, 1, 1, 1, 1), mode="replicate"))
probe("pad reflect 5d (1,1,1,1,1,1)", r(2, 3, 4, 5, 6), lambda x: F.pad(x, (1, 1, 1, 1, 1, 1), mode="reflect"))
probe("pad reflect 3-d unbatched (1,1,1,1)", r(3, 8, 9), lambda x: F.pad(x, (1, 1, 1, 1), mode="reflect"))
probe("pad reflect fp16", r(2, 3, 8, 9, dtype=torch.half), lambda x: F.pad(x, (1, 1, 2, 2), mode="reflect"))
probe("ReflectionPad2d(2)", x4, lambda x: nn.ReflectionPad2d(2)(x))
probe("ZeroPad2d((1,0,1,0))", x4, lambda x: nn.ZeroPad2d((1, 0, 1, 0))(x))

probe("interp nearest x2", x4, lambda x: F.interpolate(x, scale_factor=2))
probe("interp nearest size=(5,7)", x4, lambda x: F.interpolate(x, size=(5, 7), mode="nearest"))
probe("interp nearest x1.5", x4, lambda x: F.interpolate(x, scale_factor=1.5, mode="nearest"))
probe("interp nearest-exact x2", x4, lambda x: F.interpolate(x, scale_factor=2, mode="nearest-exact"))
probe("interp bilinear x2", x4, lambda x: F.interpolate(x, scale_factor=2, mode="bilinear"))
probe("interp bilinear x2 ac=True", x4, lambda x: F.interpolate(x, scale_factor=2, mode="bilinear", align_corners=True))
probe("interp bilinear size=(16,20)", x4, lambda x: F.interpolate(x, size=(16, 20), mode="bilinear", align_corners=False))
probe("interp bilinear channels_last", x4, lambda x: F.interpolate(x.contiguous(memory_format=torch.channels_last), scale_factor=2, mode="bilinear"))
probe("interp nearest channels_last", x4, lambda x: F.interpolate(x.contiguous(memory_format=torch.channels_last), scale_factor=2))
probe("interp bilinear non-contiguous", x4, lambda x: F.interpolate(x.transpose(2, 3), scale_factor=2, mode="bilinear"))
probe("interp bilinear fp16", r(2, 3, 8, 9, dtype=torch.half), lambda x: F.interpolate(x, scale_factor=2, mode="bilinear"))
probe("interp bilinear antialias down", x4, lambda x: F.interpolate(x, size=(4, 4), mode="bilinear", antialias=True))
probe("interp bicubic x2", x4, lambda x: F.interpolate(x, scale_factor=2, mode="bicubic"))
probe("interp area size=(4,3)", x4, lambda x: F.interpolate(x, size=(4, 3), mode="area"))
probe("interp linear 1d x2", r(2, 3, 10), lambda x: F.interpolate(x, scale_factor=2, mode="linear"))
probe("interp nearest 1d x2", r(2, 3, 10), lambda x: F.interpolate(x, scale_factor=2))
probe("interp nearest 3d x2", r(2, 3, 4, 5, 6), lambda x: F.interpolate(x, scale_factor=2))
probe("interp trilinear 3d x2", r(2, 3, 4, 5, 6), lambda x: F.interpolate(x, scale_factor=2, mode="trilinear"))
probe("Upsample(scale_factor=2)", x4, lambda x: nn.Upsample(scale_factor=2)(x))
probe("Upsample bilinear ac=True", x4, lambda x: nn.Upsample(scale_factor=2, mode="bilinear", align_corners=True)(x))
probe("UpsamplingNearest2d", x4, lambda x: nn.UpsamplingNearest2d(scale_factor=2)(x))
probe("UpsamplingBilinear2d", x4, lambda x: nn.UpsamplingBilinear2d(scale_factor=2)(x))

probe("pixel_shuffle 2", r(2, 12, 5, 6), lambda x: F.pixel_shuffle(x, 2))
probe("pixel_shuffle 3-d", r(12, 5, 6), lambda x: F.pixel_shuffle(x, 2))
probe("pixel_unshuffle 2", r(2, 3, 10, 12), lambda x: F.pixel_unshuffle(x, 2))
probe("pixel_shuffle channels_last", r(2, 12, 5, 6), lambda x: F.pixel_shuffle(x.contiguous(memory_format=torch.channels_last), 2))
probe("one_hot n=10", lambda: [torch.randint(0, 10, (6,), device="cuda")], lambda i: F.one_hot(i, 10))
probe("one_hot 2-d n=7", lambda: [torch.randint(0, 7, (4, 5), device="cuda")], lambda i: F.one_hot(i, num_classes=7))
probe("one_hot n=-1", lambda: [torch.arange(6, device="cuda") % 4], lambda i: F.one_hot(i))
probe("one_hot float use", lambda: [torch.randint(0, 10, (6,), device="cuda")], lambda i: F.one_hot(i, 10).float())
probe("normalize dim=1", r(4, 6), lambda x: F.normalize(x, dim=1))
probe("normalize default 3-d", r(2, 3, 5), lambda x: F.normalize(x))
probe("normalize p=1 dim=-1", r(2, 3, 5), lambda x: F.normalize(x, p=1, dim=-1))
probe("cosine_similarity dim=1", rs((4, 6), (4, 6)), lambda a, b: F.cosine_similarity(a, b))
probe("cosine_similarity bcast", rs((4, 6), (1, 6)), lambda a, b: F.cosine_similarity(a, b, dim=1))
probe("cosine_similarity dim=-1 3-d", rs((2, 3, 5), (2, 3, 5)), lambda a, b: F.cosine_similarity(a, b, dim=-1))
probe("CosineSimilarity module", rs((4, 6), (4, 6)), lambda a, b: nn.CosineSimilarity(dim=1, eps=1e-6)(a, b))

probe("Unflatten", r(2, 12), lambda x: nn.Unflatten(1, (3, 4))(x))
probe("hstack 1-d", rs((5,), (6,)), lambda a, b: torch.hstack([a, b]))
probe("hstack 2-d", rs((3, 4), (3, 5)), lambda a, b: torch.hstack((a, b)))
probe("vstack 1-d", rs((5,), (5,)), lambda a, b: torch.vstack([a, b]))
probe("vstack 2-d", rs((3, 4), (2, 4)), lambda a, b: torch.vstack([a, b]))
probe("movedim 0->2", r(2, 3, 4), lambda x: torch.movedim(x, 0, 2))
probe("movedim lists", r(2, 3, 4), lambda x: x.movedim((0, 1), (2, 0)))
probe("moveaxis", r(2, 3, 4), lambda x: torch.moveaxis(x, -1, 0))
probe("broadcast_to", r(1, 5), lambda x: torch.broadcast_to(x, (4, 5)))
probe("broadcast_to method -1", r(3, 1), lambda x: x.broadcast_to(2, -1, 5))
probe("tile (2,3)", r(3, 4), lambda x: torch.tile(x, (2, 3)))
probe("tile (2,) on 2-d", r(3, 4), lambda x: x.tile((2,)))
probe("tile (2,1,1) on 2-d", r(3, 4), lambda x: x.tile((2, 1, 1)))
probe("repeat (2,1,3)", r(3, 4), lambda x: x.repeat(2, 1, 3))
probe("diag 1-d", r(5), lambda x: torch.diag(x))
probe("diag 1-d offset=1", r(5), lambda x: torch.diag(x, 1))
probe("diag 2-d", r(5, 5), lambda x: torch.diag(x))
probe("diag 2-d offset=-1 rect", r(5, 6), lambda x: x.diag(-1))
probe("diag_embed", r(2, 5), lambda x: torch.diag_embed(x))
probe("diagflat", r(2, 3), lambda x: torch.diagflat(x))

# Errors (message only)
def err(label, f):
    try:
        f()
        print(f"err {label} | no error")
    except Exception as e:  # noqa: BLE001
        print(f"err {label} | {type(e).__name__}: {str(e).splitlines()[0][:240]}")


a56, a67, v5 = torch.randn(5, 6, device="cuda"), torch.randn(6, 7, device="cuda"), torch.randn(5, device="cuda")
err("einsum wrong operand count", lambda: E("ij,jk->ik", a56))
err("einsum subscripts vs dims", lambda: E("ijk,jk->ik", a56, a67))
err("einsum size mismatch", lambda: E("ij,jk->ik", a56, a56))
err("einsum bad output label", lambda: E("ij,jk->iz", a56, a67))
err("einsum repeated output", lambda: E("ij,jk->ii", a56, a67))
err("einsum invalid char", lambda: E("i1,jk->ik", a56, a67))
err("einsum no operands", lambda: E("ij->ij"))
err("einsum dtype mismatch", lambda: E("ij,jk->ik", a56, a67.double()))
err("tensordot mismatch", lambda: torch.tensordot(a56, a56, dims=1))
err("dot 2-d", lambda: torch.dot(a56, v5))
err("dot size", lambda: torch.dot(v5, torch.randn(6, device="cuda")))
err("dot dtype", lambda: torch.dot(v5, v5.double()))
err("outer 2-d", lambda: torch.outer(a56, v5))
err("baddbmm shape", lambda: torch.baddbmm(torch.randn(4, 5, 7, device="cuda"), torch.randn(4, 5, 6, device="cuda"), torch.randn(4, 5, 7, device="cuda")))
err("pad reflect too large", lambda: F.pad(torch.randn(2, 3, 4, 4, device="cuda"), (4, 4), mode="reflect"))
err("pad odd length", lambda: F.pad(a56, (1, 2, 3)))
err("pad too long", lambda: F.pad(a56, (1, 1, 1, 1, 1, 1)))
err("pad reflect 2-d input 4-pad", lambda: F.pad(a56, (1, 1, 1, 1), mode="reflect"))
err("pad circular too large", lambda: F.pad(torch.randn(2, 3, 4, 4, device="cuda"), (5, 5), mode="circular"))
err("pad bad mode", lambda: F.pad(a56, (1, 1), mode="wrap"))
err("pad replicate value", lambda: F.pad(torch.randn(2, 3, 4, device="cuda"), (1, 1), mode="replicate", value=1.0))
err("interp both size and scale", lambda: F.interpolate(torch.randn(1, 1, 4, 4, device="cuda"), size=8, scale_factor=2))
err("interp none", lambda: F.interpolate(torch.randn(1, 1, 4, 4, device="cuda")))
err("interp bilinear 3-d", lambda: F.interpolate(torch.randn(1, 4, 4, device="cuda"), scale_factor=2, mode="bilinear"))
err("interp bad mode", lambda: F.interpolate(torch.randn(1, 1, 4, 4, device="cuda"), scale_factor=2, mode="cubic"))
err("interp ac with nearest", lambda: F.interpolate(torch.randn(1, 1, 4, 4, device="cuda"), scale_factor=2, align_corners=True))
err("interp size len", lambda: F.interpolate(torch.randn(1, 1, 4, 4, device="cuda"), size=(2, 3, 4)))
err("pixel_shuffle channels", lambda: F.pixel_shuffle(torch.randn(1, 6, 4, 4, device="cuda"), 2))
err("pixel_shuffle 2-d", lambda: F.pixel_shuffle(a56, 2))
err("one_hot float", lambda: F.one_hot(v5, 3))
err("one_hot n too small cpu", lambda: F.one_hot(torch.tensor([3, 5]), 4))
err("cosine shapes", lambda: F.cosine_similarity(a56, torch.randn(4, 6, device="cuda")))
err("hstack empty", lambda: torch.hstack([]))
err("vstack mismatch", lambda: torch.vstack([a56, a67]))
err("movedim repeated", lambda: torch.movedim(a56, (0, 0), (0, 1)))
err("movedim length", lambda: torch.movedim(a56, (0, 1), (0,)))
err("broadcast_to", lambda: torch.broadcast_to(a56, (4, 5)))
err("tile negative", lambda: a56.tile((-1, 2)))
err("repeat fewer dims", lambda: a56.repeat(2))
err("diag 3-d", lambda: torch.diag(torch.randn(2, 3, 4, device="cuda")))
err("Unflatten bad", lambda: nn.Unflatten(1, (4, 4))(a56))
print("done")
