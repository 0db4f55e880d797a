package refkern

import (
	"math"
	"strings"

	"github.com/gpumem/playground/gpu"
	"github.com/gpumem/playground/gpu/kernels"
)

// The division family of kernels/mapops_div.go: trunc and floor division,
// remainder and fmod, with tensor, number ("_s") and reflected ("r…_s")
// operands, computed as the kernels do.

// divOperands returns the dividend, the divisor and the family member
// (div_trunc, div_floor, remainder, fmod) of op over inputs x0, x1 and
// the scalar s0.
func divOperands[T any](op kernels.MapOp, x0, x1, s0 T) (a, b T, base string) {
	name := string(op)
	switch {
	case strings.HasPrefix(name, "rdiv_") || strings.HasPrefix(name, "rremainder_"):
		return s0, x0, strings.TrimSuffix(name[1:], "_s")
	case strings.HasSuffix(name, "_s"):
		return x0, s0, strings.TrimSuffix(name, "_s")
	}
	return x0, x1, name
}

// cudaDivRem is a / b and a % b as nvcc compiles them for int64: operands
// that both fit in 32 unsigned bits divide with div.u32/rem.u32 (by zero:
// 2^32 − 1 both), the others with div.s64/rem.s64 (by zero: −1 both).
func cudaDivRem(a, b int64) (q, r int64) {
	if uint64(a|b)>>32 == 0 {
		if b == 0 {
			return math.MaxUint32, math.MaxUint32
		}
		return int64(uint32(a) / uint32(b)), int64(uint32(a) % uint32(b))
	}
	if b == 0 {
		return -1, -1
	}
	if a == math.MinInt64 && b == -1 {
		return a, 0
	}
	return a / b, a % b
}

// divInt is the integer kernels' value of op (int64 arithmetic; int32
// results keep the low 32 bits, which equal int32 arithmetic's).
func divInt(op kernels.MapOp, x0, x1, s0 int64) int64 {
	a, b, base := divOperands(op, x0, x1, s0)
	q, r := cudaDivRem(a, b)
	switch base {
	case "div_trunc":
		return q
	case "fmod":
		return r
	case "div_floor":
		if (a^b) < 0 && r != 0 {
			return q - 1
		}
		return q
	}
	// remainder
	if r != 0 && (r^b) < 0 {
		return r + b
	}
	return r
}

// roundDiv rounds v (an f32 value) to t's precision: f16 and bf16 to
// nearest even, the others unchanged.
func roundDiv(t gpu.DType, v float64) float64 {
	switch t {
	case kernels.F16:
		return float64(kernels.F16ToF32(kernels.F16Bits(float32(v))))
	case kernels.BF16:
		return float64(kernels.BF16ToF32(kernels.BF16Bits(float32(v))))
	}
	return v
}

// divFloat is the float kernels' value of op for inputs of type t: the
// opmath is float32 for f32, f16 and bf16 (each operation rounded to
// float32, as the f32 instructions) and float64 for f64; s1 is 1/s0 in
// that type for the "_s" forms.
func divFloat(op kernels.MapOp, t gpu.DType, x0, x1, s0, s1 float64) float64 {
	r := func(v float64) float64 { return float64(float32(v)) }
	if t == kernels.F64 {
		r = func(v float64) float64 { return v }
	}
	a, b, base := divOperands(op, x0, x1, s0)
	reflected := op == "rdiv_floor_s" || op == "rremainder_s"
	scalar := strings.HasSuffix(string(op), "_s") && !reflected
	if reflected && base == "div_floor" {
		a = roundDiv(t, a)
	}
	mod := math.Mod(a, b) // exact
	signs := mod != 0 && (b < 0) != (mod < 0)
	switch base {
	case "fmod":
		return mod
	case "remainder":
		if signs || math.IsNaN(mod) {
			return r(mod + b)
		}
		return mod
	case "div_trunc":
		if scalar {
			return math.Trunc(r(a * s1))
		}
		return math.Trunc(roundDiv(t, r(a/b)))
	}
	quot := func(v float64) float64 {
		if scalar {
			return r(v * s1)
		}
		return r(v / b)
	}
	if b == 0 {
		return quot(a)
	}
	div := quot(r(a - mod))
	if signs {
		div = r(div - 1)
	}
	if div == 0 {
		return math.Copysign(0, quot(a))
	}
	fl := roundDiv(t, math.Floor(div))
	if r(div-fl) > 0.5 {
		fl = r(fl + 1)
	}
	return fl
}
