# Question 10: the temporaries of the cub radix sort behind IndexBackward0
# (index_put_ with accumulate -> index_put_with_sort_kernel) and
# EmbeddingBackward0 (embedding_dense_backward_cuda -> radix_sort_pairs, then
# embedding_backward_cuda_kernel's segment buffers), in PyTorch 2.11.
# For each case: the peak of backward over the allocation before it, and the
# caching allocator's trace during backward (torch.cuda.memory history):
# "+id:size" an allocation (the requested size), "-id" its free, ids in
# allocation order. Sizes are requested bytes where the trace keeps them.
import json
import os
import signal
import sys

import torch

torch.cuda.init()
print(json.dumps({"gpu": torch.cuda.get_device_name(), "torch": torch.__version__,
                  "cuda": torch.version.cuda, "cap": list(torch.cuda.get_device_capability())}))


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
                keep = [n for n in names if ("at::native" in n or "cub" in n or "at::cuda" in n)
                        and "CachingAllocator" not in n][:4]
                tag = "{" + " | ".join(n[:90] for n in keep) + "}"
            out.append(f"+{k}:{e['size']}{tag}")
        elif a == "free_requested":
            out.append(f"-{ids.get(e['addr'], '?')}")
        elif a == "segment_alloc":
            out.append(f"S{e['size']}")
    return out


def run_case(name, setup, cpp=False):
    torch.cuda.empty_cache()
    x, fwd = setup()
    torch.cuda.synchronize()
    base = torch.cuda.memory_allocated()
    torch.cuda.reset_peak_memory_stats()
    record(True, "all" if cpp else "python")
    start = len(torch.cuda.memory._snapshot()["device_traces"][0])
    fwd.backward()
    torch.cuda.synchronize()
    peak = torch.cuda.max_memory_allocated() - base
    snap = torch.cuda.memory._snapshot()
    record(False)
    ev = events(snap["device_traces"][0], start, cpp)
    print(f"{name} peak_delta={peak} events: {' '.join(ev)}", flush=True)
    del x, fwd


def index_case(rows, cols, n, mod=None):
    def setup():
        w = torch.randn(rows, cols, device="cuda", requires_grad=True)
        r = torch.arange(n, device="cuda") % (mod or rows)
        return w, w[r].sum()
    return setup


def emb_case(rows, dim, n, mod):
    def setup():
        e = torch.nn.Embedding(rows, dim).cuda()
        ids = torch.arange(n, device="cuda") % mod
        return e, e(ids).sum()
    return setup


# Index backward: a 4096x64 weight (12-bit sort keys, 2 onesweep passes).
for n in (100, 2300, 2304, 2305, 2306, 2320, 3072, 3073, 4096, 5000, 6144, 6145, 9216, 9217,
          10000, 50000, 100000, 200000, 1000000):
    run_case(f"index 4096x64 n={n}", index_case(4096, 64, n))
# Key widths: 256 rows (8 bits, 1 pass), 257 (9 bits), 65536 (16), 65537 (17 bits, 3 passes).
for rows, cols in ((256, 64), (257, 64), (65536, 4), (65537, 4)):
    for n in (5000, 100000):
        run_case(f"index {rows}x{cols} n={n}", index_case(rows, cols, n))
# A column vector (sliceSize 1).
run_case("index 4096x1 n=5000", index_case(4096, 1, 5000))

# Embedding backward of a 1000x32 table, ids = arange(n) % 1000.
for n in (3070, 3072, 3073, 3080, 5000, 6144, 6145, 20000, 100000):
    run_case(f"embedding 1000x32 n={n} mod=1000", emb_case(1000, 32, n, 1000))
# Segment counts: all ids distinct, few distinct ids, and a wider row.
run_case("embedding 100000x32 n=20000 mod=100000", emb_case(100000, 32, 20000, 100000))
run_case("embedding 1000x32 n=20000 mod=10", emb_case(1000, 32, 20000, 10))
run_case("embedding 1000x32 n=20000 mod=1", emb_case(1000, 32, 20000, 1))
run_case("embedding 1000x100 n=5000 mod=1000", emb_case(1000, 100, 5000, 1000))
run_case("embedding 1000x32 n=100000 mod=7", emb_case(1000, 32, 100000, 7))

# C++ frames of each allocation, for two cases (symbolizing may be slow).
os.environ.setdefault("TORCH_SYMBOLIZE_MODE", "dladdr")
signal.signal(signal.SIGALRM, lambda *a: (print("cpp frames: timed out", flush=True), sys.exit(0)))
signal.alarm(90)
run_case("cpp index 4096x64 n=5000", index_case(4096, 64, 5000), cpp=True)
run_case("cpp embedding 1000x32 n=20000 mod=1000", emb_case(1000, 32, 20000, 1000), cpp=True)
signal.alarm(0)
