# _single/_pair helpers of torch/nn/modules/utils.py.


def _ntuple(n, x):
    if isinstance(x, (list, tuple)):
        return tuple(x)
    return tuple([x] * n)


def _single(x):
    return _ntuple(1, x)


def _pair(x):
    return _ntuple(2, x)


def _triple(x):
    return _ntuple(3, x)
