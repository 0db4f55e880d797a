# Dropout (torch/nn/modules/dropout.py); F.dropout returns its input itself
# when not training.
from torch.nn import functional as F
from torch.nn.modules.module import Module

__all__ = ["Dropout"]


class _DropoutNd(Module):
    def __init__(self, p=0.5, inplace=False):
        Module.__init__(self)
        if p < 0 or p > 1:
            raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
        self.p = p
        self.inplace = inplace

    def extra_repr(self):
        return f"p={self.p}, inplace={self.inplace}"


class Dropout(_DropoutNd):
    def forward(self, input):
        return F.dropout(input, self.p, self.training, self.inplace)
