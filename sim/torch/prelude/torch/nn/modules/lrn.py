# LocalResponseNorm (torch/nn/modules/normalization.py of PyTorch 2.11):
# F.local_response_norm, composed in Python of mul, pad, avg_pool and pow.
from torch.nn import functional as F
from torch.nn.modules.module import Module

__all__ = ["LocalResponseNorm"]


class LocalResponseNorm(Module):
    def __init__(self, size, alpha=1e-4, beta=0.75, k=1.0):
        Module.__init__(self)
        self.size = size
        self.alpha = alpha
        self.beta = beta
        self.k = k

    def forward(self, input):
        return F.local_response_norm(input, self.size, self.alpha, self.beta, self.k)

    def extra_repr(self):
        return "{size}, alpha={alpha}, beta={beta}, k={k}".format(**self.__dict__)
