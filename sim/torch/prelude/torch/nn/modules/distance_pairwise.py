# PairwiseDistance (torch/nn/modules/distance.py of PyTorch 2.11).
from torch.nn import functional as F
from torch.nn.modules.module import Module

__all__ = ["PairwiseDistance"]


class PairwiseDistance(Module):
    def __init__(self, p=2.0, eps=1e-6, keepdim=False):
        Module.__init__(self)
        self.norm = p
        self.eps = eps
        self.keepdim = keepdim

    def forward(self, x1, x2):
        return F.pairwise_distance(x1, x2, self.norm, self.eps, self.keepdim)
