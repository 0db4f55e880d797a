# torch.rnn_tanh_cell / torch.rnn_relu_cell (aten/src/ATen/native/RNN.cpp's
# SimpleCell, CompositeImplicitAutograd): nonlinearity(linear(input, w_ih,
# b_ih) + linear(hx, w_hh, b_hh)), so memory and grad_fn names follow from
# the composed ops: nonlinearity(linear_hh(hx).add_(linear_ih(input))), the
# hidden matmul first, the input one added in place, both temporaries
# alive until the nonlinearity is done (C++ full-expression lifetimes;
# q22 RNNCell items). The input checks are check_rnn_cell_forward_input and
# check_rnn_cell_forward_hidden.
import torch
from torch.nn import functional as F

__all__ = ["rnn_tanh_cell", "rnn_relu_cell"]


def _check(input, hx, w_ih, w_hh):
    if input.size(1) != w_ih.size(1):
        raise RuntimeError(f"input has inconsistent input_size: got {input.size(1)} expected {w_ih.size(1)}")
    if input.size(0) != hx.size(0):
        raise RuntimeError(f"Input batch size {input.size(0)} doesn't match hidden0 batch size {hx.size(0)}")
    if hx.size(1) != w_hh.size(1):
        raise RuntimeError(f"hidden0 has inconsistent hidden_size: got {hx.size(1)}, expected {w_hh.size(1)}")


def _simple_cell(nonlinearity, input, hx, w_ih, w_hh, b_ih, b_hh):
    _check(input, hx, w_ih, w_hh)
    hh = F.linear(hx, w_hh, b_hh)
    ih = F.linear(input, w_ih, b_ih)
    ret = nonlinearity(hh.add_(ih))
    del ih
    del hh
    return ret


def rnn_tanh_cell(input, hx, w_ih, w_hh, b_ih=None, b_hh=None):
    return _simple_cell(torch.tanh, input, hx, w_ih, w_hh, b_ih, b_hh)


def rnn_relu_cell(input, hx, w_ih, w_hh, b_ih=None, b_hh=None):
    return _simple_cell(torch.relu, input, hx, w_ih, w_hh, b_ih, b_hh)
