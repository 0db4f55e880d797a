//go:build cuda

package gpu

import (
	"fmt"
	"math"

	"github.com/gpumem/playground/gpu/kernels"
)

// The launchers of the kernels that compute a PyTorch model's values
// (package gpu/exec): strided map, generators, row reductions, softmax,
// nll_loss and batched matmul.

// checkDTypeF64 is checkDType for the families with float64 kernels
// (module linalg_f64: bmm, softmax, nll_loss).
func checkDTypeF64(t DType) error {
	if t == kernels.F64 {
		return nil
	}
	return checkDType(t)
}

func checkCount(what string, n ...int64) error {
	for _, v := range n {
		if v < 0 {
			return fmt.Errorf("gpu: %s with a negative size %v", what, n)
		}
	}
	return nil
}

func (l launcher) Map(op kernels.MapOp, in, t DType, shape Shape, dst Strided, srcs []Strided, s0, s1 float64) error {
	info, ok := kernels.MapOpByName(op)
	if !ok {
		return fmt.Errorf("gpu: no map operator %q", op)
	}
	if len(srcs) != info.Ins {
		return fmt.Errorf("gpu: map %s takes %d inputs, got %d", op, info.Ins, len(srcs))
	}
	if err := checkCount("map "+string(op), shape[:]...); err != nil {
		return err
	}
	n := int64(1)
	for _, d := range shape {
		n *= d
	}
	if n == 0 {
		return nil
	}
	args := make([]uint64, 0, 3+3+kernels.MaxRank*4)
	args = append(args, dst.Addr)
	for _, s := range srcs {
		args = append(args, s.Addr)
	}
	switch {
	case kernels.MapOpmathInt(op, in, t):
		args = append(args, uint64(kernels.IntScalar(s0)), uint64(kernels.IntScalar(s1)), uint64(n))
	case kernels.MapOpmath64(op, in, t):
		args = append(args, math.Float64bits(s0), math.Float64bits(s1), uint64(n))
	default:
		args = append(args, f32arg(float32(s0)), f32arg(float32(s1)), uint64(n))
	}
	for _, d := range shape {
		args = append(args, uint64(d))
	}
	for _, s := range append([]Strided{dst}, srcs...) {
		for _, st := range s.Strides {
			args = append(args, uint64(st))
		}
	}
	grid := min((n+elemBlock-1)/elemBlock, elemMaxGrid)
	name := kernels.MapKernelName(op, in, t)
	strides := [][]int64{dst.Strides[:]}
	for _, s := range srcs {
		strides = append(strides, s.Strides[:])
	}
	if !kernels.MapFits32(shape[:], strides...) {
		if !kernels.MapHas64(op) {
			return fmt.Errorf("gpu: map %s over %v needs 64-bit indices (no such kernel)", op, shape)
		}
		name = kernels.MapKernelName64(op, in, t)
	}
	return l.w.launch(name, [3]int{int(grid), 1, 1}, [3]int{elemBlock, 1, 1}, args...)
}

func (l launcher) Random(kind kernels.RandKind, t DType, dst uint64, n int64, seed, counter uint64, s0, s1 float32) error {
	if err := checkCount("random", n); err != nil || n == 0 {
		return err
	}
	grid := min((n+elemBlock-1)/elemBlock, elemMaxGrid)
	name := fmt.Sprintf("rand_%s_%s", kind, t)
	return l.w.launch(name, [3]int{int(grid), 1, 1}, [3]int{elemBlock, 1, 1}, dst, uint64(n), seed, counter, f32arg(s0), f32arg(s1))
}

func (l launcher) RandInt(dst uint64, n int64, seed, counter uint64, lo, span int64) error {
	if err := checkCount("randint", n); err != nil || n == 0 {
		return err
	}
	if span <= 0 {
		return fmt.Errorf("gpu: randint over an empty range (span %d)", span)
	}
	grid := min((n+elemBlock-1)/elemBlock, elemMaxGrid)
	return l.w.launch("randint_i64", [3]int{int(grid), 1, 1}, [3]int{elemBlock, 1, 1}, dst, uint64(n), seed, counter, uint64(lo), uint64(span))
}

// rowGrid checks a one-block-per-row grid.
func rowGrid(rows int64) ([3]int, error) {
	if rows > math.MaxInt32 {
		return [3]int{}, fmt.Errorf("gpu: %d rows are beyond the row kernels' grid", rows)
	}
	return [3]int{int(rows), 1, 1}, nil
}

func (l launcher) ReduceRows(t DType, dst, src uint64, scale float64, r Rows) error {
	name, sc := "reduce_rows_"+string(t), f32arg(float32(scale))
	if t == kernels.F64 {
		name, sc = kernels.ReduceRows64, math.Float64bits(scale)
	} else if t == kernels.I64 {
		name = kernels.ReduceRowsS64
	} else if err := checkDType(t); err != nil {
		return err
	}
	if err := checkCount("reduce", r.Outer[0], r.Outer[1], r.Outer[2], r.Inner); err != nil {
		return err
	}
	rows := r.Count()
	if rows == 0 {
		return nil
	}
	grid, err := rowGrid(rows)
	if err != nil {
		return err
	}
	return l.w.launch(name, grid, [3]int{kernels.RowBlock, 1, 1},
		dst, src, sc, uint64(r.Inner), uint64(r.InnerStride),
		uint64(r.Outer[1]), uint64(r.Outer[2]),
		uint64(r.OuterStrides[0]), uint64(r.OuterStrides[1]), uint64(r.OuterStrides[2]))
}

