package gpuexec

import (
	"fmt"
	"math"

	"github.com/gpumem/playground/gpu"
	"github.com/gpumem/playground/gpu/kernels"
	"github.com/gpumem/playground/sim/torch"
)

// Pooling (max_pool2d with indices, avg_pool2d, adaptive_avg_pool2d and
// their backwards) over the window tables of ops_nn_window.go, in f32:
// the windows are gathered into [planes, L, K] (padding reads −inf for
// max, 0 for average), then reduced; the backwards scatter-add the
// gradient into a zeroed f32 plane.

// maxPool is ExecMaxPool: the running maximum over the K window elements
// takes an element when it is greater or NaN (PyTorch's test), and its
// index with it; an all −inf window keeps the first valid element's index.
func (e *Executor) maxPool(k gpu.Kernels, op *torch.ExecOp, out operand, ins []operand) error {
	outs, err := e.resolveOuts(op, out)
	if err != nil {
		return err
	}
	if len(outs) != 2 || len(ins) != 1 || len(op.Ints) != 8 {
		return fmt.Errorf("gpuexec: max_pool2d takes y, indices, x and 8 ints")
	}
	x, y, idx := ins[0], outs[0], outs[1]
	np, h, w, err := planeSizes(x)
	if err != nil {
		return err
	}
	r := len(y.shape)
	oh, ow := y.shape[r-2], y.shape[r-1]
	ks, st, pd, dl := op.Ints[0:2], op.Ints[2:4], op.Ints[4:6], op.Ints[6:8]
	rows := slidingAxis(h, oh, ks[0], st[0], pd[0], dl[0])
	cols := slidingAxis(w, ow, ks[1], st[1], pd[1], dl[1])
	vals, l, kk := windowTable(rows, cols, h, w)
	first := make([]float64, 0, l)
	for _, rw := range rows {
		for _, c := range cols {
			first = append(first, float64(firstValid(rw)*w+firstValid(c)))
		}
	}
	return e.withScratch(out.cuda(), func(s *scratch) error {
		xf, err := s.asF32(k, x)
		if err != nil {
			return err
		}
		xf = reshaped(xf, []int64{np, h * w})
		tbl, err := s.table(kernels.I64, []int64{l, kk}, vals)
		if err != nil {
			return err
		}
		tblF, err := s.table(kernels.F32, []int64{l, kk}, vals)
		if err != nil {
			return err
		}
		firstF, err := s.table(kernels.F32, []int64{l}, first)
		if err != nil {
			return err
		}
		win, err := s.f32([]int64{np, l, kk})
		if err != nil {
			return err
		}
		if err := e.gatherWindows(k, win, xf, tbl, float32(math.Inf(-1))); err != nil {
			return err
		}
		cur, err := s.f32([]int64{np, l})
		if err != nil {
			return err
		}
		at, err := s.f32([]int64{np, l})
		if err != nil {
			return err
		}
		take, err := s.typed(kernels.B8, []int64{np, l})
		if err != nil {
			return err
		}
		nan, err := s.typed(kernels.B8, []int64{np, l})
		if err != nil {
			return err
		}
		if err := e.mapOp(k, "fill", cur, nil, float32(math.Inf(-1)), 0); err != nil {
			return err
		}
		if err := e.mapOp(k, "copy", at, []operand{firstF}, 0, 0); err != nil {
			return err
		}
		for j := int64(0); j < kk; j++ {
			col := win
			col.shape, col.strides, col.addr = []int64{np, l}, []int64{l * kk, kk}, win.addr+uint64(4*j)
			ij := tblF
			ij.shape, ij.strides, ij.addr = []int64{l}, []int64{kk}, tblF.addr+uint64(4*j)
			if err := run([]func() error{
				func() error { return e.mapOp(k, "gt", take, []operand{col, cur}, 0, 0) },
				func() error { return e.mapOp(k, "isnan", nan, []operand{col}, 0, 0) },
				func() error { return e.mapOp(k, "logical_or", take, []operand{take, nan}, 0, 0) },
				func() error { return e.mapOp(k, "where", at, []operand{take, ij, at}, 0, 0) },
				func() error { return e.mapOp(k, "where", cur, []operand{take, col, cur}, 0, 0) },
			}); err != nil {
				return err
			}
		}
		if err := e.mapOp(k, "copy", y, []operand{reshaped(cur, y.shape)}, 0, 0); err != nil {
			return err
		}
		return e.mapOp(k, "copy", idx, []operand{reshaped(at, idx.shape)}, 0, 0)
	})
}

