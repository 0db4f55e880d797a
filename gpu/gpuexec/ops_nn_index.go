package gpuexec

import (
	"fmt"

	"github.com/gpumem/playground/gpu"
	"github.com/gpumem/playground/gpu/kernels"
	"github.com/gpumem/playground/sim/torch"
)

// Advanced indexing (t[idx], embedding, index_select, t[mask], their
// backwards, and t[idx] = v) on the index kernels of nn.ptx. An int64
// index walks the indexed dimension; a bool mask over dims d..d+k-1 is
// read on the host (PyTorch's nonzero synchronises too) and turned into
// the element offsets of its true positions, which the same kernels walk
// as one dimension of stride 1.

// indexPlan is how an index kernel walks t[idx] along dim d: the indexed
// shape (t.shape[:d] + idx.shape + t.shape[d+1:], or [count] in place of a
// mask's dims), t's and the index's strides over it, the index on the
// kernel's side and the indexed dimension's stride and size.
type indexPlan struct {
	shape, tStrides, idxStrides []int64
	idx                         operand
	dimStride, dimSize          int64
	mask                        bool
}

// indexOperand brings an int64 index operand to out's side (a CPU index
// of a CUDA tensor is copied to a device scratch buffer).
func (e *Executor) indexOperand(s *scratch, idx operand, cuda bool) (operand, error) {
	if idx.kt != kernels.I64 {
		return operand{}, errUnsupported("index with %s indices", idx.kt)
	}
	if idx.cuda() == cuda {
		return idx, nil
	}
	if !cuda {
		return operand{}, errUnsupported("CUDA indices of a CPU tensor")
	}
	d, err := s.typed(kernels.I64, idx.shape)
	if err != nil {
		return operand{}, err
	}
	return d, e.transfer(d, idx)
}

// planIndex plans t[idx] along dim d (idx int64, or a bool mask).
func (e *Executor) planIndex(s *scratch, t operand, d int, idx operand) (indexPlan, error) {
	if idx.kt == kernels.B8 {
		return e.planMask(s, t, d, idx)
	}
	if d < 0 || d >= len(t.shape) {
		return indexPlan{}, errUnsupported("index along dim %d of %v", d, t.shape)
	}
	io, err := e.indexOperand(s, idx, s.cuda)
	if err != nil {
		return indexPlan{}, err
	}
	shape := append(append(append([]int64{}, t.shape[:d]...), io.shape...), t.shape[d+1:]...)
	ts, is := spread(t.strides, io.strides, d)
	return indexPlan{shape: shape, tStrides: ts, idxStrides: is, idx: io, dimStride: t.strides[d], dimSize: t.shape[d]}, nil
}

// planMask reads a bool mask over t's dims d..d+k-1 and uploads the
// offsets (in t's elements) of its true positions, in row-major order.
func (e *Executor) planMask(s *scratch, t operand, d int, mask operand) (indexPlan, error) {
	k := len(mask.shape)
	if k == 0 || mask.t.Storage == 0 || d < 0 || d+k > len(t.shape) || !sameShape(mask.shape, t.shape[d:d+k]) {
		return indexPlan{}, errUnsupported("mask %v over dims %d.. of %v", mask.shape, d, t.shape)
	}
	vals, err := e.Read(mask.t)
	if err != nil {
		return indexPlan{}, err
	}
	var offs []float64
	maxOff := int64(0)
	c := make([]int64, k)
	for _, v := range vals {
		if v != 0 {
			off := int64(0)
			for i := range c {
				off += c[i] * t.strides[d+i]
			}
			if off < 0 {
				return indexPlan{}, errUnsupported("mask over negative strides")
			}
			offs = append(offs, float64(off))
			maxOff = max(maxOff, off)
		}
		for i := k - 1; i >= 0; i-- {
			c[i]++
			if c[i] < mask.shape[i] {
				break
			}
			c[i] = 0
		}
	}
	n := int64(len(offs))
	io, err := s.typed(kernels.I64, []int64{n})
	if err != nil {
		return indexPlan{}, err
	}
	if err := e.values(io, offs); err != nil {
		return indexPlan{}, err
	}
	rest := len(t.shape) - d - k
	shape := append(append(append([]int64{}, t.shape[:d]...), n), t.shape[d+k:]...)
	ts := append(append(append([]int64{}, t.strides[:d]...), 0), t.strides[d+k:]...)
	is := append(append(make([]int64, d), 1), make([]int64, rest)...)
	return indexPlan{shape: shape, tStrides: ts, idxStrides: is, idx: io, dimStride: 1, dimSize: maxOff + 1, mask: true}, nil
}

