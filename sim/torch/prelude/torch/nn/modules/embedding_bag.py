# EmbeddingBag (torch/nn/modules/sparse.py of PyTorch 2.11): F.embedding_bag
# (torch/nn/_functional_more.py) over torch.embedding_bag
# (sim/torch/ops_embedding_bag.go).
import torch
from torch.nn import functional as F
from torch.nn import init
from torch.nn.parameter import Parameter
from torch.nn.modules.module import Module

__all__ = ["EmbeddingBag"]

_EDGEITEMS = 3
_THRESHOLD = 1000


def _summarized(t):
    # torch/_tensor_str.py get_summarized_data: the GPU copies printing a
    # large tensor makes (edge rows concatenated, then stacked)
    if t.dim() == 0:
        return t
    if t.dim() == 1:
        if t.size(0) > 2 * _EDGEITEMS:
            return torch.cat((t[:_EDGEITEMS], t[-_EDGEITEMS:]))
        return t
    if t.size(0) > 2 * _EDGEITEMS:
        rows = [t[i] for i in range(0, _EDGEITEMS)] + [t[i] for i in range(len(t) - _EDGEITEMS, len(t))]
        return torch.stack([_summarized(x) for x in rows])
    return torch.stack([_summarized(x) for x in t])


def _value_repr(v):
    # EmbeddingBag.extra_repr formats repr() of every attribute, the
    # _parameters dict too: repr of a CUDA tensor summarizes it on the GPU
    # (values are not simulated: only those temporaries are made; the
    # formatter's own small temporaries after them are not modelled)
    tensors = list(v.values()) if isinstance(v, dict) else [v]
    for t in tensors:
        if isinstance(t, torch.Tensor) and t.is_cuda and t.numel() > _THRESHOLD:
            with torch.no_grad():
                x = t.float() if t.dtype in (torch.float16, torch.bfloat16) else t
                s = _summarized(x)
                del x, s
    return repr(v)


class EmbeddingBag(Module):
    def __init__(self, num_embeddings, embedding_dim, max_norm=None, norm_type=2.0,
                 scale_grad_by_freq=False, mode="mean", sparse=False, _weight=None,
                 include_last_offset=False, padding_idx=None, device=None, dtype=None):
        factory_kwargs = {"device": device, "dtype": dtype}
        Module.__init__(self)
        self.num_embeddings = num_embeddings
        self.embedding_dim = embedding_dim
        self.max_norm = max_norm
        self.norm_type = norm_type
        self.scale_grad_by_freq = scale_grad_by_freq
        if padding_idx is not None:
            if padding_idx > 0:
                if not padding_idx < self.num_embeddings:
                    raise AssertionError("padding_idx must be within num_embeddings")
            elif padding_idx < 0:
                if not padding_idx >= -self.num_embeddings:
                    raise AssertionError("padding_idx must be within num_embeddings")
                padding_idx = self.num_embeddings + padding_idx
        self.padding_idx = padding_idx
        if _weight is None:
            self.weight = Parameter(torch.empty((num_embeddings, embedding_dim), **factory_kwargs))
            self.reset_parameters()
        else:
            if list(_weight.shape) != [num_embeddings, embedding_dim]:
                raise AssertionError("Shape of weight does not match num_embeddings and embedding_dim")
            self.weight = Parameter(_weight)
        self.mode = mode
        self.sparse = sparse
        self.include_last_offset = include_last_offset

    def reset_parameters(self):
        init.normal_(self.weight)
        self._fill_padding_idx_with_zero()

    def _fill_padding_idx_with_zero(self):
        if self.padding_idx is not None:
            with torch.no_grad():
                self.weight[self.padding_idx].fill_(0)

    def forward(self, input, offsets=None, per_sample_weights=None):
        return F.embedding_bag(input, self.weight, offsets, self.max_norm, self.norm_type,
                               self.scale_grad_by_freq, self.mode, self.sparse, per_sample_weights,
                               self.include_last_offset, self.padding_idx)

    def extra_repr(self):
        s = "{num_embeddings}, {embedding_dim}"
        if self.max_norm is not None:
            s += ", max_norm={max_norm}"
        if self.norm_type != 2:
            s += ", norm_type={norm_type}"
        if self.scale_grad_by_freq is not False:
            s += ", scale_grad_by_freq={scale_grad_by_freq}"
        s += ", mode={mode}"
        if self.padding_idx is not None:
            s += ", padding_idx={padding_idx}"
        return s.format(**{k: _value_repr(v) for k, v in self.__dict__.items()})
