package refkern

import (
	"math"

	"github.com/gpumem/playground/gpu/kernels"
)

// mathValue64 is the float64 value of the map operators given float64
// kernels in session 12 (kernels' mathops_f64.go and the f32 bodies that
// body64 widens) at xs with scalars s0, s1: the formulas of ATen's CUDA
// kernels in double, Go's math for exp, log, pow and erf (the kernels'
// own exp, log and erf are within a few ulps of them; exp64, log64 and
// pow64 mend Go's amd64 exp and log at their edges). Comparisons,
// logical ops and isnan/isinf/isfinite give 1 or 0; ok is false for the
// other operators.
func mathValue64(op kernels.MapOp, xs [3]float64, s0, s1 float64) (float64, bool) {
	x, y, z := xs[0], xs[1], xs[2]
	b := func(c bool) float64 {
		if c {
			return 1
		}
		return 0
	}
	switch op {
	case "exp":
		return exp64(x), true
	case "floor":
		return math.Floor(x), true
	case "ceil":
		return math.Ceil(x), true
	case "trunc":
		return math.Trunc(x), true
	case "round":
		return math.RoundToEven(x), true
	case "sign":
		return signOf(x), true
	case "log":
		return log64(x), true
	case "pow":
		return pow64(x, s0), true
	case "pow_tensor":
		return pow64(x, y), true
	case "square":
		return x * x, true
	case "rsqrt":
		return 1 / math.Sqrt(x), true
	case "gelu":
		return x * 0.5 * (1 + math.Erf(x*(1/math.Sqrt2))), true
	case "gelu_backward":
		cdf := 0.5 * (1 + math.Erf(y*(1/math.Sqrt2)))
		pdf := exp64(-0.5*y*y) * (2 / math.SqrtPi / math.Sqrt2 * 0.5)
		return x * math.FMA(y, pdf, cdf), true
	case "gelu_tanh":
		inner := math.FMA(x*x*x, 0.044715, x) * (math.Sqrt2 * (2 / math.SqrtPi) * 0.5)
		return x * 0.5 * (1 + math.Tanh(inner)), true
	case "silu":
		return x / (1 + exp64(-x)), true
	case "silu_backward":
		s := 1 / (1 + exp64(-y))
		return x * s * math.FMA(y, 1-s, 1), true
	case "leaky_relu":
		if x > 0 {
			return x, true
		}
		return x * s0, true
	case "leaky_relu_backward":
		if y > 0 {
			return x, true
		}
		return x * s0, true
	case "where":
		if x != 0 {
			return y, true
		}
		return z, true
	case "masked_fill":
		if y != 0 {
			return s0, true
		}
		return x, true
	case "masked_keep":
		if y != 0 {
			return x, true
		}
		return s0, true
	case "clamp":
		if x != x {
			return x, true
		}
		return math.Min(math.Max(x, s0), s1), true
	case "clamp_backward":
		if s0 <= y && y <= s1 {
			return x, true
		}
		return 0, true
	case "maximum", "minimum":
		if x != x || y != y {
			return x + y, true
		}
		if op == "maximum" {
			return math.Max(x, y), true
		}
		return math.Min(x, y), true
	case "dropout": // y is the f32 uniform, s0 = 1 − p, s1 = 1/(1 − p)
		return x * b(y < s0) * s1, true
	case "masked_scale":
		return x * b(y != 0) * s0, true
	case "bce":
		return (y-1)*math.Max(log64(1-x), -100) - y*math.Max(log64(x), -100), true
	case "bce_backward":
		return x * (y - z) / math.Max((1-y)*y, 1e-12), true
	case "sgn":
		return b(x > 0) - b(x < 0), true
	case "isnan":
		return b(x != x), true
	case "isinf":
		return b(math.IsInf(x, 0)), true
	case "isfinite":
		return b(!math.IsInf(x, 0) && x == x), true
	case "logical_not":
		return b(x == 0), true
	case "logical_and":
		return b(x != 0 && y != 0), true
	case "logical_or":
		return b(x != 0 || y != 0), true
	case "logical_xor":
		return b((x != 0) != (y != 0)), true
	}
	return compareValue64(op, x, y, s0)
}

// compareValue64 is a comparison (tensor or _scalar form) in float64.
func compareValue64(op kernels.MapOp, x, y, s0 float64) (float64, bool) {
	name := string(op)
	if len(name) > 7 && name[len(name)-7:] == "_scalar" {
		name, y = name[:len(name)-7], s0
	}
	var c bool
	switch name {
	case "eq":
		c = x == y
	case "ne":
		c = x != y
	case "lt":
		c = x < y
	case "le":
		c = x <= y
	case "gt":
		c = x > y
	case "ge":
		c = x >= y
	default:
		return 0, false
	}
	if c {
		return 1, true
	}
	return 0, true
}

// log64 is math.Log with subnormal inputs scaled into the normal range
// first: Go's amd64 math.Log returns about −709.09 for every subnormal
// (log(1e-310) is −713.80), the kernels' log does not.
func log64(x float64) float64 {
	if x > 0 && x < 0x1p-1022 {
		return math.Log(x*0x1p54) - 54*math.Ln2
	}
	return math.Log(x)
}

// pow64 is math.Pow with a subnormal base scaled as log64 scales it
// (math.Pow goes through the same math.Log).
func pow64(x, y float64) float64 {
	if a := math.Abs(x); a > 0 && a < 0x1p-1022 {
		return math.Pow(x*0x1p54, y) * math.Pow(2, -54*y)
	}
	return math.Pow(x, y)
}

// exp64 is math.Exp without the early overflow of Go's amd64 version
// (+Inf from about 709.2 on; exp overflows at 709.78): above 709 it is
// exp(x/2)², within a few ulps.
func exp64(x float64) float64 {
	if x > 709 {
		h := math.Exp(x / 2)
		return h * h
	}
	return math.Exp(x)
}
