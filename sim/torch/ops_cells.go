package torch

// torch.lstm_cell / torch.gru_cell (nn.LSTMCell, nn.GRUCell) on CUDA,
// PyTorch 2.11's aten/src/ATen/native/RNN.cpp and cuda/RNN.cu: the gates
// are two matmuls (input @ w_ih.t(), hx @ w_hh.t()), then the fused kernel
// _thnn_fused_lstm_cell / _thnn_fused_gru_cell allocates its workspace
// (LSTM: the 4 gate activations [B, 4H]; GRU: [B, 5H]) before hy (and cy).
// The backward (ThnnFused{Lstm,Gru}CellBackward0) saves both gate matmuls,
// the workspace and cx/hx; it allocates the gate gradients, then
// grad_cx/grad_hx, then the bias gradients (gate gradients summed over the
// batch). The LSTM gives the SAME gate gradient to both matmuls and the same
// bias gradient to both biases, so one bias's AccumulateGrad clones it.
// Measured in testdata/questions/q22_modules.out (LSTMCell/GRUCell items).

// cellCheck is check_rnn_cell_forward_input and _hidden (label 0 or 1).
func cellCheck(input, hx *Tensor, inputSize, hiddenSize int64, label int) error {
	if input.Dim() < 2 || hx.Dim() < 2 {
		return Errorf(RuntimeError, "Expected input and hidden states to be 2-D, but got %dD and %dD", input.Dim(), hx.Dim())
	}
	if input.shape[1] != inputSize {
		return Errorf(RuntimeError, "input has inconsistent input_size: got %d expected %d", input.shape[1], inputSize)
	}
	if input.shape[0] != hx.shape[0] {
		return Errorf(RuntimeError, "Input batch size %d doesn't match hidden%d batch size %d", input.shape[0], label, hx.shape[0])
	}
	if hx.shape[1] != hiddenSize {
		return Errorf(RuntimeError, "hidden%d has inconsistent hidden_size: got %d, expected %d", label, hx.shape[1], hiddenSize)
	}
	return nil
}

// cellGates is the two gate matmuls: input @ w_ih.t() and hx @ w_hh.t().
func (rt *Runtime) cellGates(input, hx, wih, whh *Tensor) (ig, hg *Tensor, err error) {
	mm := func(x, w *Tensor) (*Tensor, error) {
		wt, err := rt.T(w)
		if err != nil {
			return nil, err
		}
		defer wt.Release()
		return rt.Matmul(x, wt)
	}
	if ig, err = mm(input, wih); err != nil {
		return nil, nil, err
	}
	if hg, err = mm(hx, whh); err != nil {
		ig.Release()
		return nil, nil, err
	}
	return ig, hg, nil
}

// fusedCellDType rejects the dtypes the fused kernels do not dispatch
// (AT_DISPATCH_FLOATING_TYPES_AND_HALF: no bfloat16).
func fusedCellDType(name string, dt DType) error {
	if dt == Float32 || dt == Float16 || dt == Float64 {
		return nil
	}
	return Errorf(NotImplementedError, "\"%s\" not implemented for '%s'", name, dt.cppName())
}

// LstmCell is torch.lstm_cell(input, (hx, cx), w_ih, w_hh, b_ih, b_hh)
// (biases may be nil): hy and cy.
func (rt *Runtime) LstmCell(input, hx, cx, wih, whh, bih, bhh *Tensor) (hy, cy *Tensor, err error) {
	if wih.Dim() != 2 || whh.Dim() != 2 {
		return nil, nil, Errorf(RuntimeError, "lstm_cell: expected 2-D weights, got %dD and %dD", wih.Dim(), whh.Dim())
	}
	hidden := whh.shape[1]
	if err := cellCheck(input, hx, wih.shape[1], hidden, 0); err != nil {
		return nil, nil, err
	}
	if err := cellCheck(input, cx, wih.shape[1], hidden, 1); err != nil {
		return nil, nil, err
	}
	if err := fusedCellDType("_thnn_fused_lstm_cell_cuda", input.dtype); err != nil {
		return nil, nil, err
	}
	ig, hg, err := rt.cellGates(input, hx, wih, whh)
	if err != nil {
		return nil, nil, err
	}
	defer ig.Release()
	defer hg.Release()
	return rt.fusedLstmCell(ig, hg, cx, bih, bhh)
}

// fusedLstmCell is _thnn_fused_lstm_cell: workspace, hy, cy.
func (rt *Runtime) fusedLstmCell(ig, hg, cx, bih, bhh *Tensor) (hy, cy *Tensor, err error) {
	const op = "_thnn_fused_lstm_cell"
	ws, err := rt.empty(op, ig.shape, nil, ig.dtype, ig.device)
	if err != nil {
		return nil, nil, err
	}
	defer ws.Release()
	if hy, err = rt.empty(op, cx.shape, nil, cx.dtype, cx.device); err != nil {
		return nil, nil, err
	}
	if cy, err = rt.empty(op, cx.shape, nil, cx.dtype, cx.device); err != nil {
		hy.Release()
		return nil, nil, err
	}
	n := rt.record("ThnnFusedLstmCellBackward0", ig, hg, cx, bih, bhh)
	if n != nil {
		for _, t := range []*Tensor{ig, hg, bih, bhh, cx} {
			n.save(t, false)
		}
		n.save(cy, true)
		n.save(ws, true)
	}
	hasBias := bih != nil
	n.finish(func(n *Node, g []*Tensor) ([]*Tensor, error) {
		return rt.fusedLstmCellBackward(n, g, hasBias)
	}, hy, cy)
	return hy, cy, nil
}

