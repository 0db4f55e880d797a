package torch

import "math"

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

// rnnTokens is the number of time-step rows cuDNN processes: S·B, or the
// packed tokens T (the reserve space is sized by it: q26, every row).
func rnnTokens(g rnnGeom) int64 {
	if g.packed {
		return g.tokens
	}
	return g.seq * g.batch
}

// rnnPackedWSEntry is one measured packed configuration's workspaces.
type rnnPackedWSEntry struct {
	mode                string
	dtype               DType
	inp, hidden, layers int64
	dirs                int64
	tokens, seq, batch  int64
	weightBytes         int64
	train, eval         int64
}

// rnnPackedWorkspace is the forward (and backward) workspace of a packed
// call. The packed algorithms' workspaces differ from the padded ones (a
// packed LSTM of 8 sequences ≤ 20 steps needs 8 988 928 B, padded 10 576
// 192 B) and grow by exactly gates·H·elem per token for a fixed
// (I, H, batch) (four LSTM rows from 27 to 160 tokens, 10 and 20 steps),
// but the rest follows no law found: measured shapes take the table
// (rnnPackedWSTable), others the nearest entry of the same mode and
// precision class in log-space of (input size, hidden, tokens, layers,
// directions), as L·D·8 MiB + the weights' bytes (every measured packed
// workspace is above it) + the entry's remainder scaled by T·H·L·D.
func rnnPackedWorkspace(g rnnGeom, table []rnnPackedWSEntry, skip *rnnPackedWSEntry) (ws int64, exact bool) {
	mode := rnnTableMode(g.mode)
	pick := func(e *rnnPackedWSEntry) int64 {
		if g.train {
			return e.train
		}
		return e.eval
	}
	var best *rnnPackedWSEntry
	bestD := math.Inf(1)
	for i := range table {
		e := &table[i]
		if e == skip || e.mode != mode || halfClass(e.dtype) != halfClass(g.dtype) {
			continue
		}
		if e.dtype == g.dtype && e.inp == g.inp && e.hidden == g.hidden && e.layers == g.layers && e.dirs == g.dirs &&
			e.tokens == g.tokens && e.seq == g.seq && e.batch == g.batch {
			return pick(e), true
		}
		d := 0.0
		for _, p := range [][2]float64{{float64(g.inp), float64(e.inp)}, {float64(g.hidden), float64(e.hidden)},
			{float64(g.tokens), float64(e.tokens)}, {float64(g.layers), float64(e.layers)}, {float64(g.dirs), float64(e.dirs)}} {
			x := math.Log(p[0]) - math.Log(p[1])
			d += x * x
		}
		if d < bestD {
			best, bestD = e, d
		}
	}
	floor := g.layers*g.dirs*rnnWSBase + g.weightBytes
	if best == nil {
		return floor, false
	}
	rest := float64(pick(best) - best.layers*best.dirs*rnnWSBase - best.weightBytes)
	scale := float64(g.tokens*g.hidden*g.layers*g.dirs) / float64(best.tokens*best.hidden*best.layers*best.dirs)
	return floor + int64(math.Round(math.Max(rest, 0)*scale)), false
}
