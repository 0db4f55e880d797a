package gpuexec

import (
	"fmt"

	"github.com/gpumem/playground/gpu"
	"github.com/gpumem/playground/gpu/kernels"
	"github.com/gpumem/playground/sim/torch"
)

// Sliding windows of convolution and pooling, as index tables for the
// gather and scatter-add kernels: im2col is a gather of the input plane at
// table[l][k] (output position l, window element k), its transpose col2im
// the scatter-add of the same table. An entry outside [0, H·W) (padding)
// moves nothing.

// axisWindows lists, for each output position of one spatial axis, the
// input coordinate of each of its window elements (-1: padding).
type axisWindows [][]int64

// slidingAxis is the window of a convolution or pooling axis: output o
// reads o·s − p + i·d, i < k.
func slidingAxis(in, out, k, s, p, d int64) axisWindows {
	w := make(axisWindows, out)
	for o := range w {
		w[o] = make([]int64, k)
		for i := range w[o] {
			v := int64(o)*s - p + int64(i)*d
			if v < 0 || v >= in {
				v = -1
			}
			w[o][i] = v
		}
	}
	return w
}

// adaptiveAxis is adaptive pooling's window: output o reads
// [⌊o·in/out⌋, ⌈(o+1)·in/out⌉), padded with -1 to the longest window.
func adaptiveAxis(in, out int64) axisWindows {
	w := make(axisWindows, out)
	k := int64(0)
	for o := int64(0); o < out; o++ {
		lo, hi := o*in/out, ((o+1)*in+out-1)/out
		for v := lo; v < hi; v++ {
			w[o] = append(w[o], v)
		}
		k = max(k, hi-lo)
	}
	for o := range w {
		for int64(len(w[o])) < k {
			w[o] = append(w[o], -1)
		}
	}
	return w
}

// windowTable is the gather table of a 2-d window: row l = (output row,
// output column), column k = (window row, window column), the value the
// flat input index y·w + x, or h·w for padding.
func windowTable(rows, cols axisWindows, h, w int64) (vals []float64, l, k int64) {
	return windowTableN([]axisWindows{rows, cols}, []int64{h, w})
}

// windowTableN is windowTable over any number of spatial axes (sizes: the
// input's spatial sizes): output positions and window elements in
// row-major order over the axes, padding as the input's element count.
func windowTableN(axes []axisWindows, sizes []int64) (vals []float64, l, k int64) {
	l, k = 1, 1
	for _, a := range axes {
		if len(a) == 0 {
			return nil, 0, 0
		}
		l, k = l*int64(len(a)), k*int64(len(a[0]))
	}
	pad := numel(sizes)
	vals = make([]float64, 0, l*k)
	pos, win := make([]int, len(axes)), make([]int, len(axes))
	for range l {
		clear(win)
		for range k {
			v := int64(0)
			for i, a := range axes {
				c := a[pos[i]][win[i]]
				if c < 0 {
					v = pad
					break
				}
				v = v*sizes[i] + c
			}
			vals = append(vals, float64(v))
			odometer(win, func(i int) int { return len(axes[i][0]) })
		}
		odometer(pos, func(i int) int { return len(axes[i]) })
	}
	return vals, l, k
}

// odometer advances a row-major multi-index whose axis i counts to n(i).
func odometer(idx []int, n func(i int) int) {
	for i := len(idx) - 1; i >= 0; i-- {
		if idx[i]++; idx[i] < n(i) {
			return
		}
		idx[i] = 0
	}
}

// table uploads host values as a contiguous scratch operand of type kt.
func (s *scratch) table(kt kernels.DType, shape []int64, vals []float64) (operand, error) {
	t, err := s.typed(kt, shape)
	if err != nil {
		return operand{}, err
	}
	return t, s.e.values(t, vals)
}

// batchedConv views a convolution operand with 1 to 3 spatial dims
// ([N, C, *spatial] or unbatched [C, *spatial]) as batched.
func batchedConv(x operand, spatial int) (operand, error) {
	sh, st := x.shape, x.strides
	if spatial < 1 || spatial > 3 || len(sh) < spatial+1 || len(sh) > spatial+2 {
		return operand{}, errUnsupported("%d-d operand of a %d-d window", len(sh), spatial)
	}
	if len(sh) == spatial+1 {
		sh, st = append([]int64{1}, sh...), append([]int64{0}, st...)
	}
	x.shape, x.strides = sh, st
	return x, nil
}

// gatherWindows writes cols[p, l, k] = plane p of x at table[l][k]
// (x: contiguous [P, H·W] f32, or f64 as cols; cols: contiguous
// [P, L, K], filled with fill first so that padding reads fill).
func (e *Executor) gatherWindows(k gpu.Kernels, cols, x, tbl operand, fill float32) error {
	p, l, kk := cols.shape[0], cols.shape[1], cols.shape[2]
	if err := e.mapOp(k, "fill", cols, nil, fill, 0); err != nil {
		return err
	}
	hw := x.shape[1]
	return e.indexLaunch(k, kernels.IndexGather, cols.kt, []int64{p, l, kk}, cols, x, tbl,
		[3][]int64{cols.strides, {hw, 0, 0}, {0, kk, 1}}, 1, hw, torch.NoSkipIndex)
}

// checkWindow verifies a table's size against the output plane.
func checkWindow(l, oh, ow int64) error {
	if l != oh*ow {
		return fmt.Errorf("gpuexec: window table of %d positions for a %d×%d output", l, oh, ow)
	}
	return nil
}
