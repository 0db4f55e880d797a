# The torch._foreach_* functions NAdam, RAdam and Adamax call: those of
# _foreach_ops plus abs, abs_, neg_, reciprocal_, sub and pow, as loops over
# the per-tensor ops (CUDA's multi_tensor_apply allocates one result per
# tensor, in list order, for an out-of-place op and nothing for an in-place
# one, as these loops do). _mu_value stands in for NAdam's mu_product value.
import torch
from torch.optim import _foreach_ops as _fo


def _scalars(other, n):
    if isinstance(other, (list, tuple)):
        return list(other)
    return [other] * n


def _py_abs(tensors):
    return [t.abs() for t in tensors]


def _py_abs_(tensors):
    for t in tensors:
        t.abs_()


def _py_neg_(tensors):
    for t in tensors:
        t.neg_()


def _py_reciprocal_(tensors):
    for t in tensors:
        t.reciprocal_()


def _py_sub(tensors, other, alpha=1):
    others = _scalars(other, len(tensors))
    return [torch.sub(t, o, alpha=alpha) for t, o in zip(tensors, others)]


def _py_pow(base, exponent):
    if isinstance(base, (list, tuple)):
        exps = _scalars(exponent, len(base))
        return [torch.pow(b, e) for b, e in zip(base, exps)]
    return [base ** e for e in exponent]  # Tensor.__rpow__: pow(Scalar, Tensor)


def _pick(name, fallback):
    f = getattr(torch, name, None)
    return f if f is not None else fallback


def _mu_value(mu_product):
    # mu_product's value (a CPU scalar): values are not simulated (item() is
    # 0), so a value outside (0, 1) reads as 0.5 to keep NAdam's step sizes
    # finite; only memory is modelled.
    v = mu_product.item() if isinstance(mu_product, torch.Tensor) else mu_product
    return v if 0 < v < 1 else 0.5


_foreach_add = _fo._foreach_add
_foreach_add_ = _fo._foreach_add_
_foreach_mul = _fo._foreach_mul
_foreach_mul_ = _fo._foreach_mul_
_foreach_div_ = _fo._foreach_div_
_foreach_lerp_ = _fo._foreach_lerp_
_foreach_addcmul_ = _fo._foreach_addcmul_
_foreach_addcdiv_ = _fo._foreach_addcdiv_
_foreach_sqrt = _fo._foreach_sqrt
_foreach_sqrt_ = _fo._foreach_sqrt_
_foreach_neg = _fo._foreach_neg
_foreach_maximum_ = _fo._foreach_maximum_
_foreach_sub_ = _fo._foreach_sub_
_foreach_abs = _pick("_foreach_abs", _py_abs)
_foreach_abs_ = _pick("_foreach_abs_", _py_abs_)
_foreach_neg_ = _pick("_foreach_neg_", _py_neg_)
_foreach_reciprocal_ = _pick("_foreach_reciprocal_", _py_reciprocal_)
_foreach_sub = _pick("_foreach_sub", _py_sub)
_foreach_pow = _pick("_foreach_pow", _py_pow)
