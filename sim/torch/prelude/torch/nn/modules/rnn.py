# RNN, LSTM, GRU (torch/nn/modules/rnn.py of PyTorch 2.11, without
# proj_size; PackedSequence input through the packed _VF overloads): the weights are flattened into one cuDNN
# buffer on every _apply (.cuda(), .to()), and forward calls torch.lstm /
# gru / rnn_tanh / rnn_relu (the _VF functions), which the playground
# models as cuDNN's _cudnn_rnn (sim/torch/rnn.go).
import math
import warnings

import torch
from torch.nn import init
from torch.nn.parameter import Parameter
from torch.nn.modules.module import Module
from torch.nn.utils.rnn_packed import PackedSequence

__all__ = ["RNNBase", "RNN", "LSTM", "GRU"]

_rnn_impls = {"RNN_TANH": torch.rnn_tanh, "RNN_RELU": torch.rnn_relu}


class RNNBase(Module):
    def __init__(self, mode, input_size, hidden_size, num_layers=1, bias=True,
                 batch_first=False, dropout=0.0, bidirectional=False, proj_size=0,
                 device=None, dtype=None):
        factory_kwargs = {"device": device, "dtype": dtype}
        Module.__init__(self)
        self.mode = mode
        self.input_size = input_size
        self.hidden_size = hidden_size
        self.num_layers = num_layers
        self.bias = bias
        self.batch_first = batch_first
        self.dropout = float(dropout)
        self.bidirectional = bidirectional
        self.proj_size = proj_size
        num_directions = 2 if bidirectional else 1
        if (not isinstance(dropout, (int, float)) or isinstance(dropout, bool)
                or not 0 <= dropout <= 1):
            raise ValueError(
                "dropout should be a number in range [0, 1] "
                "representing the probability of an element being zeroed"
            )
        if dropout > 0 and num_layers == 1:
            warnings.warn(
                "dropout option adds dropout after all but last "
                "recurrent layer, so non-zero dropout expects "
                f"num_layers greater than 1, but got dropout={dropout} and "
                f"num_layers={num_layers}"
            )
        if not isinstance(hidden_size, int):
            raise TypeError(f"hidden_size should be of type int, got: {type(hidden_size).__name__}")
        if hidden_size <= 0:
            raise ValueError("hidden_size must be greater than zero")
        if num_layers <= 0:
            raise ValueError("num_layers must be greater than zero")
        if proj_size < 0:
            raise ValueError("proj_size should be a positive integer or zero to disable projections")
        if proj_size >= hidden_size:
            raise ValueError("proj_size has to be smaller than hidden_size")
        if proj_size > 0:
            raise NotImplementedError("the playground does not model LSTM projections (proj_size > 0)")
        if mode == "LSTM":
            gate_size = 4 * hidden_size
        elif mode == "GRU":
            gate_size = 3 * hidden_size
        elif mode == "RNN_TANH" or mode == "RNN_RELU":
            gate_size = hidden_size
        else:
            raise ValueError("Unrecognized RNN mode: " + mode)
        self._flat_weights_names = []
        self._all_weights = []
        for layer in range(num_layers):
            for direction in range(num_directions):
                layer_input_size = input_size if layer == 0 else hidden_size * num_directions
                w_ih = Parameter(torch.empty((gate_size, layer_input_size), **factory_kwargs))
                w_hh = Parameter(torch.empty((gate_size, hidden_size), **factory_kwargs))
                b_ih = Parameter(torch.empty(gate_size, **factory_kwargs))
                b_hh = Parameter(torch.empty(gate_size, **factory_kwargs))
                if bias:
                    layer_params = (w_ih, w_hh, b_ih, b_hh)
                else:
                    layer_params = (w_ih, w_hh)
                suffix = "_reverse" if direction == 1 else ""
                param_names = ["weight_ih_l{}{}", "weight_hh_l{}{}"]
                if bias:
                    param_names += ["bias_ih_l{}{}", "bias_hh_l{}{}"]
                param_names = [x.format(layer, suffix) for x in param_names]
                for name, param in zip(param_names, layer_params):
                    setattr(self, name, param)
                self._flat_weights_names.extend(param_names)
                self._all_weights.append(param_names)
        self._init_flat_weights()
        self.reset_parameters()

    def _init_flat_weights(self):
        self._flat_weights = [getattr(self, wn) if hasattr(self, wn) else None
                              for wn in self._flat_weights_names]
        self.flatten_parameters()

    def __setattr__(self, attr, value):
        if hasattr(self, "_flat_weights_names") and attr in self._flat_weights_names:
            idx = self._flat_weights_names.index(attr)
            self._flat_weights[idx] = value
        Module.__setattr__(self, attr, value)

    def flatten_parameters(self):
        if len(self._flat_weights) != len(self._flat_weights_names):
            return
        for w in self._flat_weights:
            if not isinstance(w, torch.Tensor):
                return
        first_fw = self._flat_weights[0]
        dtype = first_fw.dtype
        for fw in self._flat_weights:
            if (fw.dtype != dtype or not fw.is_cuda
                    or fw.dtype not in (torch.float16, torch.bfloat16, torch.float32, torch.float64)):
                return
        unique_data_ptrs = {p.data_ptr() for p in self._flat_weights}
        if len(unique_data_ptrs) != len(self._flat_weights):
            return
        with torch.no_grad():
            num_weights = 4 if self.bias else 2
            torch._cudnn_rnn_flatten_weight(
                self._flat_weights, num_weights, self.input_size, self.mode,
                self.hidden_size, self.proj_size, self.num_layers,
                self.batch_first, bool(self.bidirectional))

    def _apply(self, fn, recurse=True):
        ret = Module._apply(self, fn, recurse)
        self._init_flat_weights()
        return ret

    def _weights_have_changed(self):
        for name, w in zip(self._flat_weights_names, self._flat_weights):
            cur = getattr(self, name) if hasattr(self, name) else None
            if cur is not w:
                return True
        return False

    def _update_flat_weights(self):
        if self._weights_have_changed():
            self._init_flat_weights()

    def reset_parameters(self):
        stdv = 1.0 / math.sqrt(self.hidden_size) if self.hidden_size > 0 else 0
        for weight in self.parameters():
            init.uniform_(weight, -stdv, stdv)

    def check_input(self, input, batch_sizes):
        if input.dtype != self._flat_weights[0].dtype and not torch.is_autocast_enabled():
            raise ValueError(
                f"input must have the type {self._flat_weights[0].dtype}, got type {input.dtype}"
            )
        expected_input_dim = 2 if batch_sizes is not None else 3
        if input.dim() != expected_input_dim:
            raise RuntimeError(
                f"input must have {expected_input_dim} dimensions, got {input.dim()}"
            )
        if self.input_size != input.size(-1):
            raise RuntimeError(
                f"input.size(-1) must be equal to input_size. Expected {self.input_size}, got {input.size(-1)}"
            )

    def get_expected_hidden_size(self, input, batch_sizes):
        if batch_sizes is not None:
            mini_batch = int(batch_sizes[0])  # the packed sizes as ints (rnn_packed.py)
        else:
            mini_batch = input.size(0) if self.batch_first else input.size(1)
        num_directions = 2 if self.bidirectional else 1
        return (self.num_layers * num_directions, mini_batch, self.hidden_size)

    def check_hidden_size(self, hx, expected_hidden_size, msg="Expected hidden size {}, got {}"):
        if hx.size() != expected_hidden_size:
            raise RuntimeError(msg.format(expected_hidden_size, list(hx.size())))

    def check_forward_args(self, input, hidden, batch_sizes):
        self.check_input(input, batch_sizes)
        expected_hidden_size = self.get_expected_hidden_size(input, batch_sizes)
        self.check_hidden_size(hidden, expected_hidden_size)

    def permute_hidden(self, hx, permutation):
        if permutation is None:
            return hx
        return hx.index_select(1, permutation)

    def extra_repr(self):
        s = "{input_size}, {hidden_size}"
        if self.num_layers != 1:
            s += ", num_layers={num_layers}"
        if self.bias is not True:
            s += ", bias={bias}"
        if self.batch_first is not False:
            s += ", batch_first={batch_first}"
        if self.dropout != 0:
            s += ", dropout={dropout}"
        if self.bidirectional is not False:
            s += ", bidirectional={bidirectional}"
        return s.format(**self.__dict__)

    @property
    def all_weights(self):
        return [[getattr(self, weight) for weight in weights] for weights in self._all_weights]

    def _run(self, name, impl, input, hx, zeros_like_hidden):
        # GRU/RNN forward: hx is one tensor
        self._update_flat_weights()
        if isinstance(input, PackedSequence):
            return self._run_packed(impl, input, hx)
        if input.dim() not in (2, 3):
            raise ValueError(f"{name}: Expected input to be 2D or 3D, got {input.dim()}D instead")
        is_batched = input.dim() == 3
        batch_dim = 0 if self.batch_first else 1
        if not is_batched:
            input = input.unsqueeze(batch_dim)
            if hx is not None:
                if hx.dim() != 2:
                    raise RuntimeError(
                        f"For unbatched 2-D input, hx should also be 2-D but got {hx.dim()}-D tensor"
                    )
                hx = hx.unsqueeze(1)
        else:
            if hx is not None and hx.dim() != 3:
                raise RuntimeError(
                    f"For batched 3-D input, hx should also be 3-D but got {hx.dim()}-D tensor"
                )
        max_batch_size = input.size(0) if self.batch_first else input.size(1)
        if hx is None:
            num_directions = 2 if self.bidirectional else 1
            hx = torch.zeros(self.num_layers * num_directions, max_batch_size, self.hidden_size,
                             dtype=input.dtype, device=input.device)
        self.check_forward_args(input, hx, None)
        result = impl(input, hx, self._flat_weights, self.bias, self.num_layers,
                      self.dropout, self.training, self.bidirectional, self.batch_first)
        output = result[0]
        hidden = result[1]
        if not is_batched:
            output = output.squeeze(batch_dim)
            hidden = hidden.squeeze(1)
        return output, hidden


    def _run_packed(self, impl, packed, hx):
        # RNN/GRU on a PackedSequence: (data, batch_sizes, hx, ...) overload
        data, batch_sizes, sorted_indices, unsorted_indices = packed
        sizes = packed._sim_sizes()
        if hx is None:
            num_directions = 2 if self.bidirectional else 1
            hx = torch.zeros(self.num_layers * num_directions, sizes[0], self.hidden_size,
                             dtype=data.dtype, device=data.device)
        else:
            hx = self.permute_hidden(hx, sorted_indices)
        self.check_forward_args(data, hx, sizes)
        result = impl(data, sizes, hx, self._flat_weights, self.bias, self.num_layers,
                      self.dropout, self.training, self.bidirectional)
        out = PackedSequence(result[0], batch_sizes, sorted_indices, unsorted_indices)
        return out, self.permute_hidden(result[1], unsorted_indices)


