# Oracle for pyfmt's differential tests: reads a JSON list of cases
# {"op": ..., "a": [...]} on stdin and prints a JSON list of results,
# "ok:<text>" or "err:<ExceptionType>: <message>".
import json
import sys
import _string


def dec(v):
    t = v["t"]
    if t == "int":
        return int(v["v"], 0)
    if t == "float":
        s = v["v"]
        return float(s) if s in ("inf", "-inf", "nan") else float.fromhex(s)
    if t == "str":
        return v.get("v", "")
    if t == "bool":
        return v["v"] == "1"
    if t == "none":
        return None
    items = [dec(x) for x in v.get("items") or []]
    if t == "tuple":
        return tuple(items)
    if t == "list":
        return items
    if t == "dict":
        return dict(zip(v.get("keys") or [], items))
    raise ValueError("bad value type " + t)


def run(op, a):
    if op == "format":
        return format(dec(a[0]), a[1])
    if op == "repr":
        return repr(dec(a[0]))
    if op == "round":
        return repr(round(dec(a[0]), int(a[1])))
    if op == "round0":
        return repr(round(dec(a[0])))
    if op == "divmod":
        q, r = divmod(dec(a[0]), dec(a[1]))
        return repr(q) + " " + repr(r)
    if op == "floordiv":
        return repr(dec(a[0]) // dec(a[1]))
    if op == "mod":
        return repr(dec(a[0]) % dec(a[1]))
    if op == "float":
        return repr(float(a[0]))
    if op == "int":
        return repr(int(a[0], int(a[1])))
    if op == "percent":
        return a[0] % dec(a[1])
    if op == "strformat":
        return a[0].format(*dec(a[1]), **dec(a[2]))
    if op == "parse":
        return json.dumps(list(_string.formatter_parser(a[0])))
    if op == "strrepr":
        return repr(a[0])
    if op == "ascii":
        return ascii(a[0])
    if op == "fstring":
        ns = dec(a[1])
        return eval(a[0], {}, ns)
    raise ValueError("bad op " + op)


def main():
    out = []
    for c in json.load(sys.stdin):
        try:
            out.append("ok:" + run(c["op"], c["a"]))
        except SyntaxError as e:
            out.append("err:SyntaxError: " + str(e.msg))
        except Exception as e:  # noqa: BLE001 - every exception is data here
            out.append("err:" + type(e).__name__ + ": " + str(e))
    json.dump(out, sys.stdout)


main()
