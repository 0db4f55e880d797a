//go:build cuda

package gpu

import (
	"fmt"
	"slices"

	"github.com/gpumem/playground/gpu/kernels"
)

// The launcher of the pick kernels (max/min with their index).

func (l launcher) Pick(mode kernels.PickMode, t DType, dst, idx, src uint64, r Rows) error {
	if !slices.Contains(kernels.PickTypes, t) { // f64 and the integers compare in f64 / s64
		return fmt.Errorf("gpu: no pick kernels for element type %q", t)
	}
	if err := checkCount("pick", r.Outer[0], r.Outer[1], r.Outer[2], r.Inner); err != nil {
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
	return l.w.launch(kernels.PickKernelName(mode, t), grid, [3]int{kernels.RowBlock, 1, 1},
		dst, idx, src, uint64(r.Inner), uint64(r.InnerStride),
		uint64(r.Outer[1]), uint64(r.Outer[2]),
		uint64(r.OuterStrides[0]), uint64(r.OuterStrides[1]), uint64(r.OuterStrides[2]))
}

func (r remoteKernels) Pick(mode kernels.PickMode, t DType, dst, idx, src uint64, rows Rows) error {
	return r.do(func(k Kernels) error { return k.Pick(mode, t, dst, idx, src, rows) })
}
