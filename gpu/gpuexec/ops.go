package gpuexec

import (
	"fmt"

	"github.com/gpumem/playground/gpu"
	"github.com/gpumem/playground/gpu/kernels"
	"github.com/gpumem/playground/sim/torch"
)

// temp is a scratch buffer outside the caching allocator: on the device a
// cuMemAlloc of its own (freed when the op ends, so the driver's figure
// comes back), on the host a range of the executor's memory.
type temp struct {
	addr uint64
	size int64
	cuda bool
}

func (e *Executor) tempAlloc(cuda bool, nbytes int64) (temp, error) {
	nbytes = max(nbytes, 8)
	if cuda {
		a, err := e.dev.Malloc(nbytes)
		if err != nil {
			return temp{}, fmt.Errorf("gpuexec: scratch of %d bytes: %w", nbytes, err)
		}
		return temp{a, nbytes, true}, nil
	}
	a, err := e.hostAlloc(nbytes)
	return temp{a, nbytes, false}, err
}

func (e *Executor) tempFree(t temp) error {
	if t.cuda {
		return e.dev.Free(t.addr, t.size)
	}
	e.host.Remove(t.addr)
	return nil
}

// tempOperand is a contiguous operand of shape and type kt at a temp.
func tempOperand(t temp, kt kernels.DType, shape []int64) operand {
	return operand{t: torch.ExecTensor{CUDA: t.cuda}, kt: kt, addr: t.addr, shape: shape, strides: contiguousStrides(shape)}
}

// transfer copies between the host and the device (to(), cuda(), cpu()):
// the host side is converted and laid out contiguously first, the device
// side goes through a contiguous scratch when the tensor is not.
func (e *Executor) transfer(out, in operand) (err error) {
	n := numel(out.shape)
	if n == 0 {
		return nil
	}
	nbytes := n * out.kt.Size()
	stage, err := e.tempAlloc(false, nbytes)
	if err != nil {
		return err
	}
	defer func() {
		if ferr := e.tempFree(stage); err == nil {
			err = ferr
		}
	}()
	host := tempOperand(stage, out.kt, out.shape)
	bytes, err := e.host.Bytes(stage.addr, nbytes)
	if err != nil {
		return err
	}
	if out.cuda() { // host → device
		if err := e.mapOp(e.hostK, "copy", host, []operand{in}, 0, 0); err != nil {
			return err
		}
		if contiguous(out.shape, out.strides) {
			return e.dev.CopyToDevice(out.addr, bytes)
		}
		dt, err := e.tempAlloc(true, nbytes)
		if err != nil {
			return err
		}
		if err := e.dev.CopyToDevice(dt.addr, bytes); err != nil {
			return err
		}
		if err := e.mapOp(e.dev.Kernels(), "copy", out, []operand{tempOperand(dt, out.kt, out.shape)}, 0, 0); err != nil {
			return err
		}
		if err := e.dev.Synchronize(); err != nil {
			return err
		}
		return e.tempFree(dt)
	}
	// device → host
	if in.kt == out.kt && sameShape(in.shape, out.shape) && contiguous(in.shape, in.strides) {
		if err := e.dev.CopyFromDevice(bytes, in.addr); err != nil {
			return err
		}
	} else {
		dt, err := e.tempAlloc(true, nbytes)
		if err != nil {
			return err
		}
		if err := e.mapOp(e.dev.Kernels(), "copy", tempOperand(dt, out.kt, out.shape), []operand{in}, 0, 0); err != nil {
			return err
		}
		if err := e.dev.CopyFromDevice(bytes, dt.addr); err != nil {
			return err
		}
		if err := e.tempFree(dt); err != nil {
			return err
		}
	}
	return e.mapOp(e.hostK, "copy", out, []operand{host}, 0, 0)
}

