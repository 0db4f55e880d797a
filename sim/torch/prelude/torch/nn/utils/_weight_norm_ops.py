# torch.norm_except_dim and torch._weight_norm (ATen WeightNorm.cpp of
# PyTorch 2.11): CompositeImplicitAutograd, written here with the same ops,
# so their allocations and grad_fn names follow. _weight_norm takes the
# fused kernel (torch._weight_norm_interface, sim/torch/ops_weight_norm.go)
# for dim 0 or the last dim (half included on CUDA: q26), else v * (g / norm).
import torch

__all__ = ["norm_except_dim", "_weight_norm"]


def norm_except_dim(v, pow=2, dim=0):
    if dim == -1:
        return v.norm(pow)
    if dim == 0:
        output_size = [1] * v.dim()
        output_size[0] = v.size(0)
        return v.contiguous().view(v.size(0), -1).norm(pow, 1).view(output_size)
    if dim == v.dim() - 1:
        output_size = [1] * v.dim()
        output_size[-1] = v.size(-1)
        return v.contiguous().view(-1, v.size(-1)).norm(pow, 0).view(output_size)
    return norm_except_dim(v.transpose(0, dim), pow, 0).transpose(0, dim)


def _weight_norm(v, g, dim=0):
    if v.device != g.device:
        raise RuntimeError(
            f"weight_norm: expected v_in and g_in to be on the same device, but v_in is on {v.device} "
            f"and g_in is on {g.device}")
    v = v.contiguous()
    g = g.contiguous()
    # CUDA takes the fused kernel for half tensors too (measured, q26)
    if dim == 0 or dim == v.dim() - 1:
        return torch._weight_norm_interface(v, g, dim)[0]
    return v * (g / norm_except_dim(v, 2, dim))
