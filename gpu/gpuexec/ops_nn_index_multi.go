package gpuexec

import (
	"fmt"

	"github.com/gpumem/playground/gpu"
	"github.com/gpumem/playground/gpu/kernels"
	"github.com/gpumem/playground/sim/torch"
)

// Advanced indexing with several index tensors (x[i, j], x[:, i, j],
// x[i, :, j], x[mask, j]) on the index kernels of nn.ptx, over the
// linearised index: the indices are read on the host (a mask becomes the
// coordinates of its true positions, one list per dim), broadcast
// together, and each broadcast position's element offset in the indexed
// tensor, Σ index·stride over the indexed dims (negative indices wrapped),
// is uploaded as one int64 index that the kernels walk with stride 1. The
// result's indexed dims stand in place of the indexed dims when those are
// adjacent, first otherwise (PyTorch's transposeToFront).

// idxList is one indexed dim: its dim, the shape of its index and the
// index values in row-major order.
type idxList struct {
	dim   int
	shape []int64
	vals  []float64
}

// readIndexLists reads the index operands (int64, or bool masks over as
// many dims as they have) starting at dims into one list per indexed dim.
func (e *Executor) readIndexLists(t operand, idxs []operand, dims []int64) ([]idxList, error) {
	if len(idxs) != len(dims) || len(idxs) == 0 {
		return nil, fmt.Errorf("gpuexec: %d index tensors for %d dims", len(idxs), len(dims))
	}
	var ls []idxList
	for k, idx := range idxs {
		d := int(dims[k])
		vals, err := e.Read(idx.t)
		if err != nil {
			return nil, err
		}
		switch idx.kt {
		case kernels.I64:
			if d < 0 || d >= len(t.shape) {
				return nil, errUnsupported("index at dim %d of %v", d, t.shape)
			}
			ls = append(ls, idxList{dim: d, shape: idx.shape, vals: vals})
		case kernels.B8:
			km := len(idx.shape)
			if km == 0 || d < 0 || d+km > len(t.shape) || !sameShape(idx.shape, t.shape[d:d+km]) {
				return nil, errUnsupported("mask %v over dims %d.. of %v", idx.shape, d, t.shape)
			}
			cols := make([][]float64, km)
			c := make([]int64, km)
			for _, v := range vals {
				if v != 0 {
					for j := range c {
						cols[j] = append(cols[j], float64(c[j]))
					}
				}
				for j := km - 1; j >= 0; j-- {
					c[j]++
					if c[j] < idx.shape[j] {
						break
					}
					c[j] = 0
				}
			}
			for j := range cols {
				ls = append(ls, idxList{dim: d + j, shape: []int64{int64(len(cols[j]))}, vals: cols[j]})
			}
		default:
			return nil, errUnsupported("index with %s indices", idx.kt)
		}
	}
	return ls, nil
}

