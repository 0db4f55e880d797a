# The torch._foreach_* functions the optimizers call, by PyTorch's names:
# torch/_foreach.py's (the binding's own where it has them, else loops over
# the per-tensor ops) plus the ones only these optimizers need. Memory events
# equal the CUDA kernels': an out-of-place op allocates one result per tensor
# in list order, an in-place one allocates nothing.
import torch
from torch import _foreach as _base


def _scalars(other, n):
    if isinstance(other, (list, tuple)):
        return list(other)
    return [other] * n


def _py_sqrt_(tensors):
    for t in tensors:
        t.sqrt_()


def _py_sub_(tensors, other, alpha=1):
    others = _scalars(other, len(tensors))
    for t, o in zip(tensors, others):
        t.sub_(o, alpha=alpha)


def _addcmul(t, t1, t2, value=1):
    # torch.addcmul(t, t1, t2, value=v): one new result of t's (contiguous)
    # layout, the same allocation as the clone it starts from here.
    r = t.clone()
    r.addcmul_(t1, t2, value=value)
    return r


def _py_addcmul(tensors, t1, t2, value=1):
    values = _scalars(value, len(tensors))
    return [_addcmul(t, a, b, v) for t, a, b, v in zip(tensors, t1, t2, values)]


def _pick(name, fallback):
    f = getattr(torch, name, None)
    return f if f is not None else fallback


_foreach_add = _base.foreach_add
_foreach_add_ = _base.foreach_add_
_foreach_mul = _base.foreach_mul
_foreach_mul_ = _base.foreach_mul_
_foreach_div_ = _base.foreach_div_
_foreach_lerp_ = _base.foreach_lerp_
_foreach_addcmul_ = _base.foreach_addcmul_
_foreach_addcdiv_ = _base.foreach_addcdiv_
_foreach_sqrt = _base.foreach_sqrt
_foreach_neg = _base.foreach_neg
_foreach_maximum_ = _base.foreach_maximum_
_foreach_sqrt_ = _pick("_foreach_sqrt_", _py_sqrt_)
_foreach_sub_ = _pick("_foreach_sub_", _py_sub_)
_foreach_addcmul = _pick("_foreach_addcmul", _py_addcmul)
