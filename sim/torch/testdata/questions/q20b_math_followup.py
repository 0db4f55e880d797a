# Question 20b (H1 follow-up): a few grad_fn names and backward orders the
# first batch did not show. One line per item; never raises.
import torch

dev = "cuda"


def show(name, f):
    try:
        print(name, "|", f(), flush=True)
    except Exception as e:  # noqa: BLE001
        print(name, "| ERR", type(e).__name__, str(e)[:200], flush=True)


x = torch.randn(64, 1000, device=dev, requires_grad=True)
show("aminmax grad_fn", lambda: [type(t.grad_fn).__name__ if t.grad_fn else None for t in torch.aminmax(x)]
     + [t.requires_grad for t in torch.aminmax(x, dim=1)])
show("dist p=0 grad_fn", lambda: type(torch.dist(x, x.detach() * 2, 0).grad_fn).__name__)
show("count_nonzero requires_grad", lambda: torch.count_nonzero(x).requires_grad)
show("amax dim grad_fn", lambda: (type(x.amax(1).grad_fn).__name__, type(torch.amin(x, (0, 1)).grad_fn).__name__,
                                  type(x.amax().grad_fn).__name__))
show("cummax 1-d values strides", lambda: [tuple(t.stride()) for t in torch.cummax(x.t()[0], 0)])
show("cdist 2-d mm out", lambda: (type(torch.cdist(x, x[:30]).grad_fn).__name__, tuple(torch.cdist(x, x[:30]).stride())))
show("kron grad_fn 1-d", lambda: type(torch.kron(x[0], x[1]).grad_fn).__name__)
show("inner 1-d grad_fn", lambda: type(torch.inner(x[0], x[1]).grad_fn).__name__)
show("allclose value same", lambda: torch.allclose(x, x))
show("xlogy_ grad_fn", lambda: type(x.clone().xlogy_(x).grad_fn).__name__)
show("sgn_ then sum", lambda: type(x.clone().sgn_().grad_fn).__name__)
show("diff n=0 grad_fn", lambda: type(x.diff(n=0).grad_fn).__name__)


def trace_bwd(name, make):
    try:
        torch.cuda.synchronize()
        loss = make()
        torch.cuda.memory._record_memory_history(enabled="all", context="alloc", stacks="python", max_entries=100000)
        start = len(torch.cuda.memory._snapshot()["device_traces"][0])
        loss.backward()
        torch.cuda.synchronize()
        tr = torch.cuda.memory._snapshot()["device_traces"][0][start:]
        torch.cuda.memory._record_memory_history(enabled=None)
        ids, k, out = {}, 0, []
        for e in tr:
            if e["action"] == "alloc":
                k += 1
                ids[e["addr"]] = k
                out.append(f"+{k}:{e['size']}")
            elif e["action"] == "free_requested":
                out.append(f"-{ids.get(e['addr'], '?')}")
        print(name, "| B:", " ".join(out), flush=True)
    except Exception as e:  # noqa: BLE001
        torch.cuda.memory._record_memory_history(enabled=None)
        print(name, "| ERR", type(e).__name__, str(e)[:200], flush=True)


y = torch.randn(64, 1000, device=dev, requires_grad=True)
trace_bwd("std_mean both", lambda: sum(t.sum() for t in torch.std_mean(y, dim=1)))
trace_bwd("var_mean both all", lambda: sum(t.sum() for t in torch.var_mean(y)))
trace_bwd("sgn mul", lambda: torch.sgn(y).mul(y).sum())
trace_bwd("amax dim1", lambda: y.amax(dim=1).sum())
trace_bwd("amin dims keep", lambda: y.amin(dim=(0, 1), keepdim=True).sum())
