# The torch._foreach_* functions the prelude needs: the binding's own (Go)
# when it has them, else Python loops over the per-tensor ops, which produce
# the same memory events (out-of-place: one result per tensor, in list
# order; in-place: none). Also _group_tensors_by_device_and_dtype.
import torch


def _scalars(other, n):
    if isinstance(other, (list, tuple)):
        return list(other)
    return [other] * n


def _py_add(tensors, other, alpha=1):
    others = _scalars(other, len(tensors))
    return [torch.add(t, o, alpha=alpha) for t, o in zip(tensors, others)]


def _py_add_(tensors, other, alpha=1):
    others = _scalars(other, len(tensors))
    for t, o in zip(tensors, others):
        t.add_(o, alpha=alpha)


def _py_mul(tensors, other):
    others = _scalars(other, len(tensors))
    return [torch.mul(t, o) for t, o in zip(tensors, others)]


def _py_mul_(tensors, other):
    others = _scalars(other, len(tensors))
    for t, o in zip(tensors, others):
        t.mul_(o)


def _py_div_(tensors, other):
    others = _scalars(other, len(tensors))
    for t, o in zip(tensors, others):
        t.div_(o)


def _py_lerp_(tensors, ends, weight):
    weights = _scalars(weight, len(tensors))
    for t, e, w in zip(tensors, ends, weights):
        t.lerp_(e, w)


def _py_addcmul_(tensors, t1, t2, value=1):
    values = _scalars(value, len(tensors))
    for t, a, b, v in zip(tensors, t1, t2, values):
        t.addcmul_(a, b, value=v)


def _py_addcdiv_(tensors, t1, t2, value=1):
    values = _scalars(value, len(tensors))
    for t, a, b, v in zip(tensors, t1, t2, values):
        t.addcdiv_(a, b, value=v)


def _py_sqrt(tensors):
    return [torch.sqrt(t) for t in tensors]


def _py_neg(tensors):
    return [torch.neg(t) for t in tensors]


def _py_zero_(tensors):
    for t in tensors:
        t.zero_()


def _py_maximum_(tensors, others):
    for t, o in zip(tensors, others):
        torch.maximum(t, o, out=t)


def _py_norm(tensors, ord=2.0):
    return [torch.linalg.vector_norm(t, ord) for t in tensors]


def _pick(name, fallback):
    f = getattr(torch, name, None)
    return f if f is not None else fallback


foreach_add = _pick("_foreach_add", _py_add)
foreach_add_ = _pick("_foreach_add_", _py_add_)
foreach_mul = _pick("_foreach_mul", _py_mul)
foreach_mul_ = _pick("_foreach_mul_", _py_mul_)
foreach_div_ = _pick("_foreach_div_", _py_div_)
foreach_lerp_ = _pick("_foreach_lerp_", _py_lerp_)
foreach_addcmul_ = _pick("_foreach_addcmul_", _py_addcmul_)
foreach_addcdiv_ = _pick("_foreach_addcdiv_", _py_addcdiv_)
foreach_sqrt = _pick("_foreach_sqrt", _py_sqrt)
foreach_neg = _pick("_foreach_neg", _py_neg)
foreach_zero_ = _pick("_foreach_zero_", _py_zero_)
foreach_maximum_ = _pick("_foreach_maximum_", _py_maximum_)
foreach_norm = _pick("_foreach_norm", _py_norm)


def group_tensors_by_device_and_dtype(tensorlistlist, with_indices=False):
    # torch._C._group_tensors_by_device_and_dtype: {(device, dtype):
    # ([list per input list], indices)} in first-seen order. Keys compare by
    # the device's and dtype's text, so fresh device objects group together.
    seen = {}
    result = {}
    first = tensorlistlist[0]
    for i in range(len(first)):
        t = first[i]
        k = (str(t.device), str(t.dtype))
        if k not in seen:
            key = (t.device, t.dtype)
            seen[k] = key
            result[key] = ([[] for _ in tensorlistlist], [])
        lists, indices = result[seen[k]]
        for j in range(len(tensorlistlist)):
            tl = tensorlistlist[j]
            if len(tl) > 0:
                lists[j].append(tl[i])
        indices.append(i)
    return result
