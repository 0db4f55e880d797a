package torch

import "github.com/gpumem/playground/sim/trace"

// rnnBackPlan is what CudnnRnnBackward0 needs besides its saved tensors.
type rnnBackPlan struct {
	geom         rnnGeom
	args         RNNArgs
	nWeights     int
	tempBuf      bool
	xShape       []int64
	hxShape      []int64
	weightShapes [][]int64
	rng          *rnnRNG // the forward's dropout mask state (values only)
}

// rnnBackward is _cudnn_rnn_backward (measured order, q13):
//   - undefined incoming gradients become zeros: grad_output, grad_hy,
//     grad_cy (LSTM);
//   - backward_input: input.contiguous() and grad_output.contiguous() in
//     time-major layout (copies for batch_first), dx, dhx, dcx, the
//     workspace (freed at once), then the copies are freed;
//   - backward_weight (when a weight needs grad): input.contiguous()
//     again, dw = zeros like the flattened weights, the workspace; the
//     weights' gradients are views of dw (AccumulateGrad steals them, so
//     .grad of every weight shares one buffer);
//   - the zeros are freed (last made first), then the unneeded results
//     (dx, dhx, dcx) when the result tuple dies.
func (rt *Runtime) rnnBackward(n *Node, grads []*Tensor, p rnnBackPlan) ([]*Tensor, error) {
	a, g := p.args, p.geom
	nw := p.nWeights
	res := make(gradSlot, nw+3)
	if !a.Train {
		return nil, Errorf(RuntimeError, "backward_input can only be called in training mode")
	}
	var held []*Tensor // unpacked saved tensors
	defer func() { releaseAll(held) }()
	for _, i := range []int{0, nw + 2, nw + 3, nw + 4, nw + 5, nw + 6} {
		t, err := n.unpack(i)
		if err != nil {
			return nil, err
		}
		if t != nil {
			held = append(held, t)
		}
	}
	x := held[0]
	S, B, H, D := g.seq, g.batch, g.hidden, g.dirs
	dev, dt := x.device, x.dtype
	var locals []*Tensor // zeros for undefined incoming gradients
	defer func() {
		for i := len(locals) - 1; i >= 0; i-- {
			locals[i].Release()
		}
	}()
	zeros := func(shape, strides []int64) (*Tensor, error) {
		z, err := rt.empty("zeros_like", shape, strides, dt, dev)
		if err == nil {
			locals = append(locals, z)
			if rt.exec != nil {
				rt.compute1(ExecFill, z, nil, 0)
			}
		}
		return z, err
	}
	gOut := grads[0]
	if gOut == nil {
		shape, strides := rnnOutShape(g), []int64(nil)
		if a.BatchFirst {
			shape, strides = []int64{B, S, D * H}, []int64{D * H, B * D * H, 1}
		}
		z, err := zeros(shape, strides)
		if err != nil {
			return nil, err
		}
		gOut = z
	}
	var gHy, gCy *Tensor
	if len(grads) >= 2 {
		gHy = grads[1]
	}
	if gHy == nil {
		z, err := zeros(p.hxShape, nil)
		if err != nil {
			return nil, err
		}
		gHy = z
	}
	if a.Mode == "LSTM" {
		if len(grads) >= 3 {
			gCy = grads[2]
		}
		if gCy == nil {
			z, err := zeros(p.hxShape, nil)
			if err != nil {
				return nil, err
			}
			gCy = z
		}
	}
	ws := int64(0)
	if dev.IsCUDA() {
		ws = rnnWorkspace(g, rnnWSTable)
	}
	// backward_input
	var copies []*Tensor
	releaseCopies := func() {
		for i := len(copies) - 1; i >= 0; i-- {
			copies[i].Release()
		}
		copies = nil
	}
	inputCopy := func() error {
		if rnnTimeMajorContiguous(x, a.BatchFirst) {
			return nil
		}
		c, err := rt.empty("_cudnn_rnn_backward", rnnXShape(g), nil, dt, dev)
		if err == nil {
			copies = append(copies, c)
		}
		return err
	}
	if err := inputCopy(); err != nil {
		return res.fail(err)
	}
	if !rnnTimeMajorContiguous(gOut, a.BatchFirst) {
		c, err := rt.empty("_cudnn_rnn_backward", rnnOutShape(g), nil, dt, dev)
		if err != nil {
			releaseCopies()
			return res.fail(err)
		}
		copies = append(copies, c)
	}
	dx, err := rt.empty("_cudnn_rnn_backward", rnnXShape(g), nil, dt, dev)
	if err != nil {
		releaseCopies()
		return res.fail(err)
	}
	if a.BatchFirst {
		dx.shape = []int64{B, S, g.inp}
		dx.strides = []int64{g.inp, B * g.inp, 1}
	}
	res[0] = dx
	hidden := []*Tensor{nil, nil}
	for i := 0; i < 1+btoi(a.Mode == "LSTM"); i++ {
		h, err := rt.empty("_cudnn_rnn_backward", p.hxShape, nil, dt, dev)
		if err != nil {
			releaseCopies()
			return res.fail(err)
		}
		hidden[i] = h
		res[nw+1+i] = h
	}
	if err := rt.rnnWorkspaceOnce("backward-data", ws); err != nil {
		releaseCopies()
		return res.fail(err)
	}
	releaseCopies()
	// backward_weight
	needW := false
	for i := 1; i <= nw; i++ {
		needW = needW || n.needsInput(i)
	}
	var dw *Tensor // released after the values are computed (the views keep it)
	if needW {
		if err := inputCopy(); err != nil {
			return res.fail(err)
		}
		dw, err = rt.empty("_cudnn_rnn_backward", []int64{g.weightBytes / dt.Size()}, nil, dt, dev)
		if err != nil {
			releaseCopies()
			return res.fail(err)
		}
		if err := rt.rnnWorkspaceOnce("backward-weight", ws); err != nil {
			dw.Release()
			releaseCopies()
			return res.fail(err)
		}
		releaseCopies()
		offs := rnnWeightOffsets(p.weightShapes)
		for i, shape := range p.weightShapes {
			if !n.needsInput(1 + i) {
				continue
			}
			dw.storage.retain()
			res[1+i] = rt.newTensorOn(dw.storage, cloneShape(shape), contiguousStrides(shape), offs[i], dt)
		}
	}
	if rt.exec != nil && !g.packed {
		rt.rnnBackCompute(n, res, dw, held, gOut, gHy, gCy, p)
	}
	if dw != nil {
		dw.Release()
	}
	// the zeros die first (deferred above runs at return: release them now
	// to keep PyTorch's order), then the unneeded results
	for i := len(locals) - 1; i >= 0; i-- {
		locals[i].Release()
	}
	locals = nil
	for _, i := range []int{0, nw + 1, nw + 2} {
		if res[i] != nil && !n.needsInput(i) {
			res[i].Release()
			res[i] = nil
		}
	}
	return res, nil
}

// rnnWorkspaceOnce allocates and frees one cuDNN RNN workspace.
func (rt *Runtime) rnnWorkspaceOnce(pass string, size int64) error {
	if size <= 0 {
		return nil
	}
	b, err := rt.malloc(size, trace.Label{Kind: trace.LabelWorkspace, Name: "cuDNN RNN workspace (" + pass + ")",
		Detail: "work space of cudnnRNNBackward, freed when the call returns"})
	if err != nil {
		return err
	}
	rt.free(b)
	return nil
}

// rnnWeightOffsets are the element offsets of the weights in cuDNN's
// flattened layout (every matrix in order, then every bias), as
// get_parameters slices the buffer.
func rnnWeightOffsets(shapes [][]int64) []int64 {
	offs := make([]int64, len(shapes))
	var off int64
	for pass := 0; pass < 2; pass++ {
		for i, s := range shapes {
			if (len(s) == 2) != (pass == 0) {
				continue
			}
			offs[i] = off
			n := int64(1)
			for _, d := range s {
				n *= d
			}
			off += n
		}
	}
	return offs
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}