// fusedLstmCellBackward is _thnn_fused_lstm_cell_backward_impl (CUDA):
// grad_gates, grad_cx, then grad_gates.sum(0) for the biases.
func (rt *Runtime) fusedLstmCellBackward(n *Node, g []*Tensor, hasBias bool) ([]*Tensor, error) {
	res := make(gradSlot, 5)
	if g[0] == nil && g[1] == nil {
		return res, nil
	}
	ws, err := n.unpack(6)
	if err != nil {
		return nil, err
	}
	defer ws.Release()
	cx, err := n.unpack(4)
	if err != nil {
		return nil, err
	}
	defer cx.Release()
	const op = "_thnn_fused_lstm_cell_backward"
	gates, err := rt.empty(op, ws.shape, nil, ws.dtype, ws.device)
	if err != nil {
		return nil, err
	}
	gcx, err := rt.empty(op, cx.shape, nil, cx.dtype, cx.device)
	if err != nil {
		gates.Release()
		return nil, err
	}
	var gb *Tensor
	if hasBias {
		if gb, err = rt.Sum(gates, []int64{0}, false, nil); err != nil {
			gates.Release()
			gcx.Release()
			return nil, err
		}
	}
	// (grad_gates, grad_gates, grad_cx, grad_bias, grad_bias); the ones
	// no edge needs die with the backward's result tuple
	outs := []*Tensor{gates, gates, gcx, gb, gb}
	for i, t := range outs {
		if t != nil && n.needsInput(i) {
			res[i] = t.Retain()
		}
	}
	gates.Release()
	gcx.Release()
	gb.Release()
	return res, nil
}

// GruCell is torch.gru_cell(input, hx, w_ih, w_hh, b_ih, b_hh) (biases may
// be nil): hy.
func (rt *Runtime) GruCell(input, hx, wih, whh, bih, bhh *Tensor) (*Tensor, error) {
	if wih.Dim() != 2 || whh.Dim() != 2 {
		return nil, Errorf(RuntimeError, "gru_cell: expected 2-D weights, got %dD and %dD", wih.Dim(), whh.Dim())
	}
	if err := cellCheck(input, hx, wih.shape[1], whh.shape[1], 0); err != nil {
		return nil, err
	}
	if err := fusedCellDType("_thnn_fused_gru_cell_cuda", input.dtype); err != nil {
		return nil, err
	}
	ig, hg, err := rt.cellGates(input, hx, wih, whh)
	if err != nil {
		return nil, err
	}
	defer ig.Release()
	defer hg.Release()
	const op = "_thnn_fused_gru_cell"
	ws, err := rt.empty(op, []int64{hx.shape[0], hx.shape[1] * 5}, nil, hx.dtype, hx.device)
	if err != nil {
		return nil, err
	}
	defer ws.Release()
	hy, err := rt.empty(op, hx.shape, nil, hx.dtype, hx.device)
	if err != nil {
		return nil, err
	}
	n := rt.record("ThnnFusedGruCellBackward0", ig, hg, hx, bih, bhh)
	if n != nil {
		for _, t := range []*Tensor{ig, hg, hx, bih, bhh} {
			n.save(t, false)
		}
		n.save(ws, true)
	}
	hasBias := bih != nil
	n.finish(func(n *Node, g []*Tensor) ([]*Tensor, error) {
		return rt.fusedGruCellBackward(n, g[0], hasBias)
	}, hy)
	return hy, nil
}

// fusedGruCellBackward is _thnn_fused_gru_cell_backward (CUDA): the input
// and hidden gate gradients [B, 3H], grad_hx, then their sums over the
// batch for the biases.
func (rt *Runtime) fusedGruCellBackward(n *Node, g *Tensor, hasBias bool) ([]*Tensor, error) {
	res := make(gradSlot, 5)
	if g == nil {
		return res, nil
	}
	ws, err := n.unpack(5)
	if err != nil {
		return nil, err
	}
	defer ws.Release()
	const op = "_thnn_fused_gru_cell_backward"
	gateShape := []int64{ws.shape[0], ws.shape[1] / 5 * 3}
	var outs [5]*Tensor
	fail := func(err error) ([]*Tensor, error) {
		for _, t := range outs {
			t.Release()
		}
		return nil, err
	}
	for i := 0; i < 2; i++ {
		if outs[i], err = rt.empty(op, gateShape, nil, ws.dtype, ws.device); err != nil {
			return fail(err)
		}
	}
	if outs[2], err = rt.empty(op, g.shape, nil, g.dtype, g.device); err != nil {
		return fail(err)
	}
	if hasBias {
		for i := 0; i < 2; i++ {
			if outs[3+i], err = rt.Sum(outs[i], []int64{0}, false, nil); err != nil {
				return fail(err)
			}
		}
	}
	for i, t := range outs {
		if t != nil && n.needsInput(i) {
			res[i] = t.Retain()
		}
		t.Release()
	}
	return res, nil
}
