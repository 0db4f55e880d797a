package refkern

import (
	"math"

	"github.com/gpumem/playground/gpu"
	"github.com/gpumem/playground/gpu/kernels"
)

// pick64 is Pick over float64 rows (kernels' pick_<mode>_f64): compared
// in float64 with the same rules (NaN wins, the first index of equal
// values), the value stored as float64.
func (k *Kernels) pick64(mode kernels.PickMode, dst, idx, src uint64, r gpu.Rows) error {
	k.Launches++
	t := kernels.F64
	for row := int64(0); row < r.Count(); row++ {
		c2 := row % r.Outer[2]
		c1 := row / r.Outer[2] % r.Outer[1]
		c0 := row / r.Outer[2] / r.Outer[1]
		base := c0*r.OuterStrides[0] + c1*r.OuterStrides[1] + c2*r.OuterStrides[2]
		acc, ai := math.Inf(-1), int64(math.MaxInt64)
		if mode == kernels.PickMin {
			acc = math.Inf(1)
		}
		for j := int64(0); j < r.Inner; j++ {
			x, err := k.load64(t, at(src, t, base+j*r.InnerStride))
			if err != nil {
				return err
			}
			better := x > acc
			if mode == kernels.PickMin {
				better = x < acc
			}
			xn, an := x != x, acc != acc
			if better || (xn && !an) || ((x == acc || (xn && an)) && j < ai) {
				acc, ai = x, j
			}
		}
		if dst != 0 {
			if err := k.store64(t, at(dst, t, row), acc); err != nil {
				return err
			}
		}
		if idx != 0 {
			if err := k.storeI64(at(idx, kernels.I64, row), ai); err != nil {
				return err
			}
		}
	}
	return nil
}
