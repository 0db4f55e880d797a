package pybind

import (
	"github.com/gpumem/playground/sim/py"
	"github.com/gpumem/playground/sim/torch"
)

// torch.lstm(input, hx, params, has_biases, num_layers, dropout, train,
// bidirectional, batch_first) -> (output, hy, cy), torch.gru/rnn_tanh/
// rnn_relu(input, hx, params, ...) -> (output, hy): the _VF functions
// nn.LSTM/GRU/RNN call (sim/torch/rnn.go); hx is a tensor, or (h, c) for
// lstm. torch._cudnn_rnn_flatten_weight(weight_arr, ...) flattens the
// weights in place (flatten_parameters; returns None here, the buffer in
// PyTorch, which RNNBase drops).
func init() {
	for name, mode := range map[string]string{"lstm": "LSTM", "gru": "GRU", "rnn_tanh": "RNN_TANH", "rnn_relu": "RNN_RELU"} {
		name, mode := name, mode
		def(name, false, true, func(h *Host, it *py.Interp, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
			if isPackedRNNCall(args) {
				return packedRNN(h, it, name, mode, args, kwargs) // ops_packed.go
			}
			x, err := tensorOf(name, "input", argOr(args, kwargs, 0, "input"))
			if err != nil {
				return nil, err
			}
			hs, err := tensorSeq(name, "hx", argOr(args, kwargs, 1, "hx"), false)
			if err != nil {
				return nil, err
			}
			want := 1
			if mode == "LSTM" {
				want = 2
			}
			if len(hs) != want {
				return nil, runtimeErr("%s: expected %d hidden state tensors, got %d", name, want, len(hs))
			}
			ws, err := tensorSeq(name, "params", argOr(args, kwargs, 2, "params"), false)
			if err != nil {
				return nil, err
			}
			a := torch.RNNArgs{Mode: mode}
			if a.HasBiases, err = boolOf(it, argOr(args, kwargs, 3, "has_biases"), true); err != nil {
				return nil, err
			}
			if a.NumLayers, err = intOf(name, "num_layers", argOr(args, kwargs, 4, "num_layers"), 1); err != nil {
				return nil, err
			}
			if a.Dropout, err = floatOf(name, "dropout", argOr(args, kwargs, 5, "dropout"), 0); err != nil {
				return nil, err
			}
			if a.Train, err = boolOf(it, argOr(args, kwargs, 6, "train"), true); err != nil {
				return nil, err
			}
			if a.Bidirectional, err = boolOf(it, argOr(args, kwargs, 7, "bidirectional"), false); err != nil {
				return nil, err
			}
			if a.BatchFirst, err = boolOf(it, argOr(args, kwargs, 8, "batch_first"), false); err != nil {
				return nil, err
			}
			var cx *torch.Tensor
			if mode == "LSTM" {
				cx = hs[1]
			}
			res, err := h.rt.RNN(x, hs[0], cx, ws, a)
			if err != nil {
				return nil, pyErr(err)
			}
			return h.wrapTuple(res), nil
		})
	}
	def("_cudnn_rnn_flatten_weight", false, true, func(h *Host, it *py.Interp, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
		ws, err := tensorSeq("_cudnn_rnn_flatten_weight", "weight_arr", argOr(args, kwargs, 0, "weight_arr"), false)
		if err != nil {
			return nil, err
		}
		if err := h.rt.RNNFlattenWeights(ws); err != nil {
			return nil, pyErr(err)
		}
		return py.None, nil
	})
}
