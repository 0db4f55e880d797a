package torch

import "github.com/gpumem/playground/sim/trace"

// cuDNN RNNs (nn.LSTM, nn.GRU, nn.RNN through torch.lstm/gru/rnn_tanh/
// rnn_relu → _cudnn_impl → at::_cudnn_rnn), memory as PyTorch 2.11 with
// cuDNN 9.19 on sm90, every allocation measured
// (testdata/questions/q13_conv_transpose_rnn.*):
//   - train with dropout > 0: the per-device dropout state is created once
//     (an 8-byte seed tensor made and freed, then the state, kept for good);
//   - input.contiguous() in time-major layout (a copy for batch_first);
//   - output [S, B, D·H] (transposed back to a view for batch_first), hy
//     [L·D, B, H], cy (LSTM);
//   - a temporary weight buffer when the weights are not one flattened
//     chunk (flatten_parameters normally made them one);
//   - the workspace, then (training) the reserve space, then the workspace
//     is freed and the input copy with it;
//   - under grad mode, CudnnRnnBackward0 saves input, weights, hx, cx,
//     output and the reserve; without it the reserve dies with the call.
// Workspace and reserve sizes: rnn_workspace.go. GPU values: rnn_exec.go
// (ExecRNN, ExecRNNBack; dropout between layers from a private stream).

// RNNArgs are the arguments of torch.lstm/gru/rnn_tanh/rnn_relu.
type RNNArgs struct {
	Mode          string // "LSTM", "GRU", "RNN_TANH" or "RNN_RELU"
	HasBiases     bool
	NumLayers     int64
	Dropout       float64
	Train         bool
	Bidirectional bool
	BatchFirst    bool
	BatchSizes    []int64 // a PackedSequence's batch sizes (rnn_packed.go); nil for padded input
}

// rnnGates is the number of gates of a cell (rows of w_ih per hidden unit).
func rnnGates(mode string) int64 {
	switch mode {
	case "LSTM":
		return 4
	case "GRU":
		return 3
	}
	return 1
}

// rnnGeom is the shape of one RNN call.
type rnnGeom struct {
	mode                    string
	dtype                   DType
	seq, batch, inp, hidden int64
	layers, dirs            int64
	weightBytes             int64
	dropout                 bool // training with dropout > 0
	train                   bool
	packed                  bool  // input is a PackedSequence's data [tokens, I]
	tokens                  int64 // rows of packed input (sum of the batch sizes)
}