class RNN(RNNBase):
    def __init__(self, *args, **kwargs):
        if "proj_size" in kwargs:
            raise ValueError("proj_size argument is only supported for LSTM, not RNN or GRU")
        if len(args) > 3:
            self.nonlinearity = args[3]
            args = args[:3] + args[4:]
        else:
            self.nonlinearity = kwargs.pop("nonlinearity", "tanh")
        if self.nonlinearity == "tanh":
            mode = "RNN_TANH"
        elif self.nonlinearity == "relu":
            mode = "RNN_RELU"
        else:
            raise ValueError(
                f"Unknown nonlinearity '{self.nonlinearity}'. Select from 'tanh' or 'relu'."
            )
        RNNBase.__init__(self, mode, *args, **kwargs)

    def forward(self, input, hx=None):
        return self._run("RNN", _rnn_impls[self.mode], input, hx, None)


class LSTM(RNNBase):
    def __init__(self, *args, **kwargs):
        RNNBase.__init__(self, "LSTM", *args, **kwargs)

    def check_forward_args(self, input, hidden, batch_sizes):
        self.check_input(input, batch_sizes)
        self.check_hidden_size(hidden[0], self.get_expected_hidden_size(input, batch_sizes),
                               "Expected hidden[0] size {}, got {}")
        self.check_hidden_size(hidden[1], self.get_expected_hidden_size(input, batch_sizes),
                               "Expected hidden[1] size {}, got {}")

    def permute_hidden(self, hx, permutation):
        if permutation is None:
            return hx
        return hx[0].index_select(1, permutation), hx[1].index_select(1, permutation)

    def forward(self, input, hx=None):
        self._update_flat_weights()
        num_directions = 2 if self.bidirectional else 1
        if isinstance(input, PackedSequence):
            return self._forward_packed(input, hx, num_directions)
        if input.dim() not in (2, 3):
            raise ValueError(f"LSTM: Expected input to be 2D or 3D, got {input.dim()}D instead")
        is_batched = input.dim() == 3
        batch_dim = 0 if self.batch_first else 1
        if not is_batched:
            input = input.unsqueeze(batch_dim)
        max_batch_size = input.size(0) if self.batch_first else input.size(1)
        if hx is None:
            h_zeros = torch.zeros(self.num_layers * num_directions, max_batch_size,
                                  self.hidden_size, dtype=input.dtype, device=input.device)
            c_zeros = torch.zeros(self.num_layers * num_directions, max_batch_size,
                                  self.hidden_size, dtype=input.dtype, device=input.device)
            hx = (h_zeros, c_zeros)
            self.check_forward_args(input, hx, None)
        else:
            if is_batched:
                if hx[0].dim() != 3 or hx[1].dim() != 3:
                    raise RuntimeError(
                        "For batched 3-D input, hx and cx should "
                        f"also be 3-D but got ({hx[0].dim()}-D, {hx[1].dim()}-D) tensors"
                    )
            else:
                if hx[0].dim() != 2 or hx[1].dim() != 2:
                    raise RuntimeError(
                        "For unbatched 2-D input, hx and cx should "
                        f"also be 2-D but got ({hx[0].dim()}-D, {hx[1].dim()}-D) tensors"
                    )
                hx = (hx[0].unsqueeze(1), hx[1].unsqueeze(1))
            self.check_forward_args(input, hx, None)
        result = torch.lstm(input, hx, self._flat_weights, self.bias, self.num_layers,
                            self.dropout, self.training, self.bidirectional, self.batch_first)
        output = result[0]
        hidden = result[1:]
        if not is_batched:
            output = output.squeeze(batch_dim)
            hidden = (hidden[0].squeeze(1), hidden[1].squeeze(1))
        return output, hidden


    def _forward_packed(self, packed, hx, num_directions):
        data, batch_sizes, sorted_indices, unsorted_indices = packed
        sizes = packed._sim_sizes()
        if hx is None:
            h_zeros = torch.zeros(self.num_layers * num_directions, sizes[0], self.hidden_size,
                                  dtype=data.dtype, device=data.device)
            c_zeros = torch.zeros(self.num_layers * num_directions, sizes[0], self.hidden_size,
                                  dtype=data.dtype, device=data.device)
            hx = (h_zeros, c_zeros)
        else:
            hx = self.permute_hidden(hx, sorted_indices)
        self.check_forward_args(data, hx, sizes)
        result = torch.lstm(data, sizes, hx, self._flat_weights, self.bias, self.num_layers,
                            self.dropout, self.training, self.bidirectional)
        out = PackedSequence(result[0], batch_sizes, sorted_indices, unsorted_indices)
        return out, self.permute_hidden(result[1:], unsorted_indices)


class GRU(RNNBase):
    def __init__(self, *args, **kwargs):
        if "proj_size" in kwargs:
            raise ValueError("proj_size argument is only supported for LSTM, not RNN or GRU")
        RNNBase.__init__(self, "GRU", *args, **kwargs)

    def forward(self, input, hx=None):
        return self._run("GRU", torch.gru, input, hx, None)
