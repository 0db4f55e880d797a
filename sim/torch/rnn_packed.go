package torch

// cuDNN RNNs on a PackedSequence (torch.lstm/gru/rnn_tanh/rnn_relu's
// (data, batch_sizes, hx, params, ...) overloads → _cudnn_rnn with
// batch_sizes): the input is the packed data [T, I] (T = the sum of the
// batch sizes), the output [T, D·H]; batch_first does not apply (the data
// is time-major by construction), hx/cx are [L·D, batch_sizes[0], H]. The
// cuDNN descriptors take max sequence length = len(batch_sizes) and mini
// batch = batch_sizes[0]; the workspace and reserve follow rnn_workspace.go
// with those (see rnnPackedReserve for the measured difference).

// rnnPackedDims checks a PackedSequence's batch sizes against its data x
// and returns cuDNN's (max sequence length, mini batch).
func rnnPackedDims(bs []int64, x *Tensor) (S, B int64, err error) {
	if len(bs) == 0 {
		return 0, 0, Errorf(RuntimeError, "rnn: empty batch_sizes")
	}
	var sum int64
	for i, b := range bs {
		if b <= 0 || (i > 0 && b > bs[i-1]) {
			return 0, 0, Errorf(RuntimeError, "rnn: batch_sizes must be positive and non-increasing, got %s", shapeList(bs))
		}
		sum += b
	}
	if sum != x.shape[0] {
		return 0, 0, Errorf(RuntimeError, "rnn: the packed input has %d rows but its batch_sizes sum to %d", x.shape[0], sum)
	}
	return int64(len(bs)), bs[0], nil
}

// rnnXShape is the (time-major) shape of the input cuDNN reads: [S, B, I],
// or [T, I] for packed input.
func rnnXShape(g rnnGeom) []int64 {
	if g.packed {
		return []int64{g.tokens, g.inp}
	}
	return []int64{g.seq, g.batch, g.inp}
}

// rnnOutShape is the (time-major) output's shape: [S, B, D·H], or [T, D·H]
// for packed input.
func rnnOutShape(g rnnGeom) []int64 {
	if g.packed {
		return []int64{g.tokens, g.dirs * g.hidden}
	}
	return []int64{g.seq, g.batch, g.dirs * g.hidden}
}
