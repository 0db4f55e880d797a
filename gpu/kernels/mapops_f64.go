package kernels

import (
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
)

// opmath64Ops are the map operators whose float64 kernels compute in
// float64, as PyTorch's opmath type for double is double: their f32 bodies
// use only instructions that exist for f64 (no .approx/.ftz), so body64
// rewrites them.
var opmath64Ops = map[MapOp]bool{
	"fill": true, "copy": true, "neg": true, "add": true, "sub": true, "mul": true,
	"div": true, "affine": true, "reciprocal": true, "abs": true, "sqrt": true,
}

// MapOpmath64 reports whether the map kernel of op from in to out computes
// in float64 (f64 registers, .f64 scalars s0/s1): a float64 operand and an
// operator of opmath64Ops, except the same-type copy (a bit copy). The
// launchers pass s0/s1 as float64 bits to these kernels and as float32
// bits to the others.
func MapOpmath64(op MapOp, in, out DType) bool {
	if op == "copy" && in == out {
		return false
	}
	return opmath64Ops[op] && (in == F64 || out == F64)
}

var f32Const = regexp.MustCompile(`0f[0-9A-F]{8}`)

// body64 is an f32 body line of an opmath64Ops operator in f64: the
// instruction types and the hexadecimal constants widened (exactly).
func body64(line string) string {
	line = strings.ReplaceAll(line, ".f32", ".f64")
	return f32Const.ReplaceAllStringFunc(line, func(c string) string {
		bits, err := strconv.ParseUint(c[2:], 16, 32)
		if err != nil {
			return c
		}
		return fmt.Sprintf("0d%016X", math.Float64bits(float64(math.Float32frombits(uint32(bits)))))
	})
}