func sameShape(a, b []int64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// matmul is Out[b] = In[0][b]·In[1][b] with the batch dimensions of Out
// (the inputs' broadcast, stride 0 where they lack them).
func (e *Executor) matmul(k gpu.Kernels, out operand, ins []operand) error {
	if len(ins) != 2 {
		return fmt.Errorf("gpuexec: matmul takes 2 inputs, got %d", len(ins))
	}
	if isIntType(out.kt) && !out.cuda() {
		return e.matmulIntHost(out, ins[0], ins[1])
	}
	a, b, out := vectorOperands(ins[0], ins[1], out)
	if a.kt != out.kt || b.kt != out.kt || out.kt == kernels.I64 {
		return errUnsupported("matmul of %s and %s into %s", a.kt, b.kt, out.kt)
	}
	r := len(out.shape)
	if r < 2 || len(a.shape) < 2 || len(b.shape) < 2 {
		return errUnsupported("matmul of 1-d operands")
	}
	m, n, kk := out.shape[r-2], out.shape[r-1], a.shape[len(a.shape)-1]
	if a.shape[len(a.shape)-2] != m || b.shape[len(b.shape)-1] != n || b.shape[len(b.shape)-2] != kk {
		return errUnsupported("matmul shapes %v · %v → %v", a.shape, b.shape, out.shape)
	}
	batch := out.shape[:r-2]
	as, ok1 := broadcastStrides(batch, a.shape[:len(a.shape)-2], a.strides[:len(a.strides)-2])
	bs, ok2 := broadcastStrides(batch, b.shape[:len(b.shape)-2], b.strides[:len(b.strides)-2])
	if !ok1 || !ok2 {
		return errUnsupported("matmul batch shapes %v, %v → %v", a.shape, b.shape, out.shape)
	}
	cs, cst := collapse(batch, [][]int64{out.strides[:r-2], as, bs})
	last := func(s []int64) int64 {
		if len(s) == 0 {
			return 0
		}
		return s[len(s)-1]
	}
	inner := int64(1)
	if len(cs) > 0 {
		inner = cs[len(cs)-1]
	}
	outer := cs
	if len(outer) > 0 {
		outer = outer[:len(outer)-1]
	}
	size := uint64(out.kt.Size())
	idx := make([]int64, len(outer))
	for z := int64(0); z < numel(outer); z++ {
		var offs [3]int64
		for d, i := range idx {
			for j := range offs {
				offs[j] += i * cst[j][d]
			}
		}
		err := k.BatchedMatmul(out.kt,
			out.addr+uint64(offs[0])*size, a.addr+uint64(offs[1])*size, b.addr+uint64(offs[2])*size,
			inner, m, n, kk,
			gpu.Strides3{last(cst[0]), out.strides[r-2], out.strides[r-1]},
			gpu.Strides3{last(cst[1]), a.strides[len(a.strides)-2], a.strides[len(a.strides)-1]},
			gpu.Strides3{last(cst[2]), b.strides[len(b.strides)-2], b.strides[len(b.strides)-1]})
		if err != nil {
			return err
		}
		for d := len(idx) - 1; d >= 0; d-- {
			idx[d]++
			if idx[d] < outer[d] {
				break
			}
			idx[d] = 0
		}
	}
	return nil
}

// reduce is sum/mean over the dims in op.Ints (all if none).
func (e *Executor) reduce(k gpu.Kernels, op *torch.ExecOp, out operand, ins []operand) error {
	if len(ins) != 1 {
		return fmt.Errorf("gpuexec: %s takes 1 input", op.Kind)
	}
	in := ins[0]
	if in.kt != out.kt || in.kt == kernels.I64 {
		return errUnsupported("%s of %s into %s", op.Kind, in.kt, out.kt)
	}
	if !contiguous(out.shape, out.strides) {
		return errUnsupported("%s into a non-contiguous tensor", op.Kind)
	}
	r := len(in.shape)
	red := make([]bool, r)
	if len(op.Ints) == 0 {
		for d := range red {
			red[d] = true
		}
	}
	for _, d := range op.Ints {
		if d < 0 {
			d += int64(r)
		}
		if d < 0 || d >= int64(r) {
			return fmt.Errorf("gpuexec: %s over dim %d of a %d-d tensor", op.Kind, d, r)
		}
		red[d] = true
	}
	var oShape, oSt, iShape, iSt []int64
	for d := 0; d < r; d++ {
		if red[d] {
			iShape, iSt = append(iShape, in.shape[d]), append(iSt, in.strides[d])
		} else {
			oShape, oSt = append(oShape, in.shape[d]), append(oSt, in.strides[d])
		}
	}
	if numel(oShape) != numel(out.shape) {
		return errUnsupported("%s output shape %v for input %v", op.Kind, out.shape, in.shape)
	}
	ics, icst := collapse(iShape, [][]int64{iSt})
	ocs, ocst := collapse(oShape, [][]int64{oSt})
	if len(ics) > 1 || len(ocs) > 3 {
		return errUnsupported("%s over dimensions that do not merge", op.Kind)
	}
	rows := gpu.Rows{Outer: [3]int64{1, 1, 1}, Inner: 1}
	if len(ics) == 1 {
		rows.Inner, rows.InnerStride = ics[0], icst[0][0]
	}
	pad := 3 - len(ocs)
	copy(rows.Outer[pad:], ocs)
	copy(rows.OuterStrides[pad:], ocst[0])
	scale := 1.0
	if op.Kind == torch.ExecMean {
		scale = opScale(out.kt, 1/float64(numel(iShape)))
	}
	if rows.Inner == 0 {
		return e.mapOp(k, "fill", out, nil, 0, 0) // sum over nothing; mean gives NaN in PyTorch, 0 here
	}
	return k.ReduceRows(out.kt, out.addr, in.addr, scale, rows)
}

// rowsOf views an operand as [o, d, q] around dim: its (o, q, d) strides.
func rowsOf(x operand, dim int) (gpu.Strides3, bool) {
	_, os := collapse(x.shape[:dim], [][]int64{x.strides[:dim]})
	_, qs := collapse(x.shape[dim+1:], [][]int64{x.strides[dim+1:]})
	if len(os[0]) > 1 || len(qs[0]) > 1 {
		return gpu.Strides3{}, false
	}
	var s gpu.Strides3
	if len(os[0]) == 1 {
		s[0] = os[0][0]
	}
	if len(qs[0]) == 1 {
		s[1] = qs[0][0]
	}
	s[2] = x.strides[dim]
	return s, true
}

func (e *Executor) softmax(k gpu.Kernels, op *torch.ExecOp, out operand, ins []operand) error {
	mode := map[torch.ExecKind]kernels.SoftmaxMode{
		torch.ExecSoftmax: kernels.SoftmaxFwd, torch.ExecLogSoftm: kernels.LogSoftmaxFwd,
		torch.ExecSoftmaxBack: kernels.SoftmaxBwd, torch.ExecLogSoftmaxBack: kernels.LogSoftmaxBwd,
	}[op.Kind]
	want := 1
	if mode == kernels.SoftmaxBwd || mode == kernels.LogSoftmaxBwd {
		want = 2
	}
	if len(ins) != want || len(op.Ints) < 1 {
		return fmt.Errorf("gpuexec: %s takes %d inputs and a dim", op.Kind, want)
	}
	r := len(out.shape)
	dim := int(op.Ints[0])
	if r == 0 {
		r, dim = 1, 0
		out.shape, out.strides = []int64{1}, []int64{1}
		for i := range ins {
			ins[i].shape, ins[i].strides = []int64{1}, []int64{1}
		}
	}
	if dim < 0 {
		dim += r
	}
	if dim < 0 || dim >= r {
		return fmt.Errorf("gpuexec: %s over dim %d of a %d-d tensor", op.Kind, op.Ints[0], r)
	}
	var st [3]gpu.Strides3
	ops := append([]operand{out}, ins...)
	for i, x := range ops {
		if x.kt != out.kt || !sameShape(x.shape, out.shape) {
			return errUnsupported("%s over %s %v into %s %v", op.Kind, x.kt, x.shape, out.kt, out.shape)
		}
		s, ok := rowsOf(x, dim)
		if !ok {
			return errUnsupported("%s over a layout whose rows do not merge", op.Kind)
		}
		st[i] = s
	}
	if out.kt == kernels.I64 {
		return errUnsupported("%s on int64", op.Kind)
	}
	o, q := numel(out.shape[:dim]), numel(out.shape[dim+1:])
	var b uint64
	if want == 2 {
		b = ins[1].addr
	}
	return k.Softmax(mode, out.kt, out.addr, ins[0].addr, b, o, out.shape[dim], q, st[0], st[1], st[2])
}

// nll is nll_loss (mean or sum) and its backward.
func (e *Executor) nll(k gpu.Kernels, op *torch.ExecOp, out operand, ins []operand) error {
	if len(ins) != 2 || len(op.Ints) < 2 {
		return fmt.Errorf("gpuexec: %s takes 2 inputs and (reduction, ignore_index)", op.Kind)
	}
	red, ignore := op.Ints[0], op.Ints[1]
	if red != 1 && red != 2 {
		return errUnsupported("%s with reduction='none'", op.Kind)
	}
	tgt := ins[1]
	if tgt.kt != kernels.I64 {
		return errUnsupported("%s with %s targets", op.Kind, tgt.kt)
	}
	x := ins[0] // log-probabilities (forward) or the [N, C] grad_input (backward: out)
	if op.Kind == torch.ExecNLLLossBack {
		x = out
		if ins[0].kt != out.kt {
			return errUnsupported("%s with a %s grad", op.Kind, ins[0].kt)
		}
	} else if x.kt != out.kt {
		return errUnsupported("%s of %s into %s", op.Kind, x.kt, out.kt)
	}
	var n, sn, sc, st int64
	switch {
	case len(x.shape) == 2 && len(tgt.shape) == 1:
		n, sn, sc, st = x.shape[0], x.strides[0], x.strides[1], tgt.strides[0]
	case len(x.shape) == 1 && len(tgt.shape) == 0:
		n, sn, sc, st = 1, 0, x.strides[0], 0
	default:
		return errUnsupported("%s over shapes %v, %v", op.Kind, x.shape, tgt.shape)
	}
	if op.Kind == torch.ExecNLLLoss {
		return k.NLLLoss(false, out.kt, out.addr, x.addr, tgt.addr, n, sn, sc, st, ignore, red == 1)
	}
	if err := e.mapOp(k, "fill", out, nil, 0, 0); err != nil {
		return err
	}
	return k.NLLLoss(true, out.kt, out.addr, ins[0].addr, tgt.addr, n, sn, sc, st, ignore, red == 1)
}

// mse is mse_loss and its backward, composed of map kernels (and a row
// reduction over a scratch buffer for the forward's mean or sum).
func (e *Executor) mse(k gpu.Kernels, op *torch.ExecOp, out operand, ins []operand) (err error) {
	red := int64(1)
	if len(op.Ints) > 0 {
		red = op.Ints[0]
	}
	if op.Kind == torch.ExecMSELossBack {
		if len(ins) != 3 {
			return fmt.Errorf("gpuexec: mse_loss_backward takes grad, input, target")
		}
		if err := e.mapOp(k, "sub", out, ins[1:], 1, 0); err != nil {
			return err
		}
		if err := e.mapOp(k, "mul", out, []operand{out, ins[0]}, 0, 0); err != nil {
			return err
		}
		scale := 2.0
		if red == 1 {
			scale /= float64(numel(out.shape))
		}
		return e.mapOp64(k, "affine", out, []operand{out}, opScale(out.kt, scale), 0)
	}
	if len(ins) != 2 {
		return fmt.Errorf("gpuexec: mse_loss takes input, target")
	}
	if red == 0 {
		if err := e.mapOp(k, "sub", out, ins, 1, 0); err != nil {
			return err
		}
		return e.mapOp(k, "square", out, []operand{out}, 0, 0)
	}
	shape := ins[0].shape
	if len(ins[1].shape) > len(shape) {
		shape = ins[1].shape
	}
	n := numel(shape)
	t, err := e.tempAlloc(out.cuda(), n*out.kt.Size())
	if err != nil {
		return err
	}
	defer func() {
		if serr := e.syncIf(out.cuda()); err == nil {
			err = serr
		}
		if ferr := e.tempFree(t); err == nil {
			err = ferr
		}
	}()
	diff := tempOperand(t, out.kt, shape)
	if err := e.mapOp(k, "sub", diff, ins, 1, 0); err != nil {
		return err
	}
	if err := e.mapOp(k, "square", diff, []operand{diff}, 0, 0); err != nil {
		return err
	}
	scale := 1.0
	if red == 1 {
		scale = opScale(out.kt, 1/float64(n))
	}
	return k.ReduceRows(out.kt, out.addr, diff.addr, scale, gpu.Rows{Outer: [3]int64{1, 1, 1}, Inner: n, InnerStride: 1})
}

// syncIf waits for the device before a device scratch buffer is freed.
func (e *Executor) syncIf(cuda bool) error {
	if cuda {
		return e.dev.Synchronize()
	}
	return nil
}

// values writes host numbers (torch.tensor(data)) into out: encoded on the
// host, then copied to the device or laid out by a host copy.
func (e *Executor) values(out operand, vals []float64) (err error) {
	n := numel(out.shape)
	if int64(len(vals)) != n {
		return fmt.Errorf("gpuexec: %d values for %d elements", len(vals), n)
	}
	if n == 0 {
		return nil
	}
	if !exactValues(out.kt, vals) {
		return errUnsupported("%s values beyond 2^53", out.kt)
	}
	stage, err := e.tempAlloc(false, n*out.kt.Size())
	if err != nil {
		return err
	}
	defer func() {
		if ferr := e.tempFree(stage); err == nil {
			err = ferr
		}
	}()
	raw, err := e.host.Bytes(stage.addr, n*out.kt.Size())
	if err != nil {
		return err
	}
	for i, v := range vals {
		encode(out.kt, raw[int64(i)*out.kt.Size():], v)
	}
	if !out.cuda() {
		return e.mapOp(e.hostK, "copy", out, []operand{tempOperand(stage, out.kt, out.shape)}, 0, 0)
	}
	if !contiguous(out.shape, out.strides) {
		return errUnsupported("values into a non-contiguous CUDA tensor")
	}
	return e.dev.CopyToDevice(out.addr, raw)
}