// RNN runs a cuDNN RNN: x is [S, B, I] ([B, S, I] with BatchFirst), hx
// (and cx for LSTM) [L·D, B, H]; weights are the module's _flat_weights
// (w_ih, w_hh[, b_ih, b_hh] per layer and direction). It returns output,
// hy and, for LSTM, cy.
func (rt *Runtime) RNN(x, hx, cx *Tensor, weights []*Tensor, a RNNArgs) ([]*Tensor, error) {
	g, err := rt.rnnGeom(x, hx, cx, weights, a)
	if err != nil {
		return nil, err
	}
	cuda := x.device.IsCUDA()
	if cuda && g.dropout {
		if err := rt.rnnDropoutState(x.device); err != nil {
			return nil, err
		}
	}
	S, B, H, D := g.seq, g.batch, g.hidden, g.dirs
	var tmps []*Tensor
	defer func() { releaseAll(tmps) }()
	if !rnnTimeMajorContiguous(x, a.BatchFirst) {
		c, err := rt.empty("_cudnn_rnn", rnnXShape(g), nil, x.dtype, x.device)
		if err != nil {
			return nil, err
		}
		tmps = append(tmps, c)
	}
	var res []*Tensor
	fail := func(err error) ([]*Tensor, error) {
		releaseAll(res)
		return nil, err
	}
	out, err := rt.empty("_cudnn_rnn", rnnOutShape(g), nil, x.dtype, x.device)
	if err != nil {
		return nil, err
	}
	if a.BatchFirst {
		out.shape = []int64{B, S, D * H}
		out.strides = []int64{D * H, B * D * H, 1}
	}
	res = append(res, out)
	hy, err := rt.empty("_cudnn_rnn", []int64{a.NumLayers * D, B, H}, nil, hx.dtype, hx.device)
	if err != nil {
		return fail(err)
	}
	res = append(res, hy)
	if a.Mode == "LSTM" {
		cy, err := rt.empty("_cudnn_rnn", []int64{a.NumLayers * D, B, H}, nil, cx.dtype, cx.device)
		if err != nil {
			return fail(err)
		}
		res = append(res, cy)
	}
	var wbuf *Tensor // the weights copied into one chunk for this call
	if !rnnWeightsFlat(weights) {
		wbuf, err = rt.empty("_cudnn_rnn", []int64{g.weightBytes / x.dtype.Size()}, nil, x.dtype, x.device)
		if err != nil {
			return fail(err)
		}
		tmps = append(tmps, wbuf)
	}
	var reserve *Tensor
	if cuda {
		ws := rnnWorkspace(g, rnnWSTable)
		var blk Block
		if ws > 0 {
			blk, err = rt.malloc(ws, trace.Label{Kind: trace.LabelWorkspace, Name: "cuDNN RNN workspace",
				Detail: "cudnnRNNForward's work space, freed when the call returns"})
			if err != nil {
				return fail(err)
			}
		}
		if a.Train {
			reserve, err = rt.empty("_cudnn_rnn", []int64{rnnReserveBytes(g)}, nil, Uint8, x.device)
			if err != nil {
				rt.free(blk)
				return fail(err)
			}
			reserve.name = "cuDNN RNN reserve space"
			tmps = append(tmps, reserve)
		}
		rt.free(blk)
	}
	rng := &rnnRNG{}
	if rt.exec != nil && !g.packed {
		rt.rnnValues(x, hx, cx, weights, res, a, rng)
	}
	inputs := append([]*Tensor{x}, weights...)
	inputs = append(inputs, hx, cx)
	n := rt.record("CudnnRnnBackward0", inputs...)
	if n != nil {
		var state *Tensor
		if cuda && g.dropout {
			state = rt.rnnDropout
		}
		rt.saveRNN(n, x, weights, wbuf, hx, cx, state, out, reserve)
	}
	if n != nil {
		p := rnnBackPlan{geom: g, args: a, rng: rng, nWeights: len(weights), tempBuf: wbuf != nil, hxShape: cloneShape(hx.shape), xShape: cloneShape(x.shape),
			weightShapes: make([][]int64, len(weights))}
		for i, w := range weights {
			p.weightShapes[i] = cloneShape(w.shape)
		}
		n.finish(func(n *Node, grads []*Tensor) ([]*Tensor, error) {
			return rt.rnnBackward(n, grads, p)
		}, res...)
	}
	return res, nil
}

// saveRNN saves what CudnnRnnBackward0 keeps: input, weight list, the
// temporary weight buffer (result4, when one was made), hx, cx, the
// dropout state (training with dropout), output (result0) and the reserve
// (result3), in release_variables' order.
func (rt *Runtime) saveRNN(n *Node, x *Tensor, weights []*Tensor, wbuf, hx, cx, state, out, reserve *Tensor) {
	n.save(x, false)
	for _, w := range weights {
		n.save(w, false)
	}
	n.saveIf(wbuf != nil, wbuf, true)
	n.save(hx, false)
	n.saveIf(cx != nil, cx, false)
	n.saveIf(state != nil, state, false)
	n.save(out, true)
	n.saveIf(reserve != nil, reserve, true)
}