// indexLaunch runs an index kernel over shape with the operands' strides
// (dst, src, idx, aligned to shape).
func (e *Executor) indexLaunch(k gpu.Kernels, mode kernels.IndexMode, kt kernels.DType, shape []int64, dst, src, idx operand, st [3][]int64, dimStride, dimSize, skip int64) error {
	if numel(shape) == 0 {
		return nil
	}
	cs, cst := collapse(shape, st[:])
	sh, ops, ok := launchShape(cs, cst)
	if !ok {
		return errUnsupported("index over %d non-mergeable dimensions", len(cs))
	}
	ops[0].Addr, ops[1].Addr, ops[2].Addr = dst.addr, src.addr, idx.addr
	return k.Index(mode, kt, sh, ops[0], ops[1], ops[2], dimStride, dimSize, skip)
}

// spread places an index's strides at dim d of a tensor's strides: the
// strides of t over the result shape t.shape[:d] + idx.shape + t.shape[d+1:]
// (0 on the index dims), and those of idx (0 elsewhere).
func spread(tStrides, idxStrides []int64, d int) (ts, is []int64) {
	ni := len(idxStrides)
	ts = append(append(append([]int64{}, tStrides[:d]...), make([]int64, ni)...), tStrides[d+1:]...)
	is = append(append(make([]int64, d), idxStrides...), make([]int64, len(tStrides)-d-1)...)
	return ts, is
}

// accType is the type in which sums into a kt tensor at repeated indices
// accumulate: float32 for the float types at most as wide (PyTorch
// accumulates half gradients in float32 and rounds once), the type itself
// for float64, int64 and int32 (the GPU's 64/32-bit atomic adds wrap as
// PyTorch's), int64 for uint8/int8/int16 (narrowed at the end: the low
// bits, PyTorch's wrap-around) and for bool (index_put_(accumulate=True):
// indexing_backward_kernel adds in bool's opmath, bool, so a repeated or
// existing true stays true, a logical or; stored back as ≠ 0). Scatter
// does not take bool (PyTorch's atomic bool add is another operation).
func accType(kt kernels.DType) (kernels.DType, bool) {
	switch kt {
	case kernels.B8:
		return kernels.I64, true
	case kernels.F32, kernels.F16, kernels.BF16:
		return kernels.F32, true
	case kernels.F64, kernels.I64, kernels.I32:
		return kt, true
	case kernels.U8, kernels.I8, kernels.I16:
		return kernels.I64, true
	}
	return "", false
}

// accumulates reports the types whose sums at repeated indices have an
// accumulator (accType).
func accumulates(kt kernels.DType) bool {
	_, ok := accType(kt)
	return ok
}

// asType is x itself when it is of type kt, else a contiguous copy of x
// converted to kt.
func (s *scratch) asType(k gpu.Kernels, kt kernels.DType, x operand) (operand, error) {
	if x.kt == kt {
		return x, nil
	}
	c, err := s.typed(kt, x.shape)
	if err != nil {
		return operand{}, err
	}
	return c, s.e.mapOp(k, "copy", c, []operand{x}, 0, 0)
}

// isIndexDType reports a type the gather and scatter kernels move.
func isIndexDType(kt kernels.DType) bool {
	for _, t := range kernels.IndexDTypes {
		if t == kt {
			return true
		}
	}
	return false
}

// index is t[idx] along dim Ints[0] (embedding, index_select, aten::index;
// a bool mask: the output's indexed dim must hold exactly its count).
func (e *Executor) index(k gpu.Kernels, op *torch.ExecOp, out operand, ins []operand) error {
	if len(ins) != 2 || len(op.Ints) < 1 {
		return fmt.Errorf("gpuexec: index takes t, idx and a dim")
	}
	t := ins[0]
	if t.cuda() != out.cuda() || t.kt != out.kt || !isIndexDType(t.kt) {
		return errUnsupported("index of %s %v into %s %v", t.kt, t.shape, out.kt, out.shape)
	}
	return e.withScratch(out.cuda(), func(s *scratch) error {
		p, err := e.planIndex(s, t, int(op.Ints[0]), ins[1])
		if err != nil {
			return err
		}
		if !sameShape(p.shape, out.shape) {
			return errUnsupported("index shapes %v[%v] → %v, want %v", t.shape, ins[1].shape, out.shape, p.shape)
		}
		return e.indexLaunch(k, kernels.IndexGather, out.kt, out.shape, out, t, p.idx,
			[3][]int64{out.strides, p.tStrides, p.idxStrides}, p.dimStride, p.dimSize, torch.NoSkipIndex)
	})
}

// indexBack is index's backward: grad_t zeroed, then grad scattered and
// added at the indices (f32 accumulation).
func (e *Executor) indexBack(k gpu.Kernels, op *torch.ExecOp, out operand, ins []operand) error {
	if len(ins) != 2 || len(op.Ints) < 2 {
		return fmt.Errorf("gpuexec: index_backward takes grad, idx, a dim and skip")
	}
	g := ins[0]
	if g.cuda() != out.cuda() || !accumulates(out.kt) {
		return errUnsupported("index_backward of %s %v into %s %v", g.kt, g.shape, out.kt, out.shape)
	}
	return e.withScratch(out.cuda(), func(s *scratch) error {
		acc, err := s.accumulator(k, out, false)
		if err != nil {
			return err
		}
		if err := e.mapOp(k, "fill", acc, nil, 0, 0); err != nil {
			return err
		}
		if err := e.scatterAdd(k, s, acc, int(op.Ints[0]), ins[1], g, op.Ints[1]); err != nil {
			return err
		}
		if acc.addr != out.addr {
			return e.mapOp(k, "copy", out, []operand{acc}, 0, 0)
		}
		return nil
	})
}

