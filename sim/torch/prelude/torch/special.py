# torch.special: PyTorch's torch/special/__init__.py binds the special_*
# ATen ops, which are CompositeImplicitAutograd aliases of the torch
# functions below (same kernels, memory and grad_fn names: special.expm1
# gives Expm1Backward0). Only the aliases of simulated ops are here.
import torch

__all__ = ["digamma", "erf", "erfc", "erfinv", "exp2", "expm1", "gammaln", "log1p", "log_softmax", "logit",
           "logsumexp", "psi", "round", "softmax", "xlogy"]

digamma = torch.digamma
psi = torch.digamma
erf = torch.erf
erfc = torch.erfc
erfinv = torch.erfinv
exp2 = torch.exp2
expm1 = torch.expm1
gammaln = torch.lgamma
log1p = torch.log1p
logit = torch.logit
logsumexp = torch.logsumexp
round = torch.round
xlogy = torch.xlogy


def softmax(input, dim, *, dtype=None):
    return torch.softmax(input, dim, dtype=dtype)


def log_softmax(input, dim, *, dtype=None):
    return torch.log_softmax(input, dim, dtype=dtype)