func (l launcher) Softmax(mode kernels.SoftmaxMode, t DType, dst, a, b uint64, o, d, q int64, sdst, sa, sb Strides3) error {
	if err := checkDTypeF64(t); err != nil {
		return err
	}
	if err := checkCount("softmax", o, d, q); err != nil {
		return err
	}
	if o*q == 0 {
		return nil
	}
	grid, err := rowGrid(o * q)
	if err != nil {
		return err
	}
	args := []uint64{dst, a, b, uint64(d), uint64(q)}
	for _, s := range []Strides3{sdst, sa, sb} {
		args = append(args, uint64(s[0]), uint64(s[1]), uint64(s[2]))
	}
	return l.w.launch(fmt.Sprintf("softmax_%s_%s", mode, t), grid, [3]int{kernels.RowBlock, 1, 1}, args...)
}

func (l launcher) NLLLoss(backward bool, t DType, dst, src, target uint64, n, sn, sc, st, ignore int64, mean bool) error {
	if err := checkDTypeF64(t); err != nil {
		return err
	}
	if err := checkCount("nll_loss", n); err != nil {
		return err
	}
	name := "nll_loss_" + string(t)
	if backward {
		name = "nll_loss_backward_" + string(t)
	}
	m := uint64(0)
	if mean {
		m = 1
	}
	return l.w.launch(name, [3]int{1, 1, 1}, [3]int{kernels.RowBlock, 1, 1},
		dst, src, target, uint64(n), uint64(sn), uint64(sc), uint64(st), uint64(ignore), m)
}

// maxGridZ is the largest gridDim.z: bigger batches launch in chunks.
const maxGridZ = 65535

func (l launcher) BatchedMatmul(t DType, c, a, b uint64, batch, m, n, k int64, cs, as, bs Strides3) error {
	if err := checkDTypeF64(t); err != nil {
		return err
	}
	if err := checkCount("bmm", batch, m, n, k); err != nil {
		return err
	}
	if batch == 0 || m == 0 || n == 0 {
		return nil
	}
	const tile = kernels.MatmulTile
	gx, gy := (n+tile-1)/tile, (m+tile-1)/tile
	if gy > 65535 || gx > math.MaxInt32 {
		return fmt.Errorf("gpu: bmm of %d×%d output is beyond the kernel's grid", m, n)
	}
	sz := uint64(t.Size())
	for z := int64(0); z < batch; z += maxGridZ {
		nz := min(batch-z, maxGridZ)
		off := func(base uint64, s Strides3) uint64 { return base + uint64(z*s[0])*sz }
		err := l.w.launch("bmm_"+string(t), [3]int{int(gx), int(gy), int(nz)}, [3]int{tile, tile, 1},
			off(c, cs), off(a, as), off(b, bs), uint64(m), uint64(n), uint64(k),
			uint64(as[1]), uint64(as[2]), uint64(bs[1]), uint64(bs[2]),
			uint64(cs[1]), uint64(cs[2]), uint64(as[0]), uint64(bs[0]), uint64(cs[0]))
		if err != nil {
			return err
		}
	}
	return nil
}

// The value kernels through the worker's channel (Device.Kernels outside Do).

func (r remoteKernels) Map(op kernels.MapOp, in, t DType, shape Shape, dst Strided, srcs []Strided, s0, s1 float64) error {
	return r.do(func(k Kernels) error { return k.Map(op, in, t, shape, dst, srcs, s0, s1) })
}
func (r remoteKernels) Random(kind kernels.RandKind, t DType, dst uint64, n int64, seed, counter uint64, s0, s1 float32) error {
	return r.do(func(k Kernels) error { return k.Random(kind, t, dst, n, seed, counter, s0, s1) })
}
func (r remoteKernels) RandInt(dst uint64, n int64, seed, counter uint64, lo, span int64) error {
	return r.do(func(k Kernels) error { return k.RandInt(dst, n, seed, counter, lo, span) })
}
func (r remoteKernels) ReduceRows(t DType, dst, src uint64, scale float64, rows Rows) error {
	return r.do(func(k Kernels) error { return k.ReduceRows(t, dst, src, scale, rows) })
}
func (r remoteKernels) Softmax(mode kernels.SoftmaxMode, t DType, dst, a, b uint64, o, d, q int64, sdst, sa, sb Strides3) error {
	return r.do(func(k Kernels) error { return k.Softmax(mode, t, dst, a, b, o, d, q, sdst, sa, sb) })
}
func (r remoteKernels) NLLLoss(backward bool, t DType, dst, src, target uint64, n, sn, sc, st, ignore int64, mean bool) error {
	return r.do(func(k Kernels) error { return k.NLLLoss(backward, t, dst, src, target, n, sn, sc, st, ignore, mean) })
}
func (r remoteKernels) BatchedMatmul(t DType, c, a, b uint64, batch, m, n, k int64, cs, as, bs Strides3) error {
	return r.do(func(kk Kernels) error { return kk.BatchedMatmul(t, c, a, b, batch, m, n, k, cs, as, bs) })
}