// accumulator is x itself when it is of its accumulation type (accType),
// else a scratch of that type and x's shape (holding x's values when load
// is set).
func (s *scratch) accumulator(k gpu.Kernels, x operand, load bool) (operand, error) {
	at, ok := accType(x.kt)
	if !ok {
		return operand{}, errUnsupported("no accumulator for %s", x.kt)
	}
	if x.kt == at {
		return x, nil
	}
	if load {
		return s.asType(k, at, x)
	}
	return s.typed(at, x.shape)
}

// scatterAdd adds src (broadcast to the indexed shape, converted to acc's
// type) into the accumulator acc at idx along dim d; skip is an index
// value that adds nothing.
func (e *Executor) scatterAdd(k gpu.Kernels, s *scratch, acc operand, d int, idx, src operand, skip int64) error {
	p, err := e.planIndex(s, acc, d, idx)
	if err != nil {
		return err
	}
	if p.mask {
		skip = torch.NoSkipIndex
	}
	if src, err = s.asType(k, acc.kt, src); err != nil {
		return err
	}
	ss, ok := broadcastStrides(p.shape, src.shape, src.strides)
	if !ok {
		return errUnsupported("index values %v into %v", src.shape, p.shape)
	}
	return e.indexLaunch(k, kernels.IndexScatterAdd, acc.kt, p.shape, acc, src, p.idx,
		[3][]int64{p.tStrides, ss, p.idxStrides}, p.dimStride, p.dimSize, skip)
}

// indexPut is index_put_ (t[idx] = v, t[mask] = v): dst at idx along dim
// Ints[0] = the values In[2] broadcast to the indexed shape (or the number
// Scalars[0]), added when Ints[1] (accumulate) is set. With values and
// accumulate, Scalars[0] if given is index_add's alpha: the values are
// scaled in their own type first (PyTorch's kernel adds src·alpha with
// alpha cast to the tensor's type). Ints[2], if given, is the number
// exactly (a Python integer beyond 2^53 into an integer tensor).
func (e *Executor) indexPut(k gpu.Kernels, op *torch.ExecOp, dst operand, ins []operand) error {
	if len(ins) < 2 || len(ins) > 3 || len(op.Ints) < 2 || (len(ins) == 2 && len(op.Scalars) < 1) {
		return fmt.Errorf("gpuexec: index_put takes dst, idx, values or a number, a dim and accumulate")
	}
	d, accumulate := int(op.Ints[0]), op.Ints[1] != 0
	if !isIndexDType(dst.kt) || (accumulate && !accumulates(dst.kt)) {
		return errUnsupported("index_put into %s (accumulate %v)", dst.kt, accumulate)
	}
	return e.withScratch(dst.cuda(), func(s *scratch) error {
		var src operand
		if len(ins) == 3 {
			src = ins[2]
			if src.cuda() != dst.cuda() {
				return errUnsupported("index_put of %v values across devices", src.shape)
			}
			if accumulate && len(op.Scalars) > 0 {
				scaled, err := s.typed(src.kt, src.shape)
				if err != nil {
					return err
				}
				if err := e.mapOp64(k, "affine", scaled, []operand{src}, op.Scalars[0], 0); err != nil {
					return err
				}
				src = scaled
			}
		} else {
			one, err := e.putNumber(k, s, dst, op.Scalars[0], op.Ints[2:])
			if err != nil {
				return err
			}
			src = one
		}
		if accumulate {
			acc, err := s.accumulator(k, dst, true)
			if err != nil {
				return err
			}
			if err := e.scatterAdd(k, s, acc, d, ins[1], src, torch.NoSkipIndex); err != nil {
				return err
			}
			if acc.addr != dst.addr {
				return e.mapOp(k, "copy", dst, []operand{acc}, 0, 0)
			}
			return nil
		}
		p, err := e.planIndex(s, dst, d, ins[1])
		if err != nil {
			return err
		}
		if src.kt != dst.kt {
			c, err := s.typed(dst.kt, src.shape)
			if err != nil {
				return err
			}
			if err := e.mapOp(k, "copy", c, []operand{src}, 0, 0); err != nil {
				return err
			}
			src = c
		}
		ss, ok := broadcastStrides(p.shape, src.shape, src.strides)
		if !ok {
			return errUnsupported("index values %v into %v", src.shape, p.shape)
		}
		return e.indexLaunch(k, kernels.IndexScatter, dst.kt, p.shape, dst, src, p.idx,
			[3][]int64{p.tStrides, ss, p.idxStrides}, p.dimStride, p.dimSize, torch.NoSkipIndex)
	})
}
