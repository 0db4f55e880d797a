package gpuexec

import (
	"math"

	"github.com/gpumem/playground/gpu"
	"github.com/gpumem/playground/gpu/kernels"
)

// Integer tensors (int64, int32) compute in 64-bit integers
// (kernels.MapOpmathInt: fill, casts between them, neg, abs, add, sub,
// mul, affine) and sum in int64 on the host-free path below. The
// simulation hands scalars and literal values over as float64: an integer
// beyond 2^53 may already be rounded there, so such operands leave the
// result not computed rather than approximate.

// maxExactInt is 2^53: every integer of smaller magnitude is a float64.
const maxExactInt = 1 << 53

// exactInt reports whether v is an integer that float64 holds exactly
// as the script wrote it (|v| ≤ 2^53).
func exactInt(v float64) bool {
	return v == math.Trunc(v) && math.Abs(v) <= maxExactInt
}

// intScalarsOK reports whether the scalars of an integer map kernel are
// exact: integers of at most 2^53 in magnitude, for fill any value of at
// most 2^53 (a float fill truncates toward zero, as PyTorch's cast).
func intScalarsOK(op kernels.MapOp, in, out kernels.DType, s0, s1 float64) bool {
	if !kernels.MapOpmathInt(op, in, out) {
		return true
	}
	if op == "fill" {
		return math.Abs(s0) <= maxExactInt
	}
	return exactInt(s0) && exactInt(s1)
}

// exactValues reports whether vals are exact for type t: int64 and int32
// values of at most 2^53 in magnitude (larger ones may have been rounded
// to float64 by the simulation).
func exactValues(t kernels.DType, vals []float64) bool {
	if t != kernels.I64 && t != kernels.I32 {
		return true
	}
	for _, v := range vals {
		if math.Abs(v) > maxExactInt || v != v {
			return false
		}
	}
	return true
}

// arangeInt64 is arange into int64: the generator kernel (float32, exact
// to 2^24) while every value is within 2^24, else computed on the host in
// int64, exact while start, step and the last value are within 2^53.
// (Every value and product of the kernel is within 2^24 when
// |start| + n·|step| is.)
func (e *Executor) arangeInt64(k gpu.Kernels, out operand, n int64, start, step float64) error {
	if !exactInt(start) || !exactInt(step) || !exactInt(start+float64(n)*step) {
		return errUnsupported("arange into int64 beyond 2^53 or fractional")
	}
	if math.Abs(start)+float64(n)*math.Abs(step) <= 1<<24 {
		return k.Random(kernels.RandArange, out.kt, out.addr, n, 0, 0, float32(start), float32(step))
	}
	vals := make([]float64, n)
	s, d := int64(start), int64(step)
	for i := range vals {
		vals[i] = float64(s + int64(i)*d)
	}
	return e.values(out, vals)
}