// firstValid is the first non-padding coordinate of a window (PyTorch's
// initial max index), 0 if none.
func firstValid(w []int64) int64 {
	for _, v := range w {
		if v >= 0 {
			return v
		}
	}
	return 0
}

// maxPoolBack is ExecMaxPoolBack: grad_x[index] += grad.
func (e *Executor) maxPoolBack(k gpu.Kernels, op *torch.ExecOp, out operand, ins []operand) error {
	if len(ins) != 2 || ins[1].kt != kernels.I64 || !sameShape(ins[0].shape, ins[1].shape) {
		return fmt.Errorf("gpuexec: max_pool2d_backward takes grad and int64 indices")
	}
	dx, n, err := planesOf(out)
	if err != nil {
		return err
	}
	ip, _, _, err := planes(ins[1])
	if err != nil {
		return err
	}
	l := ip.shape[1]
	return e.withScratch(out.cuda(), func(s *scratch) error {
		gf, err := s.asF32(k, ins[0])
		if err != nil {
			return err
		}
		acc, err := s.f32(dx.shape)
		if err != nil {
			return err
		}
		if err := e.mapOp(k, "fill", acc, nil, 0, 0); err != nil {
			return err
		}
		if err := e.indexLaunch(k, kernels.IndexScatterAdd, kernels.F32, []int64{n, l}, acc, reshaped(gf, []int64{n, l}), ip,
			[3][]int64{{dx.shape[1], 0}, {l, 1}, {l, 1}}, 1, dx.shape[1], torch.NoSkipIndex); err != nil {
			return err
		}
		return e.mapOp(k, "copy", dx, []operand{acc}, 0, 0)
	})
}

// planesOf is planes for an output that must be contiguous: the view and
// its number of planes.
func planesOf(x operand) (operand, int64, error) {
	p, _, _, err := planes(x)
	if err != nil {
		return operand{}, 0, err
	}
	return p, p.shape[0], nil
}

// avgWindows is an average pooling's table and per-position divisor, from
// the input plane h×w, the output plane oh×ow and ExecAvgPool's Ints.
func avgWindows(h, w, oh, ow int64, ints []int64) (vals, div []float64, l, kk int64, err error) {
	if len(ints) == 0 { // adaptive
		rows, cols := adaptiveAxis(h, oh), adaptiveAxis(w, ow)
		vals, l, kk = windowTable(rows, cols, h, w)
		for _, r := range rows {
			for _, c := range cols {
				div = append(div, float64(valid(r)*valid(c)))
			}
		}
		return vals, div, l, kk, nil
	}
	if len(ints) != 9 {
		return nil, nil, 0, 0, fmt.Errorf("gpuexec: avg_pool2d takes 9 ints, got %d", len(ints))
	}
	ks, st, pd := ints[0:2], ints[2:4], ints[4:6]
	includePad, override := ints[7] != 0, ints[8]
	rows := slidingAxis(h, oh, ks[0], st[0], pd[0], 1)
	cols := slidingAxis(w, ow, ks[1], st[1], pd[1], 1)
	vals, l, kk = windowTable(rows, cols, h, w)
	// pool_size counts the window clipped to the padded input
	span := func(o, in, k, s, p int64) (full, inside int64) {
		lo := o*s - p
		hi := min(lo+k, in+p)
		full = hi - lo
		return full, min(hi, in) - max(lo, 0)
	}
	for i := int64(0); i < oh; i++ {
		fh, vh := span(i, h, ks[0], st[0], pd[0])
		for j := int64(0); j < ow; j++ {
			fw, vw := span(j, w, ks[1], st[1], pd[1])
			d := vh * vw
			switch {
			case override != 0:
				d = override
			case includePad:
				d = fh * fw
			}
			div = append(div, float64(d))
		}
	}
	return vals, div, l, kk, nil
}

