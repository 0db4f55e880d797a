package pybind

import (
	"errors"
	"strings"

	"github.com/gpumem/playground/sim/py"
	"github.com/gpumem/playground/sim/torch"
)

// torch._pack_padded_sequence(input, lengths, batch_first) -> (data,
// batch_sizes), the ATen op under nn.utils.rnn.pack_padded_sequence
// (sim/torch/ops_packed.go). lengths is a CPU int64 tensor in PyTorch; its
// values decide every shape, and the simulator does not know tensor
// values, so it also takes a sequence of ints (what the prelude passes) and
// reads a tensor's values only where the executor computed them. The batch
// sizes come back as a CPU int64 tensor (no device memory).
func init() {
	def("_pack_padded_sequence", false, true, func(h *Host, it *py.Interp, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
		const fn = "_pack_padded_sequence"
		x, err := tensorOf(fn, "input", argOr(args, kwargs, 0, "input"))
		if err != nil {
			return nil, err
		}
		lengths, err := hostInts(fn, "lengths", argOr(args, kwargs, 1, "lengths"))
		if err != nil {
			return nil, err
		}
		bf, err := boolOf(it, argOr(args, kwargs, 2, "batch_first"), false)
		if err != nil {
			return nil, err
		}
		data, bs, err := h.rt.PackPaddedSequence(x, lengths, bf)
		if err != nil {
			return nil, pyErr(err)
		}
		sizes, err := h.rt.Factory("empty", []int64{int64(len(bs))}, torch.Int64, torch.CPUDevice, false)
		if err != nil {
			data.Release()
			return nil, pyErr(err)
		}
		return h.wrapTuple([]*torch.Tensor{data, sizes}), nil
	})
}

// hostInts reads a packed sequence's lengths or batch sizes: a sequence of
// ints, or a 1-D CPU int64 tensor (checkLongTensor) whose values the
// executor computed; other tensors raise NotImplementedError in the
// simulator (values are not simulated).
func hostInts(fn, what string, v py.Value) ([]int64, error) {
	t, ok := tensorArg(v)
	if !ok {
		return intList(fn, what, v)
	}
	if t.Dim() != 1 || t.Device().IsCUDA() || t.DType() != torch.Int64 {
		return nil, runtimeErr("'lengths' argument should be a 1D CPU int64 tensor, but got %dD %s %s tensor",
			t.Dim(), t.Device().String(), strings.TrimSuffix(t.DType().TypeName(), "Tensor"))
	}
	vals, err := t.IntValues()
	if errors.Is(err, torch.ErrNotComputed) {
		return nil, py.NewException(py.NotImplementedError,
			fn+": the values of the '"+what+"' tensor are not simulated; pass them as a Python list of ints")
	}
	if err != nil {
		return nil, pyErr(err)
	}
	return vals, nil
}

// isPackedRNNCall reports the packed overload of torch.lstm/gru/rnn_tanh/
// rnn_relu, (data, batch_sizes, hx, params, has_biases, num_layers,
// dropout, train, bidirectional): its fourth argument is the weight list
// (has_biases, a bool, in the padded overload).
func isPackedRNNCall(args []py.Value) bool {
	if len(args) < 4 {
		return false
	}
	_, ok := elems(args[3])
	return ok
}

// packedRNN runs the packed overload through Runtime.RNN with the batch
// sizes (read as hostInts).
func packedRNN(h *Host, it *py.Interp, name, mode string, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
	x, err := tensorOf(name, "data", args[0])
	if err != nil {
		return nil, err
	}
	bs, err := hostInts(name, "batch_sizes", args[1])
	if err != nil {
		return nil, err
	}
	hs, err := tensorSeq(name, "hx", args[2], false)
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
	ws, err := tensorSeq(name, "params", args[3], false)
	if err != nil {
		return nil, err
	}
	a := torch.RNNArgs{Mode: mode, BatchSizes: bs}
	if len(bs) == 0 {
		a.BatchSizes = []int64{}
	}
	if a.HasBiases, err = boolOf(it, argOr(args, kwargs, 4, "has_biases"), true); err != nil {
		return nil, err
	}
	if a.NumLayers, err = intOf(name, "num_layers", argOr(args, kwargs, 5, "num_layers"), 1); err != nil {
		return nil, err
	}
	if a.Dropout, err = floatOf(name, "dropout", argOr(args, kwargs, 6, "dropout"), 0); err != nil {
		return nil, err
	}
	if a.Train, err = boolOf(it, argOr(args, kwargs, 7, "train"), true); err != nil {
		return nil, err
	}
	if a.Bidirectional, err = boolOf(it, argOr(args, kwargs, 8, "bidirectional"), false); err != nil {
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
}
