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
	"relu": true, "relu_backward": true, "sigmoid_backward": true, "tanh_backward": true, "addcmul": true,
	"sigmoid": true, "tanh": true, // f64Bodies
	"floor": true, "ceil": true, "trunc": true, "round": true, "sign": true,
	// session 12: float64MoreOps
	"exp": true, "log": true, "pow": true, "pow_tensor": true, "gelu": true, "gelu_tanh": true,
	"gelu_backward": true, "silu": true, "silu_backward": true, "leaky_relu": true,
	"leaky_relu_backward": true, "where": true, "masked_fill": true, "masked_keep": true,
	"clamp": true, "clamp_backward": true, "maximum": true, "minimum": true, "square": true,
	"rsqrt": true, "dropout": true, "masked_scale": true, "bce": true, "bce_backward": true, "sgn": true,
	"eq": true, "ne": true, "lt": true, "le": true, "gt": true, "ge": true,
	"eq_scalar": true, "ne_scalar": true, "lt_scalar": true, "le_scalar": true, "gt_scalar": true, "ge_scalar": true,
	"logical_and": true, "logical_or": true, "logical_xor": true, "logical_not": true,
	"isnan": true, "isinf": true, "isfinite": true,
}

// float64MoreOps are the operators given float64 kernels in session 12
// (issue 7) besides float64Ops: every one of them is in opmath64Ops, with
// a body of f64Bodies where the f32 body uses .approx instructions, else
// the f32 body widened by body64.
var float64MoreOps = func() map[MapOp]bool {
	m := map[MapOp]bool{}
	for op := range opmath64Ops {
		if !float64Ops[op] && !mapArithOps[op] && op != "fill" && op != "copy" {
			m[op] = true
		}
	}
	return m
}()

// f64MapOps are operators with float64 kernels only: pow with a tensor
// exponent (PyTorch's pow_tensor_tensor; the f32 types have no kernel).
var f64MapOps = []MapOpInfo{
	{Op: "pow_tensor", Ins: 2, Doc: "out = a^b (C's pow: exp(b·log|a|) with its sign rules)", Types: []DType{F64}},
}

// hasType reports whether ts lists t.
func hasType(ts []DType, t DType) bool {
	for _, x := range ts {
		if x == t {
			return true
		}
	}
	return false
}

// f64Bodies are the float64 bodies of the opmath64Ops operators whose f32
// bodies use .approx instructions (ex2, lg2): sigmoid and tanh here, the
// others in mathF64Bodies (mathops_f64.go).
var f64Bodies = func() map[MapOp]func() []string {
	m := map[MapOp]func() []string{"sigmoid": sigmoidF64Body, "tanh": tanhF64Body}
	for op, f := range mathF64Bodies {
		m[op] = f
	}
	return m
}()

// expRegs declares expF64PTX's registers inside a map kernel's body.
var expRegs = []string{".reg .f64 \t%fe<8>;", ".reg .b32 \t%re<4>;", ".reg .b64 \t%rde<4>;", ".reg .pred \t%pe<2>;"}

// ptxLines splits generated PTX into body lines.
func ptxLines(s string) []string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			out = append(out, l)
		}
	}
	return out
}

// sigmoidF64Body is 1 / (1 + exp(−x)) in float64, as PyTorch's double
// sigmoid.
func sigmoidF64Body() []string {
	return cat(expRegs, []string{"neg.f64 \t%t0, %x0;"}, ptxLines(expF64PTX("%t1", "%t0")), []string{
		"add.f64 \t%t1, %t1, " + f64c(1) + ";",
		"div.rn.f64 \t%y, " + f64c(1) + ", %t1;",
	})
}

// tanhF64Body is sign(x)·(1 − e)/(1 + e) with e = exp(−2|x|) in float64:
// within a few ulps of std::tanh except for |x| ≪ 1, where the absolute
// error stays ~1e-16.
func tanhF64Body() []string {
	return cat(expRegs, []string{"abs.f64 \t%t0, %x0;", "mul.f64 \t%t0, %t0, " + f64c(-2) + ";"}, ptxLines(expF64PTX("%t1", "%t0")), []string{
		"sub.f64 \t%t2, " + f64c(1) + ", %t1;",
		"add.f64 \t%t3, %t1, " + f64c(1) + ";",
		"div.rn.f64 \t%t2, %t2, %t3;",
		"copysign.f64 \t%y, %x0, %t2;",
	})
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