// valid counts a window's non-padding elements.
func valid(w []int64) int64 {
	n := int64(0)
	for _, v := range w {
		if v >= 0 {
			n++
		}
	}
	return n
}

// avgPool is ExecAvgPool: the window sums divided by the divisor.
func (e *Executor) avgPool(k gpu.Kernels, op *torch.ExecOp, out operand, ins []operand) error {
	if len(ins) != 1 {
		return fmt.Errorf("gpuexec: avg_pool2d takes x")
	}
	np, h, w, err := planeSizes(ins[0])
	if err != nil {
		return err
	}
	r := len(out.shape)
	if r != len(ins[0].shape) {
		return errUnsupported("avg_pool2d of %v into %v", ins[0].shape, out.shape)
	}
	vals, div, l, kk, err := avgWindows(h, w, out.shape[r-2], out.shape[r-1], op.Ints)
	if err != nil {
		return err
	}
	return e.withScratch(out.cuda(), func(s *scratch) error {
		xf, err := s.asF32(k, ins[0])
		if err != nil {
			return err
		}
		xf = reshaped(xf, []int64{np, h * w})
		tbl, err := s.table(kernels.I64, []int64{l, kk}, vals)
		if err != nil {
			return err
		}
		d, err := s.table(kernels.F32, []int64{l}, div)
		if err != nil {
			return err
		}
		win, err := s.f32([]int64{np, l, kk})
		if err != nil {
			return err
		}
		if err := e.gatherWindows(k, win, xf, tbl, 0); err != nil {
			return err
		}
		sum, err := s.f32([]int64{np, l})
		if err != nil {
			return err
		}
		if err := e.reduceInto(k, sum, win, false, 2); err != nil {
			return err
		}
		if err := e.mapOp(k, "div", sum, []operand{sum, d}, 0, 0); err != nil {
			return err
		}
		return e.mapOp(k, "copy", out, []operand{reshaped(sum, out.shape)}, 0, 0)
	})
}

// avgPoolBack is ExecAvgPoolBack: grad/divisor added to every window element.
func (e *Executor) avgPoolBack(k gpu.Kernels, op *torch.ExecOp, out operand, ins []operand) error {
	if len(ins) != 1 {
		return fmt.Errorf("gpuexec: avg_pool2d_backward takes grad")
	}
	dx, h, w, err := planes(out)
	if err != nil {
		return err
	}
	g := ins[0]
	r := len(g.shape)
	if r != len(out.shape) {
		return errUnsupported("avg_pool2d_backward of %v into %v", g.shape, out.shape)
	}
	vals, div, l, kk, err := avgWindows(h, w, g.shape[r-2], g.shape[r-1], op.Ints)
	if err != nil {
		return err
	}
	np, hw := dx.shape[0], dx.shape[1]
	return e.withScratch(out.cuda(), func(s *scratch) error {
		gf, err := s.asF32(k, g)
		if err != nil {
			return err
		}
		gf = reshaped(gf, []int64{np, l})
		tbl, err := s.table(kernels.I64, []int64{l, kk}, vals)
		if err != nil {
			return err
		}
		d, err := s.table(kernels.F32, []int64{l}, div)
		if err != nil {
			return err
		}
		if err := e.mapOp(k, "div", gf, []operand{gf, d}, 0, 0); err != nil {
			return err
		}
		acc, err := s.f32(dx.shape)
		if err != nil {
			return err
		}
		if err := e.mapOp(k, "fill", acc, nil, 0, 0); err != nil {
			return err
		}
		if err := e.indexLaunch(k, kernels.IndexScatterAdd, kernels.F32, []int64{np, l, kk}, acc, gf, tbl,
			[3][]int64{{hw, 0, 0}, {l, 1, 0}, {0, kk, 1}}, 1, hw, torch.NoSkipIndex); err != nil {
			return err
		}
		return e.mapOp(k, "copy", dx, []operand{acc}, 0, 0)
	})
}

// planeSizes is a pooling input's number of planes and plane size.
func planeSizes(x operand) (np, h, w int64, err error) {
	r := len(x.shape)
	if r < 3 {
		return 0, 0, 0, errUnsupported("pooling of a %d-d operand", r)
	}
	return numel(x.shape[:r-2]), x.shape[r-2], x.shape[r-1], nil
}
