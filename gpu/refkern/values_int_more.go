package refkern

import (
	"math"

	"github.com/gpumem/playground/gpu"
	"github.com/gpumem/playground/gpu/kernels"
)

// mapIntMore is one element of the integer operators of session 12
// (kernels' intMoreOps): relu, sign, square, bitwise_not, pow by an integer exponent
// (c10's powi: negative exponents give 1, ±1 or 0), isnan/isinf (false),
// isfinite (true), the logical ops and masked_keep, in int64 with two's
// complement wrapping. ok is false for another operator.
func mapIntMore(op kernels.MapOp, x, y, s0 int64) (r int64, ok bool) {
	b := func(c bool) int64 {
		if c {
			return 1
		}
		return 0
	}
	switch op {
	case "relu":
		return max(x, 0), true
	case "sign":
		return b(x > 0) - b(x < 0), true
	case "square":
		return x * x, true
	case "bitwise_not":
		return ^x, true
	case "pow":
		return powInt(x, s0), true
	case "isnan", "isinf":
		return 0, true
	case "isfinite":
		return 1, true
	case "logical_not":
		return b(x == 0), true
	case "logical_and":
		return b(x != 0 && y != 0), true
	case "logical_or":
		return b(x != 0 || y != 0), true
	case "logical_xor":
		return b((x != 0) != (y != 0)), true
	case "masked_keep":
		if y != 0 {
			return x, true
		}
		return s0, true
	}
	return 0, false
}

// powInt is x^e as c10's powi for integers: binary exponentiation
// (wrapping) for e ≥ 0; for e < 0, 1 when x is 1, (−1)^e when x is −1,
// else 0.
func powInt(x, e int64) int64 {
	if e < 0 {
		switch x {
		case 1:
			return 1
		case -1:
			if e%2 != 0 {
				return -1
			}
			return 1
		}
		return 0
	}
	r := int64(1)
	for ; e > 0; e >>= 1 { // binary exponentiation, as powi
		if e&1 != 0 {
			r *= x
		}
		x *= x
	}
	return r
}

// pickInt is Pick over integer rows (kernels' pick_<mode>_<t> of the
// integer types): compared as int64 (uint8 zero-, the others
// sign-extended), the first index of equal values, the value stored in
// the type.
func (k *Kernels) pickInt(mode kernels.PickMode, t gpu.DType, dst, idx, src uint64, r gpu.Rows) error {
	k.Launches++
	for row := int64(0); row < r.Count(); row++ {
		c2 := row % r.Outer[2]
		c1 := row / r.Outer[2] % r.Outer[1]
		c0 := row / r.Outer[2] / r.Outer[1]
		base := c0*r.OuterStrides[0] + c1*r.OuterStrides[1] + c2*r.OuterStrides[2]
		acc, ai := int64(math.MinInt64), int64(math.MaxInt64)
		if mode == kernels.PickMin {
			acc = math.MaxInt64
		}
		for j := int64(0); j < r.Inner; j++ {
			x, err := k.loadInt(t, at(src, t, base+j*r.InnerStride))
			if err != nil {
				return err
			}
			better := x > acc
			if mode == kernels.PickMin {
				better = x < acc
			}
			if better || (x == acc && j < ai) {
				acc, ai = x, j
			}
		}
		if dst != 0 {
			if err := k.storeInt(t, at(dst, t, row), acc); err != nil {
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
