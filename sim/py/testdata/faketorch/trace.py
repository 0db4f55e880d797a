# Runs an oracle case under CPython with the fake torch of torch.py standing
# for every torch module, and prints the script's sys.settrace line events
# (one per line). Used by TestOracleLineEvents -update with CPython 3.12.
import os, sys, types

here = os.path.dirname(os.path.abspath(__file__))
fake_src = open(os.path.join(here, "torch.py")).read()
names = ["torch", "torch.nn", "torch.nn.functional", "torch.optim", "torch.utils",
         "torch.utils.data", "torch.utils.checkpoint", "torch.cuda", "torch.cuda.amp", "torch.amp",
         "torch.nn.utils", "torch.autograd", "torch.cuda.memory", "torch.nn.init", "torch.optim.lr_scheduler"]
for name in names:
    m = types.ModuleType(name)
    m.__file__ = "<fake>/" + name + ".py"
    exec(compile(fake_src, m.__file__, "exec"), m.__dict__)
    sys.modules[name] = m
    if "." in name:
        parent, _, child = name.rpartition(".")
        setattr(sys.modules[parent], child, m)

path = sys.argv[1]
src = open(path).read()
code = compile(src, "<script>", "exec")
ev = []
def local(frame, event, arg):
    if event == "line":
        ev.append(frame.f_lineno)
    return local
def glob(frame, event, arg):
    if frame.f_code.co_filename == "<script>":
        return local
    return None
out = sys.stdout
sys.stdout = open(os.devnull, "w")
sys.settrace(glob)
try:
    exec(code, {"__name__": "__main__"})
except BaseException as e:
    ev.append("error " + type(e).__name__)
sys.settrace(None)
sys.stdout = out
print("\n".join(map(str, ev)))
