# Random-number state and cuDNN's RNN dropout state (PyTorch 2.11):
# Part 1 ("rnn" rows): every CUDA allocation and free (size, per-address id)
# of a 2-layer LSTM's training forward with dropout 0.3 after each way of
# touching the CUDA generator: none, torch.manual_seed, torch.cuda.
# manual_seed, torch.cuda.manual_seed_all, torch.cuda.set_rng_state,
# torch.set_rng_state (CPU), torch.random.fork_rng, an eval-mode call in
# between, a dropout-free LSTM call in between; plus the CUDA generator's
# offset after each (does reset_rnn_state make a new dropout state, and
# does its seed draw move the offset?).
# Part 2 ("state" rows): torch.get_rng_state() and torch.cuda.get_rng_state()
# (dtype, shape, device, every byte in hex) after manual_seed(7), after a
# CPU rand, after a CPU randn (the normal cache), after CUDA draws.
# Output: one JSON object per line.
import json

import torch
import torch.nn as nn

torch.backends.cudnn.deterministic = False


def events(fn):
    torch.cuda.synchronize()
    torch.cuda.memory._record_memory_history(max_entries=100000)
    fn()
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
    return out


def offset():
    s = torch.cuda.get_rng_state()
    return int.from_bytes(bytes(s[8:16].tolist()), "little")


lstm = nn.LSTM(8, 16, num_layers=2, dropout=0.3).cuda()
plain = nn.LSTM(8, 16, num_layers=2).cuda()
x = torch.randn(5, 3, 8, device="cuda")


def fwd():
    y, _ = lstm(x)
    del y


def row(step, touch):
    touch()
    ev = events(fwd)
    print(json.dumps({"part": "rnn", "step": step, "events": ev, "offset": offset(),
                      "allocated": torch.cuda.memory_allocated(), "reserved": torch.cuda.memory_reserved()}))


row("first", lambda: None)
row("second", lambda: None)
row("manual_seed", lambda: torch.manual_seed(1))
row("after manual_seed", lambda: None)
row("cuda.manual_seed", lambda: torch.cuda.manual_seed(2))
row("cuda.manual_seed_all", lambda: torch.cuda.manual_seed_all(3))
st = torch.cuda.get_rng_state()
row("cuda.set_rng_state", lambda: torch.cuda.set_rng_state(st))
cst = torch.get_rng_state()
row("set_rng_state (cpu)", lambda: torch.set_rng_state(cst))


def fork():
    with torch.random.fork_rng():
        torch.rand(3, device="cuda")


row("fork_rng", fork)


def seed_then_eval():
    torch.manual_seed(4)
    lstm.eval()
    with torch.no_grad():
        lstm(x)
    lstm.train()


row("manual_seed, eval call", seed_then_eval)


def seed_then_plain():
    torch.manual_seed(5)
    plain(x)


row("manual_seed, dropout-free call", seed_then_plain)
row("cuda.seed", lambda: torch.cuda.seed())
row("initial_seed read", lambda: torch.cuda.initial_seed())


def hexs(t):
    return bytes(t.tolist()).hex()


def state(step):
    c, g = torch.get_rng_state(), torch.cuda.get_rng_state()
    print(json.dumps({"part": "state", "step": step, "cpu": [str(c.dtype), list(c.shape), str(c.device), hexs(c)],
                      "cuda": [str(g.dtype), list(g.shape), str(g.device), hexs(g)],
                      "cuda_initial_seed": torch.cuda.initial_seed(), "initial_seed": torch.initial_seed()}))


torch.manual_seed(7)
state("manual_seed(7)")
torch.rand(3)
state("rand(3) cpu")
torch.randn(3)
state("randn(3) cpu")
torch.randn(1, dtype=torch.float64)
state("randn(1) f64 cpu")
torch.rand(5, device="cuda")
state("rand(5) cuda")
torch.cuda.manual_seed(11)
state("cuda.manual_seed(11)")
