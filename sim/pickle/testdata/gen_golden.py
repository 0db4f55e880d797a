"""Generates the CPython-written golden pickles for sim/pickle's tests.

Run from sim/pickle:  python3 testdata/gen_golden.py
(also reachable with `go generate ./sim/pickle/`). Output is deterministic.

  snapshot_p{2,3,4,5}.pickle  a realistic torch.cuda.memory._snapshot() dict
                              (what _dump_snapshot writes), with frame dicts and
                              strings shared the way torch shares them, so the
                              memo opcodes are exercised
  snapshot.canon.sha256       SHA-256 of canon() of that dict (see pyhelper.py;
                              the canon text itself is ~0.5 MB)
  kitchen_p{2,3,4,5}.pickle   every plain-data type, incl. sets, bytes,
                              bytearray, big ints, tuple keys and surrogates
  kitchen.canon               canon() of that value
"""
import hashlib
import os
import pickle
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from pyhelper import canon  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))


def snapshot():
    rnd = random.Random(1)
    frames = [
        {"name": name, "filename": filename, "line": line}
        for name, filename, line in [
            ("forward", "/home/user/model.py", 42),
            ("_call_impl", "/usr/lib/python3.11/site-packages/torch/nn/modules/module.py", 1527),
            ("linear", "/usr/lib/python3.11/site-packages/torch/nn/functional.py", 2191),
            ("train_step", "/home/user/train.py", 88),
            ("<module>", "/home/user/train.py", 120),
            ("backward", "/usr/lib/python3.11/site-packages/torch/_tensor.py", 522),
            ("step", "/usr/lib/python3.11/site-packages/torch/optim/adam.py", 166),
        ]
    ]
    base = 0x7F3A00000000
    segments = []
    addr = base
    for s in range(12):
        large = s % 3 != 0
        total = (20 << 20) if large else (2 << 20)
        blocks, off, alloc, req_sum = [], 0, 0, 0
        while off < total:
            size = min(total - off, rnd.choice([512, 1024, 4096, 1 << 20, 4 << 20]))
            allocated = rnd.random() < 0.6
            req = size - rnd.randrange(0, 512) if allocated and size > 512 else (size if allocated else 0)
            st = "active_allocated" if allocated else "inactive"
            fr = [frames[i] for i in rnd.sample(range(len(frames)), 3)] if allocated else []
            blocks.append({"address": addr + off, "size": size, "requested_size": req, "state": st, "frames": fr})
            if allocated:
                alloc += size
                req_sum += req
            off += size
        segments.append({
            "device": 0, "address": addr, "total_size": total, "allocated_size": alloc,
            "active_size": alloc, "requested_size": req_sum, "stream": 0,
            "segment_type": "large" if large else "small", "segment_pool_id": (0, 0),
            "is_expandable": False, "frames": [], "blocks": blocks,
        })
        addr += total + (1 << 21)
    actions = ["segment_alloc", "alloc", "free_requested", "free_completed", "segment_free"]
    trace = []
    for i in range(700):
        a = actions[i % len(actions)]
        e = {"action": a, "addr": base + rnd.randrange(0, 1 << 28), "size": rnd.randrange(1, 1 << 24),
             "stream": 0, "time_us": 1733000000000000 + i * 37, "compile_context": "N/A",
             "user_metadata": ""}
        e["frames"] = [frames[j] for j in rnd.sample(range(len(frames)), 4)]
        trace.append(e)
    trace.append({"action": "snapshot", "addr": 0, "size": 123456, "stream": 0,
                  "time_us": 1733000000099999, "compile_context": "N/A", "user_metadata": ""})
    trace.append({"action": "oom", "device_free": 1 << 20, "size": 1 << 34, "stream": 0,
                  "time_us": 1733000000100000, "compile_context": "N/A", "user_metadata": "",
                  "frames": []})
    settings = {
        "PYTORCH_CUDA_ALLOC_CONF": "", "max_split_size": -1,
        "garbage_collection_threshold": 0.0, "expandable_segments": False,
        "pinned_num_register_threads": 1, "release_lock_on_cudamalloc": False,
        "pinned_use_cuda_host_register": False, "graph_capture_record_stream_reuse": False,
        "roundup_power2_divisions": {str(1 << i): 0 for i in range(16)},
    }
    return {"segments": segments, "device_traces": [trace], "allocator_settings": settings,
            "external_annotations": []}


def kitchen():
    shared = [1, 2]
    return {
        "none": None, "bools": [True, False],
        "ints": [0, 255, 256, 65535, 65536, -1, -(2**31), 2**31, 2**63 - 1, -(2**63), 2**64, -(10**80)],
        "floats": [0.0, -0.0, 1.5, 1e300, float("inf"), float("-inf"), float("nan")],
        "strs": ["", "ascii", "é日本\U0001f600", "\ud800", "x" * 300],
        "bytes": [b"", b"ab", bytes(range(256))],
        "bytearrays": [bytearray(), bytearray(b"xyz")],
        "tuples": [(), (1,), (1, 2), (1, 2, 3), (1, 2, 3, 4)],
        "sets": [set(), {1, 2, 3}, frozenset(), frozenset({7, 8})],
        (1, "tuple key"): "value", b"bytes key": 1, frozenset({9}): 2, 2**70: "big key", 1.25: None,
        "shared": [shared, shared, {"again": shared}],
        "nested": [[[[[[]]]]]],
    }


def main():
    for name, value in [("snapshot", snapshot()), ("kitchen", kitchen())]:
        for p in (2, 3, 4, 5):
            with open(os.path.join(HERE, "%s_p%d.pickle" % (name, p)), "wb") as f:
                f.write(pickle.dumps(value, protocol=p))
        text = canon(value)
        if name == "snapshot":
            with open(os.path.join(HERE, name + ".canon.sha256"), "w") as f:
                f.write(hashlib.sha256(text.encode()).hexdigest() + "\n")
        else:
            with open(os.path.join(HERE, name + ".canon"), "w") as f:
                f.write(text + "\n")


if __name__ == "__main__":
    main()
