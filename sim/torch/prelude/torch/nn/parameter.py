# torch.nn.parameter: Parameter is the binding's Tensor flavour
# (torch._sim.Parameter); isinstance(p, torch.Tensor) holds for it.
from torch import _sim

Parameter = _sim.Parameter


def is_lazy(param):
    return False
