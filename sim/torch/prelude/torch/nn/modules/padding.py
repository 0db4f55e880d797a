# Padding layers (torch/nn/modules/padding.py): F.pad with a fixed mode.
from torch.nn import functional as F
from torch.nn.modules.module import Module

__all__ = ["ConstantPad1d", "ConstantPad2d", "ConstantPad3d", "ZeroPad1d", "ZeroPad2d", "ZeroPad3d",
           "ReflectionPad1d", "ReflectionPad2d", "ReflectionPad3d",
           "ReplicationPad1d", "ReplicationPad2d", "ReplicationPad3d",
           "CircularPad1d", "CircularPad2d", "CircularPad3d"]


def _ntuple(padding, n):
    if isinstance(padding, (tuple, list)):
        return tuple(padding)
    return (padding,) * n


class _PadNd(Module):
    mode = "constant"
    n = 2

    def __init__(self, padding, value=None):
        Module.__init__(self)
        self.padding = _ntuple(padding, self.n)
        if value is not None:
            self.value = value

    def forward(self, input):
        if self.mode == "constant":
            return F.pad(input, self.padding, "constant", self.value)
        return F.pad(input, self.padding, self.mode)

    def extra_repr(self):
        if self.mode == "constant":
            return f"padding={self.padding}, value={self.value}"
        return f"{self.padding}"


class ConstantPad1d(_PadNd):
    n = 2

    def __init__(self, padding, value):
        _PadNd.__init__(self, padding, value)


class ConstantPad2d(_PadNd):
    n = 4

    def __init__(self, padding, value):
        _PadNd.__init__(self, padding, value)


class ConstantPad3d(_PadNd):
    n = 6

    def __init__(self, padding, value):
        _PadNd.__init__(self, padding, value)


class ZeroPad1d(ConstantPad1d):
    def __init__(self, padding):
        ConstantPad1d.__init__(self, padding, 0.0)

    def extra_repr(self):
        return f"{self.padding}"


class ZeroPad2d(ConstantPad2d):
    def __init__(self, padding):
        ConstantPad2d.__init__(self, padding, 0.0)

    def extra_repr(self):
        return f"{self.padding}"


class ZeroPad3d(ConstantPad3d):
    def __init__(self, padding):
        ConstantPad3d.__init__(self, padding, 0.0)

    def extra_repr(self):
        return f"{self.padding}"


class ReflectionPad1d(_PadNd):
    mode = "reflect"
    n = 2


class ReflectionPad2d(_PadNd):
    mode = "reflect"
    n = 4


class ReflectionPad3d(_PadNd):
    mode = "reflect"
    n = 6


class ReplicationPad1d(_PadNd):
    mode = "replicate"
    n = 2


class ReplicationPad2d(_PadNd):
    mode = "replicate"
    n = 4


class ReplicationPad3d(_PadNd):
    mode = "replicate"
    n = 6


class CircularPad1d(_PadNd):
    mode = "circular"
    n = 2


class CircularPad2d(_PadNd):
    mode = "circular"
    n = 4


class CircularPad3d(_PadNd):
    mode = "circular"
    n = 6
