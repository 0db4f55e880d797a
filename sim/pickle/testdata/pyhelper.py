"""Differential-test helper for sim/pickle: runs CPython's pickle on request.

Reads one JSON request from stdin, writes one JSON reply to stdout.
  {"op": "loads", "pickles": [hex, ...]}
      -> {"results": [{"canon": str} | {"error": str}, ...]}
  {"op": "dumps", "exprs": [python expression, ...], "protocols": [2, 3, 4, 5]}
      -> {"results": [{"canon": str, "pickles": {"2": hex, ...},
                        "optimized": {"2": hex, ...}, "memo": {"2": bool, ...}}, ...]}
"optimized" is pickletools.optimize of the pickle; "memo" says whether it
still holds GET opcodes (shared objects), in which case a memo-free writer
cannot be byte-identical.
canon() must match canon() in canon_test.go.
"""
import json
import pickle
import pickletools
import struct
import sys


def canon(v):
    t = type(v)
    if v is None:
        return "N"
    if t is bool:
        return "T" if v else "F"
    if t is int:
        return "i%d" % v
    if t is float:
        return "f" + struct.pack(">d", v).hex()
    if t is str:
        return "s" + v.encode("utf-8", "surrogatepass").hex()
    if t is bytes:
        return "b" + v.hex()
    if t is bytearray:
        return "a" + v.hex()
    if t is list:
        return "[" + ",".join(canon(x) for x in v) + "]"
    if t is tuple:
        return "(" + ",".join(canon(x) for x in v) + ")"
    if t is dict:
        return "{" + ",".join(canon(k) + ":" + canon(x) for k, x in v.items()) + "}"
    if t is set:
        return "set{" + ",".join(sorted(canon(x) for x in v)) + "}"
    if t is frozenset:
        return "fset{" + ",".join(sorted(canon(x) for x in v)) + "}"
    raise TypeError("canon: unexpected type %r" % t)


def has_get(data):
    return any(op.name in ("GET", "BINGET", "LONG_BINGET") for op, _, _ in pickletools.genops(data))


def main():
    sys.setrecursionlimit(10000)
    req = json.load(sys.stdin)
    out = []
    if req["op"] == "loads":
        for h in req["pickles"]:
            try:
                out.append({"canon": canon(pickle.loads(bytes.fromhex(h)))})
            except Exception as e:  # reported to the Go test
                out.append({"error": "%s: %s" % (type(e).__name__, e)})
    elif req["op"] == "dumps":
        for src in req["exprs"]:
            v = eval(src)
            try:
                c = canon(v)
            except RecursionError:  # self-containing values have no canon form
                c = None
            r = {"canon": c, "pickles": {}, "optimized": {}, "memo": {}}
            for p in req["protocols"]:
                data = pickle.dumps(v, protocol=p)
                opt = pickletools.optimize(data)
                r["pickles"][str(p)] = data.hex()
                r["optimized"][str(p)] = opt.hex()
                r["memo"][str(p)] = has_get(opt)
            out.append(r)
    else:
        raise SystemExit("unknown op %r" % req["op"])
    json.dump({"results": out}, sys.stdout)


if __name__ == "__main__":
    main()