// rnnGeom checks the call's shapes as _cudnn_rnn does and describes it.
func (rt *Runtime) rnnGeom(x, hx, cx *Tensor, weights []*Tensor, a RNNArgs) (rnnGeom, error) {
	var g rnnGeom
	gates := rnnGates(a.Mode)
	if a.Mode != "LSTM" && a.Mode != "GRU" && a.Mode != "RNN_TANH" && a.Mode != "RNN_RELU" {
		return g, Errorf(RuntimeError, "Unknown mode: %s", a.Mode)
	}
	if want := 3 - btoi(a.BatchSizes != nil); len(x.shape) != want {
		return g, Errorf(RuntimeError, "input must have %d dimensions, got %d", want, len(x.shape))
	}
	if hx == nil || (a.Mode == "LSTM") != (cx != nil) {
		return g, Errorf(RuntimeError, "rnn: expected hx (and cx for LSTM only)")
	}
	D := int64(1)
	if a.Bidirectional {
		D = 2
	}
	per := 2
	if a.HasBiases {
		per = 4
	}
	if a.NumLayers <= 0 || len(weights) != per*int(a.NumLayers*D) {
		return g, Errorf(RuntimeError, "rnn: expected %d weights, got %d", per*int(a.NumLayers*D), len(weights))
	}
	for _, w := range weights {
		if w == nil {
			return g, Errorf(RuntimeError, "rnn: a weight is None")
		}
		if w.dtype != x.dtype || w.device != x.device {
			return g, Errorf(RuntimeError, "Input and parameter tensors are not the same dtype or device, found input tensor with %s and parameter tensor with %s", x.typeString(), w.typeString())
		}
		g.weightBytes += w.Numel() * w.dtype.Size()
	}
	whh := weights[1]
	if len(whh.shape) != 2 || whh.shape[0] != gates*whh.shape[1] {
		return g, Errorf(RuntimeError, "rnn: weight_hh_l0 has shape %s", shapeList(whh.shape))
	}
	H := whh.shape[1]
	S, B := x.shape[0], x.shape[1]
	if a.BatchFirst {
		S, B = B, S
	}
	if a.BatchSizes != nil {
		var err error
		if S, B, err = rnnPackedDims(a.BatchSizes, x); err != nil {
			return g, err
		}
	}
	if in := x.shape[len(x.shape)-1]; weights[0].shape[1] != in {
		return g, Errorf(RuntimeError, "input.size(-1) must be equal to input_size. Expected %d, got %d", weights[0].shape[1], in)
	}
	want := []int64{a.NumLayers * D, B, H}
	if !sameShape(hx.shape, want) {
		return g, Errorf(RuntimeError, "Expected hidden size %s, got %s", shapeList(want), shapeList(hx.shape))
	}
	if cx != nil && !sameShape(cx.shape, want) {
		return g, Errorf(RuntimeError, "Expected hidden size %s, got %s", shapeList(want), shapeList(cx.shape))
	}
	g = rnnGeom{mode: a.Mode, dtype: x.dtype, seq: S, batch: B, inp: x.shape[len(x.shape)-1], hidden: H, layers: a.NumLayers, dirs: D,
		weightBytes: g.weightBytes, dropout: a.Train && a.Dropout > 0, train: a.Train}
	g.packed, g.tokens = a.BatchSizes != nil, x.shape[0]
	return g, nil
}

// rnnTimeMajorContiguous reports whether x viewed time-major
// (transposed for batch_first) is contiguous: _cudnn_rnn's
// input.contiguous() then copies nothing.
func rnnTimeMajorContiguous(x *Tensor, batchFirst bool) bool {
	shape, strides := x.shape, x.strides
	if batchFirst {
		shape = []int64{x.shape[1], x.shape[0], x.shape[2]}
		strides = []int64{x.strides[1], x.strides[0], x.strides[2]}
	}
	return isContiguous(shape, strides)
}

// rnnWeightsFlat reports whether the weights live in one storage that
// holds nothing else (try_get_weight_buf finds the flattened chunk).
func rnnWeightsFlat(weights []*Tensor) bool {
	s := weights[0].storage
	var total int64
	for _, w := range weights {
		if w.storage != s || !w.IsContiguous() {
			return false
		}
		total += w.Numel() * w.dtype.Size()
	}
	return s != nil && s.nbytes == total
}

// rnnDropoutState is get_dropout_state: the first training call with
// dropout makes a seed (a 0-dim int64 tensor, random_, item) and the
// cuDNN dropout state, cached per device. Reseeding or setting the CUDA
// generator (torch.manual_seed, torch.cuda.manual_seed(_all), seed,
// set_rng_state, fork_rng's exit) sets its reset_rnn_state flag: the next
// training call with dropout (not an eval or dropout-free call) draws a
// new seed and makes a new state, then drops the old one, which is freed
// there unless a graph of an earlier call still saves it (CudnnRnnBackward0
// keeps dropout_state): recorded on an H200,
// testdata/questions/q14_rng_state.out and oracle case q046.
func (rt *Runtime) rnnDropoutState(dev Device) error {
	if rt.rnnDropout != nil && !rt.rnnDropReset {
		return nil
	}
	rt.rnnDropReset = false // PyTorch's test_and_set, before anything can fail
	seed, err := rt.empty("random_", nil, nil, Int64, dev)
	if err != nil {
		return err
	}
	if rt.exec != nil {
		// the seed's random_() draws from the CUDA generator (recorded on
		// an H200: its Philox offset moves by 4, gpu/testdata/rng/
		// rnn_dropout_rng.py), so later random numbers stay PyTorch's
		rt.compute(ExecRandomFull, []*Tensor{seed}, nil, nil, genInts(nil))
	}
	seed.Release()
	st, err := rt.empty("_cudnn_init_dropout_state", []int64{cudnnDropoutStateBytes}, nil, Uint8, dev)
	if err != nil {
		return err
	}
	st.SetName("cuDNN RNN dropout state", trace.LabelOther,
		"cudnnDropoutGetStatesSize bytes, cached per device until the CUDA generator is reseeded (get_dropout_state)")
	if old := rt.rnnDropout; old != nil {
		old.Release() // freed now, or with the last graph that saved it
	}
	rt.rnnDropout = st
	return nil
}
