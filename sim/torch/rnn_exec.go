package torch

// GPU values of the cuDNN RNNs (rnn.go, rnn_backward.go): the executor
// recomputes the recurrence from the call's operands, so the model hands it
// the input, the initial states and every weight, and nothing it modelled
// only for memory (workspace, reserve space, the temporary weight buffer).

// Executor kinds of nn.LSTM / nn.GRU / nn.RNN. Ints[0:5] of both are
// [mode, has_biases, num_layers, bidirectional, batch_first] (mode one of
// the RNNMode constants); the weights are w_ih, w_hh[, b_ih, b_hh] per
// layer and direction in _flat_weights' order.
const (
	// ExecRNN is _cudnn_rnn's forward: Out = [output, hy, cy (LSTM)], In =
	// [x, hx, cx (LSTM), weights...]; x and output as the call sees them
	// (batch-major views for batch_first). With dropout between layers
	// (training, p > 0, num_layers > 1) Scalars = [p] and Ints[5:8] =
	// [1, seed, offset]: the executor writes the (seed, offset) of the mask
	// it drew there (a private stream: not cuDNN's or PyTorch's numbers).
	ExecRNN ExecKind = "rnn"
	// ExecRNNBack is _cudnn_rnn_backward: Out = the present ones of [dx,
	// dhx, dcx (LSTM), dw] (dw: the one buffer every weight's gradient is a
	// slice of), In = [x, hx, cx (LSTM), weights..., grad_output, grad_hy,
	// grad_cy (LSTM)]; Ints[5] is the mask of present outputs (bit i: output
	// i of that list) and Ints[6:6+nw] the element offset of each weight's
	// gradient in dw; with dropout, Scalars = [p] and the forward's
	// [1, seed, offset] follow the offsets.
	ExecRNNBack ExecKind = "rnn_backward"
)

// RNN modes as ExecRNN's Ints[0].
const (
	RNNModeLSTM int64 = iota
	RNNModeGRU
	RNNModeTanh
	RNNModeRelu
)

// rnnModeCode is a's mode as Ints[0].
func rnnModeCode(mode string) int64 {
	switch mode {
	case "GRU":
		return RNNModeGRU
	case "RNN_TANH":
		return RNNModeTanh
	case "RNN_RELU":
		return RNNModeRelu
	}
	return RNNModeLSTM
}

// rnnExecInts is Ints[0:5] of the RNN kinds.
func rnnExecInts(a RNNArgs) []int64 {
	return []int64{rnnModeCode(a.Mode), int64(btoi(a.HasBiases)), a.NumLayers, int64(btoi(a.Bidirectional)), int64(btoi(a.BatchFirst))}
}

// rnnDropping reports whether the call applies dropout between layers.
func rnnDropping(a RNNArgs) bool { return a.Train && a.Dropout > 0 && a.NumLayers > 1 }

// rnnComputable reports whether the executor can compute the call: not
// with dropout p ≥ 1 between layers (everything dropped, scale 1/0).
func rnnComputable(a RNNArgs) bool {
	return !(rnnDropping(a) && a.Dropout >= 1)
}

// rnnRNG is the generator state the forward's dropout mask was drawn at:
// cuDNN's mask cannot be reproduced, so the executor draws its own from a
// private Philox stream (not PyTorch's numbers) and reports (seed, offset)
// for the backward to redraw the same mask. ok is false until a forward
// computed it.
type rnnRNG struct {
	seed, offset int64
	ok           bool
}

// rnnDropInts are the dropout operands appended to Ints (Scalars = [p]):
// [1, seed, offset]; the forward sends zeros and the executor writes them.
func rnnDropInts(rng *rnnRNG) []int64 { return []int64{1, rng.seed, rng.offset} }

