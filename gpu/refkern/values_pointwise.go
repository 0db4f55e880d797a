package refkern

import (
	"math"

	"github.com/gpumem/playground/gpu"
	"github.com/gpumem/playground/gpu/kernels"
)

// boolByte is the bool store of the kernels: any non-zero value, NaN
// included, is 1.
func boolByte(v float32) byte {
	if v != 0 {
		return 1
	}
	return 0
}

// fma32 is fma.rn.f32 (the product is exact in float64; the sum is
// rounded once to float64, then to float32).
func fma32(a, b, c float32) float32 { return float32(math.FMA(float64(a), float64(b), float64(c))) }

func b2f(b bool) float32 {
	if b {
		return 1
	}
	return 0
}

// lerp32 is ATen's lerp: self + w·(end − self) for |w| < 0.5, else
// end − (end − self)·(1 − w), both fused as nvcc contracts them.
func lerp32(self, end, w float32) float32 {
	d := end - self
	if float32(math.Abs(float64(w))) < 0.5 {
		return fma32(w, d, self)
	}
	return fma32(-d, 1-w, end)
}

// pointwiseValue is the value of a map operator of kernels'
// mapops_pointwise.go at xs with scalars s0, s1 (float32 as the kernels);
// ok is false for the other operators (MapValue has them).
func pointwiseValue(op kernels.MapOp, xs [3]float32, s0, s1 float32) (float32, bool) {
	if y, ok := lossValue(op, xs, s0, s1); ok {
		return y, true
	}
	if y, ok := leakyValue(op, xs, s0); ok {
		return y, true
	}
	x0, x1, x2 := xs[0], xs[1], xs[2]
	isNaN := func(v float32) bool { return v != v }
	switch op {
	case "silu":
		return x0 / (1 + float32(math.Exp(-float64(x0)))), true
	case "silu_backward":
		s := 1 / (1 + float32(math.Exp(-float64(x1))))
		return x0 * s * fma32(x1, 1-s, 1), true
	case "clamp":
		if isNaN(x0) {
			return x0, true
		}
		return min(max(x0, s0), s1), true
	case "clamp_backward":
		if x1 >= s0 && x1 <= s1 {
			return x0, true
		}
		return 0, true
	case "minimum":
		return min(x0, x1), true
	case "lerp":
		return lerp32(x0, x1, s0), true
	case "lerp_tensor":
		return lerp32(x0, x1, x2), true
	case "addcmul":
		return fma32(s0, x1*x2, x0), true
	case "addcdiv":
		return fma32(s0, x1/x2, x0), true
	case "eq":
		return b2f(x0 == x1), true
	case "ne":
		return b2f(x0 != x1), true
	case "lt":
		return b2f(x0 < x1), true
	case "le":
		return b2f(x0 <= x1), true
	case "gt":
		return b2f(x0 > x1), true
	case "ge":
		return b2f(x0 >= x1), true
	case "eq_scalar":
		return b2f(x0 == s0), true
	case "ne_scalar":
		return b2f(x0 != s0), true
	case "lt_scalar":
		return b2f(x0 < s0), true
	case "le_scalar":
		return b2f(x0 <= s0), true
	case "gt_scalar":
		return b2f(x0 > s0), true
	case "ge_scalar":
		return b2f(x0 >= s0), true
	case "logical_and":
		return b2f(x0 != 0 && x1 != 0), true
	case "logical_or":
		return b2f(x0 != 0 || x1 != 0), true
	case "logical_xor":
		return b2f((x0 != 0) != (x1 != 0)), true
	case "logical_not":
		return b2f(x0 == 0), true
	case "isnan":
		return b2f(isNaN(x0)), true
	case "isinf":
		return b2f(math.IsInf(float64(x0), 0)), true
	case "isfinite":
		return b2f(!isNaN(x0) && !math.IsInf(float64(x0), 0)), true
	case "where":
		if x0 != 0 {
			return x1, true
		}
		return x2, true
	case "masked_fill":
		if x1 != 0 {
			return s0, true
		}
		return x0, true
	case "masked_keep":
		if x1 != 0 {
			return x0, true
		}
		return s0, true
	}
	return 0, false
}

// Pick writes each row's max or min and its first index (NaN wins over
// numbers), as the pick kernels.
func (k *Kernels) Pick(mode kernels.PickMode, t gpu.DType, dst, idx, src uint64, r gpu.Rows) error {
	if t == kernels.F64 {
		return k.pick64(mode, dst, idx, src, r)
	}
	if t == kernels.I64 || t == kernels.I32 || kernels.SmallInt(t) {
		return k.pickInt(mode, t, dst, idx, src, r)
	}
	k.Launches++
	rows := r.Count()
	for row := int64(0); row < rows; row++ {
		c2 := row % r.Outer[2]
		c1 := row / r.Outer[2] % r.Outer[1]
		c0 := row / r.Outer[2] / r.Outer[1]
		base := c0*r.OuterStrides[0] + c1*r.OuterStrides[1] + c2*r.OuterStrides[2]
		acc, ai := float32(math.Inf(-1)), int64(math.MaxInt64)
		if mode == kernels.PickMin {
			acc = float32(math.Inf(1))
		}
		for j := int64(0); j < r.Inner; j++ {
			x, err := k.load(t, at(src, t, base+j*r.InnerStride))
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
			if err := k.store(t, at(dst, t, row), acc); err != nil {
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
