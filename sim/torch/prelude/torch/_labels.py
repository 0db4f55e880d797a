# Labels for the playground's memory views: thin wrappers over the private
# hooks of torch._sim (Go), tolerant of hooks the binding does not offer.
from torch import _sim

_label = getattr(_sim, "label", None)
_push = getattr(_sim, "push_module", None)
_pop = getattr(_sim, "pop_module", None)
_name_of = getattr(_sim, "name_of", None)


def label(t, kind, name, detail=""):
    if _label is not None and t is not None:
        _label(t, kind, name, detail)


def name_of(t):
    # The label name of t's memory ("fc1.weight"), or "" when unknown.
    if _name_of is None or t is None:
        return ""
    n = _name_of(t)
    return n if n else ""


def label_state(t, what, param):
    # Optimizer state: "exp_avg of fc1.weight".
    n = name_of(param)
    label(t, "optimizer", what + " of " + n if n else what)


def push_module(name):
    if _push is not None:
        _push(name)


def pop_module():
    if _pop is not None:
        _pop()
