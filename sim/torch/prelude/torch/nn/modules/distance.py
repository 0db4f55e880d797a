# CosineSimilarity (torch/nn/modules/distance.py).
from torch.nn import functional as F
from torch.nn.modules.module import Module

__all__ = ["CosineSimilarity"]


class CosineSimilarity(Module):
    def __init__(self, dim=1, eps=1e-8):
        Module.__init__(self)
        self.dim = dim
        self.eps = eps

    def forward(self, x1, x2):
        return F.cosine_similarity(x1, x2, self.dim, self.eps)