// planIndexN plans t[idxs at dims]: the indexed shape, t's and the offset
// index's strides over it and the uploaded offsets.
func (e *Executor) planIndexN(s *scratch, t operand, idxs []operand, dims []int64) (indexPlan, error) {
	ls, err := e.readIndexLists(t, idxs, dims)
	if err != nil {
		return indexPlan{}, err
	}
	var b []int64
	for _, l := range ls {
		nb, ok := broadcastShape(b, l.shape)
		if !ok {
			return indexPlan{}, errUnsupported("index shapes do not broadcast: %v and %v", b, l.shape)
		}
		b = nb
	}
	n := numel(b)
	offs := make([]float64, n)
	maxOff := int64(0)
	pos := make([]int64, len(b))
	for p := int64(0); p < n; p++ {
		off := int64(0)
		for _, l := range ls {
			// the list's element at the broadcast position
			li, mul := int64(0), int64(1)
			for j := len(l.shape) - 1; j >= 0; j-- {
				c := pos[len(b)-len(l.shape)+j]
				if l.shape[j] == 1 {
					c = 0
				}
				li += c * mul
				mul *= l.shape[j]
			}
			v, size := int64(l.vals[li]), t.shape[l.dim]
			if v < 0 {
				v += size
			}
			if v < 0 || v >= size {
				return indexPlan{}, errUnsupported("index %d out of range for size %d", int64(l.vals[li]), size)
			}
			off += v * t.strides[l.dim]
		}
		if off < 0 {
			return indexPlan{}, errUnsupported("index over negative strides")
		}
		offs[p] = float64(off)
		maxOff = max(maxOff, off)
		for j := len(pos) - 1; j >= 0; j-- {
			pos[j]++
			if pos[j] < b[j] {
				break
			}
			pos[j] = 0
		}
	}
	io, err := s.typed(kernels.I64, b)
	if err != nil {
		return indexPlan{}, err
	}
	if n > 0 {
		if err := e.values(io, offs); err != nil {
			return indexPlan{}, err
		}
	}
	first, last := ls[0].dim, ls[len(ls)-1].dim
	adjacent := last-first+1 == len(ls)
	indexed := map[int]bool{}
	for _, l := range ls {
		indexed[l.dim] = true
	}
	cb := contiguousStrides(b)
	var shape, ts, is []int64
	if adjacent {
		shape = append(append(append(shape, t.shape[:first]...), b...), t.shape[last+1:]...)
		ts = append(append(append(ts, t.strides[:first]...), make([]int64, len(b))...), t.strides[last+1:]...)
		is = append(append(append(is, make([]int64, first)...), cb...), make([]int64, len(t.shape)-last-1)...)
	} else {
		shape = append(shape, b...)
		ts = append(ts, make([]int64, len(b))...)
		is = append(is, cb...)
		for d := range t.shape {
			if !indexed[d] {
				shape = append(shape, t.shape[d])
				ts = append(ts, t.strides[d])
				is = append(is, 0)
			}
		}
	}
	return indexPlan{shape: shape, tStrides: ts, idxStrides: is, idx: io, dimStride: 1, dimSize: maxOff + 1, mask: true}, nil
}

// broadcastShape is the broadcast of shapes a and b.
func broadcastShape(a, b []int64) ([]int64, bool) {
	n := max(len(a), len(b))
	out := make([]int64, n)
	for i := range out {
		x, y := int64(1), int64(1)
		if j := i - (n - len(a)); j >= 0 {
			x = a[j]
		}
		if j := i - (n - len(b)); j >= 0 {
			y = b[j]
		}
		switch {
		case x == y || y == 1:
			out[i] = x
		case x == 1:
			out[i] = y
		default:
			return nil, false
		}
	}
	return out, true
}

// indexN is ExecIndexN: Out = In[0] gathered at the indices In[1:] (their
// first dims in Ints).
func (e *Executor) indexN(k gpu.Kernels, op *torch.ExecOp, out operand, ins []operand) error {
	if len(ins) < 2 || len(op.Ints) != len(ins)-1 {
		return fmt.Errorf("gpuexec: index_n takes t, indices and their dims")
	}
	t := ins[0]
	if t.cuda() != out.cuda() || t.kt != out.kt || !isIndexDType(t.kt) {
		return errUnsupported("index of %s %v into %s %v", t.kt, t.shape, out.kt, out.shape)
	}
	return e.withScratch(out.cuda(), func(s *scratch) error {
		p, err := e.planIndexN(s, t, ins[1:], op.Ints)
		if err != nil {
			return err
		}
		if !sameShape(p.shape, out.shape) {
			return errUnsupported("index shapes %v → %v, want %v", t.shape, out.shape, p.shape)
		}
		return e.indexLaunch(k, kernels.IndexGather, out.kt, out.shape, out, t, p.idx,
			[3][]int64{out.strides, p.tStrides, p.idxStrides}, p.dimStride, p.dimSize, torch.NoSkipIndex)
	})
}

// scatterAddN adds src (broadcast to the indexed shape, converted to
// acc's type) into the accumulator acc at the indices.
func (e *Executor) scatterAddN(k gpu.Kernels, s *scratch, acc operand, idxs []operand, dims []int64, src operand) error {
	p, err := e.planIndexN(s, acc, idxs, dims)
	if err != nil {
		return err
	}
	if src, err = s.asType(k, acc.kt, src); err != nil {
		return err
	}
	ss, ok := broadcastStrides(p.shape, src.shape, src.strides)
	if !ok {
		return errUnsupported("index values %v into %v", src.shape, p.shape)
	}
	return e.indexLaunch(k, kernels.IndexScatterAdd, acc.kt, p.shape, acc, src, p.idx,
		[3][]int64{p.tStrides, ss, p.idxStrides}, p.dimStride, p.dimSize, torch.NoSkipIndex)
}

