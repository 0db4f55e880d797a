# torch.nn.utils.parametrizations (PyTorch 2.11): weight_norm and
# spectral_norm as parametrizations (parametrize.py). weight_norm moves the
# weight into original0 = g (norm_except_dim, a new tensor) and original1 =
# v (the old weight's storage) and recomputes torch._weight_norm(v, g, dim)
# on every access to module.weight. spectral_norm keeps the weight as
# original, registers the _u/_v buffers (normalized random vectors, then 15
# power iterations) and on every access runs n_power_iterations power
# iterations in training (mv, normalize into _u/_v in place), clones u and
# v, sigma = vdot(u, mv(W, v)) and returns weight / sigma. Not ported:
# orthogonal, weight_norm's load_state_dict hook for old "weight_g/weight_v"
# checkpoints.
import torch
import torch.nn.functional as F
from torch.nn.modules.module import Module
from torch.nn.utils import parametrize

__all__ = ["weight_norm", "spectral_norm"]


class _WeightNorm(Module):
    def __init__(self, dim=0):
        super().__init__()
        if dim is None:
            dim = -1
        self.dim = dim

    def forward(self, weight_g, weight_v):
        return torch._weight_norm(weight_v, weight_g, self.dim)

    def right_inverse(self, weight):
        weight_g = torch.norm_except_dim(weight, 2, self.dim)
        weight_v = weight
        return weight_g, weight_v


def weight_norm(module, name="weight", dim=0):
    _weight_norm = _WeightNorm(dim)
    parametrize.register_parametrization(module, name, _weight_norm, unsafe=True)
    return module


def _normalize_out(input, eps, out):
    # F.normalize(input, dim=0, eps=eps, out=out): the quotient is written
    # into out (no allocation); input, then the norm, die at return
    denom = input.norm(2, 0, keepdim=True).clamp_min_(eps).expand_as(input)
    return out.copy_(input).div_(denom)


def _normalize(input, eps):
    # F.normalize(input, dim=0, eps=eps) as PyTorch's Python runs it: a
    # temporary argument dies at return, before the norm
    denom = input.norm(2, 0, keepdim=True).clamp_min(eps).expand_as(input)
    return input / denom


class _SpectralNorm(Module):
    def __init__(self, weight, n_power_iterations=1, dim=0, eps=1e-12):
        super().__init__()
        ndim = weight.ndim
        if dim >= ndim or dim < -ndim:
            raise IndexError(
                "Dimension out of range (expected to be in range of "
                f"[-{ndim}, {ndim - 1}] but got {dim})")
        if n_power_iterations <= 0:
            raise ValueError(
                "Expected n_power_iterations to be positive, but "
                f"got n_power_iterations={n_power_iterations}")
        self.dim = dim if dim >= 0 else dim + ndim
        self.eps = eps
        if ndim > 1:
            self.n_power_iterations = n_power_iterations
            weight_mat = self._reshape_weight_to_matrix(weight)
            h, w = weight_mat.size()
            u = weight_mat.new_empty(h).normal_(0, 1)
            v = weight_mat.new_empty(w).normal_(0, 1)
            self.register_buffer("_u", F.normalize(u, dim=0, eps=self.eps))
            self.register_buffer("_v", F.normalize(v, dim=0, eps=self.eps))
            self._power_method(weight_mat, 15)

    def _reshape_weight_to_matrix(self, weight):
        if self.dim != 0:
            weight = weight.permute(self.dim, *(d for d in range(weight.dim()) if d != self.dim))
        return weight.flatten(1)

    def _power_method(self, weight_mat, n_power_iterations):
        with torch.no_grad():
            for _ in range(n_power_iterations):
                self._u = _normalize_out(torch.mv(weight_mat, self._v), self.eps, self._u)
                self._v = _normalize_out(torch.mv(weight_mat.t(), self._u), self.eps, self._v)

    def forward(self, weight):
        if weight.ndim == 1:
            return F.normalize(weight, dim=0, eps=self.eps)
        weight_mat = self._reshape_weight_to_matrix(weight)
        if self.training:
            self._power_method(weight_mat, self.n_power_iterations)
        u = self._u.clone(memory_format=torch.contiguous_format)
        v = self._v.clone(memory_format=torch.contiguous_format)
        sigma = torch.vdot(u, torch.mv(weight_mat, v))
        return weight / sigma

    def right_inverse(self, value):
        return value


def spectral_norm(module, name="weight", n_power_iterations=1, eps=1e-12, dim=None):
    weight = getattr(module, name, None)
    if not isinstance(weight, torch.Tensor):
        raise ValueError(f"Module '{module}' has no parameter or buffer with name '{name}'")
    if dim is None:
        if isinstance(module, (torch.nn.ConvTranspose1d, torch.nn.ConvTranspose2d, torch.nn.ConvTranspose3d)):
            dim = 1
        else:
            dim = 0
    parametrize.register_parametrization(
        module, name, _SpectralNorm(weight, n_power_iterations, dim, eps))
    return module