// rnnValues computes the forward's results (output, hy, cy); with dropout
// between layers, the executor's (seed, offset) lands in rng.
func (rt *Runtime) rnnValues(x, hx, cx *Tensor, weights []*Tensor, res []*Tensor, a RNNArgs, rng *rnnRNG) {
	if !rnnComputable(a) {
		return
	}
	ins := append([]*Tensor{x, hx, cx}, weights...)
	if !rnnDropping(a) {
		rt.compute(ExecRNN, res, ins, nil, rnnExecInts(a))
		return
	}
	ints := append(rnnExecInts(a), rnnDropInts(&rnnRNG{})...)
	op := rt.compute(ExecRNN, res, ins, []float64{a.Dropout}, ints)
	if op != nil && len(op.Ints) >= 8 && rng != nil {
		rng.seed, rng.offset, rng.ok = op.Ints[6], op.Ints[7], true
	}
}

// rnnBackValues computes the backward's results: outs are dx, dhx, dcx
// (nil for GRU/RNN) and dw (nil when no weight needs a gradient); ins are
// x, hx, cx and the weights as the node saved them, then the incoming
// gradients (zeros for the undefined ones, already filled).
func (rt *Runtime) rnnBackValues(outs []*Tensor, x, hx, cx *Tensor, weights []*Tensor, gOut, gHy, gCy *Tensor, p rnnBackPlan) {
	if !rnnComputable(p.args) || x == nil || hx == nil {
		return
	}
	dropping := rnnDropping(p.args)
	if dropping && (p.rng == nil || !p.rng.ok) {
		return // the forward's mask is unknown
	}
	for _, w := range weights {
		if w == nil {
			return // a weight kept through saved-tensor hooks: not computed
		}
	}
	ints := rnnExecInts(p.args)
	var mask int64
	var present []*Tensor
	for i, t := range outs {
		if t != nil {
			mask |= 1 << i
			present = append(present, t)
		}
	}
	if len(present) == 0 {
		return
	}
	ints = append(ints, mask)
	ints = append(ints, rnnWeightOffsets(p.weightShapes)...)
	var scalars []float64
	if dropping {
		ints = append(ints, rnnDropInts(p.rng)...)
		scalars = []float64{p.args.Dropout}
	}
	ins := append([]*Tensor{x, hx, cx}, weights...)
	ins = append(ins, gOut, gHy, gCy)
	rt.compute(ExecRNNBack, present, ins, scalars, ints)
}

// peekSaved is saved variable i's tensor without unpacking it (no
// reference taken, no hook run: memory stays as the model has it), or nil
// when it is packed by saved-tensor hooks, freed, or modified in place.
func (n *Node) peekSaved(i int) *Tensor {
	if i < 0 || i >= len(n.saved) {
		return nil
	}
	sv := n.saved[i]
	if !sv.defined || sv.released || sv.hooks != nil || sv.deferred != nil || sv.t == nil {
		return nil
	}
	if *sv.t.version != sv.version {
		return nil
	}
	return sv.t
}

// rnnBackCompute gathers rnnBackward's operands: held are the unpacked
// input, hx, cx (LSTM), the dropout state (training with dropout), output
// and reserve; res holds dx, the weights' gradients, dhx and dcx; the
// weights are peeked (see peekSaved).
func (rt *Runtime) rnnBackCompute(n *Node, res []*Tensor, dw *Tensor, held []*Tensor, gOut, gHy, gCy *Tensor, p rnnBackPlan) {
	lstm := p.args.Mode == "LSTM"
	if len(held) < 2+btoi(lstm) {
		return
	}
	x, hx := held[0], held[1]
	var cx, dcx *Tensor
	if lstm {
		cx, dcx = held[2], res[p.nWeights+2]
	}
	weights := make([]*Tensor, p.nWeights)
	for i := range weights {
		weights[i] = n.peekSaved(1 + i)
	}
	outs := []*Tensor{res[0], res[p.nWeights+1], dcx, dw}
	rt.rnnBackValues(outs, x, hx, cx, weights, gOut, gHy, gCy, p)
}