// indexNBack is ExecIndexNBack: Out zeroed, then In[0] (the gradient)
// added at the indices In[1:] (f32 accumulation).
func (e *Executor) indexNBack(k gpu.Kernels, op *torch.ExecOp, out operand, ins []operand) error {
	if len(ins) < 2 || len(op.Ints) != len(ins)-1 {
		return fmt.Errorf("gpuexec: index_n_backward takes grad, indices and their dims")
	}
	g := ins[0]
	if g.cuda() != out.cuda() || !accumulates(out.kt) {
		return errUnsupported("index_n_backward of %s %v into %s %v", g.kt, g.shape, out.kt, out.shape)
	}
	return e.withScratch(out.cuda(), func(s *scratch) error {
		acc, err := s.accumulator(k, out, false)
		if err != nil {
			return err
		}
		if err := e.mapOp(k, "fill", acc, nil, 0, 0); err != nil {
			return err
		}
		if err := e.scatterAddN(k, s, acc, ins[1:], op.Ints, g); err != nil {
			return err
		}
		if acc.addr != out.addr {
			return e.mapOp(k, "copy", out, []operand{acc}, 0, 0)
		}
		return nil
	})
}

// indexNPut is ExecIndexNPut: dst (In[0]) at the indices gets the values
// (the last input when Ints[1] is 1, else the number Scalars[0]), added
// when Ints[0] (accumulate) is 1; the indices' dims follow in Ints[2:].
// Ints[1] = 2 is the number given exactly as the last of Ints (a Python
// integer beyond 2^53 into an integer tensor).
func (e *Executor) indexNPut(k gpu.Kernels, op *torch.ExecOp, dst operand, ins []operand) error {
	if len(op.Ints) < 3 {
		return fmt.Errorf("gpuexec: index_n_put takes accumulate, has values and dims")
	}
	accumulate, has := op.Ints[0] != 0, int(op.Ints[1])
	dims, exact := op.Ints[2:], []int64(nil)
	if has == 2 {
		dims, exact, has = op.Ints[2:len(op.Ints)-1], op.Ints[len(op.Ints)-1:], 0
	}
	if len(ins) != 1+len(dims)+has || (has == 0 && len(op.Scalars) < 1) {
		return fmt.Errorf("gpuexec: index_n_put takes dst, %d indices and values or a number", len(dims))
	}
	if !isIndexDType(dst.kt) || (accumulate && !accumulates(dst.kt)) {
		return errUnsupported("index_put into %s (accumulate %v)", dst.kt, accumulate)
	}
	idxs := ins[1 : 1+len(dims)]
	return e.withScratch(dst.cuda(), func(s *scratch) error {
		var src operand
		if has == 1 {
			src = ins[len(ins)-1]
			if src.cuda() != dst.cuda() {
				return errUnsupported("index_put of %v values across devices", src.shape)
			}
		} else {
			one, err := e.putNumber(k, s, dst, op.Scalars[0], exact)
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
			if err := e.scatterAddN(k, s, acc, idxs, dims, src); err != nil {
				return err
			}
			if acc.addr != dst.addr {
				return e.mapOp(k, "copy", dst, []operand{acc}, 0, 0)
			}
			return nil
		}
		p, err := e.planIndexN(s, dst, idxs, dims)
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

// execIndexN dispatches the kinds of this file; handled is false for
// others.
func (e *Executor) execIndexN(k gpu.Kernels, op *torch.ExecOp, out operand, ins []operand) (handled bool, err error) {
	switch op.Kind {
	case torch.ExecIndexN:
		return true, e.indexN(k, op, out, ins)
	case torch.ExecIndexNBack:
		return true, e.indexNBack(k, op, out, ins)
	case torch.ExecIndexNPut:
		return true, e.indexNPut(k, op, out, ins)
	}
	return false, nil
}

// crossDeviceIndexN reports the kinds of this file: their index operands
// may be on the host while the tensor is on the device.
func crossDeviceIndexN(kind torch.ExecKind) bool {
	return kind == torch.ExecIndexN || kind == torch.ExecIndexNBack || kind == torch.ExecIndexNPut
}
