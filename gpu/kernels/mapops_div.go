package kernels

import "strings"

// The division family of PyTorch's binary ops on CUDA (aten/src/ATen/native/
// cuda/BinaryDivTruncKernel.cu, BinaryDivFloorKernel.cu,
// BinaryRemainderKernel.cu): torch.div(rounding_mode="trunc"/"floor"), //,
// % and torch.remainder, torch.fmod. Every op has a tensor form (two
// inputs), a form with a Python number as the divisor ("_s": s0 = b, and
// for the float types s1 = 1/b in the op's accumulate type, as PyTorch's
// CPU-scalar path multiplies by the reciprocal), and // and % a reflected
// form ("r…_s": s0 = the dividend, the tensor the divisor).
//
// Integers compute in 64 bits (int32 sign-extended: every result equals
// int32 arithmetic's, division by zero included). Integer division by
// zero does not fail on CUDA: the result is what the GPU's division gives,
// and nvcc's compiled a / b tests for operands that fit in 32 unsigned
// bits first (LLVM's bypass of slow division) and divides those with
// div.u32, so 5 // 0 is 2^32 − 1 while −5 // 0 and 2^62 // 0 are −1
// (div.s64's emulation); the kernels do the same. Floats compute in their
// opmath type (f32 for half types, f64 for float64), fmod exactly.
var divMapOps = withDivBodies([]MapOpInfo{
	{Op: "div_trunc", Ins: 2, Doc: "out = trunc(a / b) (integers: C division)"},
	{Op: "div_floor", Ins: 2, Doc: "out = floor(a / b) (Python's //)"},
	{Op: "remainder", Ins: 2, Doc: "out = a − floor(a / b)·b (the divisor's sign)"},
	{Op: "fmod", Ins: 2, Doc: "out = fmod(a, b) (the dividend's sign)"},
	{Op: "div_trunc_s", Ins: 1, Doc: "out = trunc(a / s0) (floats: trunc(a·s1), s1 = 1/s0)"},
	{Op: "div_floor_s", Ins: 1, Doc: "out = floor(a / s0) (floats: with s1 = 1/s0, as PyTorch)"},
	{Op: "remainder_s", Ins: 1, Doc: "out = remainder(a, s0)"},
	{Op: "fmod_s", Ins: 1, Doc: "out = fmod(a, s0)"},
	{Op: "rdiv_floor_s", Ins: 1, Doc: "out = floor(s0 / a)"},
	{Op: "rremainder_s", Ins: 1, Doc: "out = remainder(s0, a)"},
})

// DivTypes are the types the division family is generated for.
var DivTypes = []DType{F32, F16, BF16, F64, I64, I32}

// DivOp reports an operator of the division family.
func DivOp(op MapOp) bool {
	for _, o := range divMapOps {
		if o.Op == op {
			return true
		}
	}
	return false
}

// withDivBodies gives the ops their types and bodies.
func withDivBodies(ops []MapOpInfo) []MapOpInfo {
	for i, o := range ops {
		ops[i].Types = DivTypes
		ops[i].bodyFor = func(in DType) []string { return divBody(o.Op, in) }
	}
	return ops
}

// The integer kernels compute in s64 (MapOpmathInt), the float64 ones in
// f64 (MapOpmath64).
func init() {
	for _, o := range divMapOps {
		intOpsBody[o.Op] = divBody(o.Op, I64)
		opmath64Ops[o.Op] = true
	}
}

// divOperands names the dividend and divisor registers of op: the
// inputs, or the scalar s0 for the "_s" forms.
func divOperands(op MapOp) (a, b string, base MapOp) {
	name := string(op)
	switch {
	case strings.HasPrefix(name, "rdiv_") || strings.HasPrefix(name, "rremainder_"):
		return "%s0", "%x0", MapOp(strings.TrimSuffix(name[1:], "_s"))
	case strings.HasSuffix(name, "_s"):
		return "%x0", "%s0", MapOp(strings.TrimSuffix(name, "_s"))
	}
	return "%x0", "%x1", op
}

// divBody is the PTX of op for inputs of type in (the map kernel's
// registers: %x inputs, %s scalars, %y the result, typed by the kernel's
// opmath). Labels carry "$K", which the generator makes unique.
func divBody(op MapOp, in DType) []string {
	a, b, base := divOperands(op)
	scalar := b == "%s0"
	var body []string
	switch {
	case isInt(in):
		body = intDivBody(base, a, b)
	case in == F64:
		body = floatDivBody(base, F64, a, b, scalar, a == "%s0")
	default:
		body = floatDivBody(base, in, a, b, scalar, a == "%s0")
	}
	return append(append([]string{"{"}, body...), "}")
}

// intDivBody computes base over s64 a and b into %y. q and r are the
// quotient and remainder as nvcc compiles a / b and a % b.
func intDivBody(base MapOp, a, b string) []string {
	l := []string{
		".reg .s64 \t%iq, %ir, %iz;",
		".reg .b32 \t%iw<3>;",
		".reg .pred \t%ip<4>;",
		"or.b64 \t%iz, " + a + ", " + b + ";",
		"shr.u64 \t%iz, %iz, 32;",
		"setp.eq.u64 \t%ip0, %iz, 0;",
		"@%ip0 bra \t$K_small;",
		"div.s64 \t%iq, " + a + ", " + b + ";",
		"rem.s64 \t%ir, " + a + ", " + b + ";",
		"bra.uni \t$K_divided;",
		"$K_small:",
		"cvt.u32.u64 \t%iw0, " + a + ";",
		"cvt.u32.u64 \t%iw1, " + b + ";",
		"div.u32 \t%iw2, %iw0, %iw1;",
		"cvt.u64.u32 \t%iq, %iw2;",
		"rem.u32 \t%iw2, %iw0, %iw1;",
		"cvt.u64.u32 \t%ir, %iw2;",
		"$K_divided:",
	}
	switch base {
	case "div_trunc":
		l = append(l, "mov.b64 \t%y, %iq;")
	case "fmod":
		l = append(l, "mov.b64 \t%y, %ir;")
	case "div_floor":
		// signs differ and a remainder: one less than the truncated quotient
		l = append(l,
			"xor.b64 \t%iz, "+a+", "+b+";",
			"setp.lt.s64 \t%ip1, %iz, 0;",
			"setp.ne.s64 \t%ip2, %ir, 0;",
			"and.pred \t%ip1, %ip1, %ip2;",
			"mov.b64 \t%y, %iq;",
			"@%ip1 sub.s64 \t%y, %iq, 1;")
	case "remainder":
		l = append(l,
			"xor.b64 \t%iz, %ir, "+b+";",
			"setp.lt.s64 \t%ip1, %iz, 0;",
			"setp.ne.s64 \t%ip2, %ir, 0;",
			"and.pred \t%ip1, %ip1, %ip2;",
			"mov.b64 \t%y, %ir;",
			"@%ip1 add.s64 \t%y, %ir, "+b+";")
	}
	return l
}

// fmod64 computes dst = fmod(a, b) exactly in f64 registers: |a| is
// reduced by b·2^k (k a multiple of 49, so that every quotient is below
// 2^51 and rounds to within one of the truth) with an exact fma, until it
// is below |b|; the result takes a's sign. b = 0 or NaN gives NaN, an
// infinite a NaN, an infinite b a.
func fmod64(dst, a, b string) []string {
	return []string{
		"abs.f64 \t%dr, " + a + ";",
		"abs.f64 \t%dd, " + b + ";",
		"setp.equ.f64 \t%dp0, %dd, 0d0000000000000000;",
		"setp.ltu.f64 \t%dp1, %dr, %dd;",
		"or.pred \t%dp1, %dp1, %dp0;",
		"@%dp1 bra \t$K_fmod_done;",
		"$K_fmod_outer:",
		"mov.f64 \t%dk, %dd;",
		"$K_fmod_scale:",
		"mul.f64 \t%dq, %dk, 0d4310000000000000;", // 2^50
		"setp.gt.f64 \t%dp2, %dr, %dq;",
		"@!%dp2 bra \t$K_fmod_step;",
		"mul.f64 \t%dk, %dk, 0d4300000000000000;", // 2^49
		"bra.uni \t$K_fmod_scale;",
		"$K_fmod_step:",
		"div.rn.f64 \t%dq, %dr, %dk;",
		"cvt.rzi.f64.f64 \t%dq, %dq;",
		"neg.f64 \t%dq, %dq;",
		"fma.rn.f64 \t%dr, %dq, %dk, %dr;",
		"setp.lt.f64 \t%dp2, %dr, 0d0000000000000000;",
		"@%dp2 add.f64 \t%dr, %dr, %dk;",
		"setp.ge.f64 \t%dp2, %dr, %dd;",
		"@%dp2 bra \t$K_fmod_outer;",
		"$K_fmod_done:",
		"@%dp0 mov.f64 \t%dr, 0d7FF8000000000000;",
		"copysign.f64 \t" + dst + ", " + a + ", %dr;",
	}
}

// roundTo rounds the f32 register r to t's precision (f16, bf16 round to
// nearest even; NaN stays NaN): PyTorch's Half and BFloat16 arithmetic
// rounds each result.
func roundTo(t DType, r string) []string {
	switch t {
	case F16:
		return []string{"cvt.rn.f16.f32 \t%h9, " + r + ";", "cvt.f32.f16 \t" + r + ", %h9;"}
	case BF16:
		return []string{
			"mov.b32 \t%r8, " + r + ";",
			"shr.u32 \t%r9, %r8, 16;",
			"and.b32 \t%r9, %r9, 1;",
			"add.u32 \t%r9, %r9, 32767;",
			"add.u32 \t%r9, %r8, %r9;",
			"and.b32 \t%r9, %r9, 0xFFFF0000;",
			"setp.nan.f32 \t%p9, " + r + ", " + r + ";",
			"@!%p9 mov.b32 \t" + r + ", %r9;",
		}
	}
	return nil
}

// floatDivBody computes base in the opmath type of t (f32 registers, or
// f64 ones for F64). scalar: b is s0 and s1 is 1/b (the "_s" forms);
// reflected: a is s0 (rounded to t first for floor division, whose lambda
// takes scalar_t).
func floatDivBody(base MapOp, t DType, a, b string, scalar, reflected bool) []string {
	T := "f32"
	if t == F64 {
		T = "f64"
	}
	zero, half, one := "0f00000000", "0f3F000000", "0f3F800000"
	if T == "f64" {
		zero, half, one = "0d0000000000000000", "0d3FE0000000000000", "0d3FF0000000000000"
	}
	l := []string{
		".reg .f64 \t%dr, %dd, %dk, %dq, %da, %db;",
		".reg .pred \t%dp<4>;",
		".reg ." + T + " \t%vm, %vd, %vf, %va, %vs;",
	}
	if reflected && base == "div_floor" && T == "f32" {
		l = append(l, "mov.f32 \t%vs, "+a+";")
		l = append(l, roundTo(t, "%vs")...)
		a = "%vs"
	}
	// mod = fmod(a, b) in %vm
	if T == "f32" {
		l = append(l, "cvt.f64.f32 \t%da, "+a+";", "cvt.f64.f32 \t%db, "+b+";")
		l = append(l, fmod64("%dr", "%da", "%db")...)
		l = append(l, "cvt.rn.f32.f64 \t%vm, %dr;")
	} else {
		l = append(l, fmod64("%vm", a, b)...)
	}
	// signs: mod ≠ 0 and (b < 0) ≠ (mod < 0)
	fix := []string{
		"setp.neu." + T + " \t%dp1, %vm, " + zero + ";",
		"setp.lt." + T + " \t%dp2, " + b + ", " + zero + ";",
		"setp.lt." + T + " \t%dp3, %vm, " + zero + ";",
		"xor.pred \t%dp2, %dp2, %dp3;",
		"and.pred \t%dp1, %dp1, %dp2;",
	}
	switch base {
	case "fmod":
		return append(l, "mov."+T+" \t%y, %vm;")
	case "remainder":
		l = append(l, fix...)
		return append(l, "@%dp1 add.rn."+T+" \t%vm, %vm, "+b+";", "mov."+T+" \t%y, %vm;")
	case "div_trunc":
		if scalar {
			return append(l, "mul.rn."+T+" \t%vd, "+a+", %s1;", "cvt.rzi."+T+"."+T+" \t%y, %vd;")
		}
		l = append(l, "div.rn."+T+" \t%vd, "+a+", "+b+";")
		l = append(l, roundTo(t, "%vd")...)
		return append(l, "cvt.rzi."+T+"."+T+" \t%y, %vd;")
	}
	// div_floor
	quot := "div.rn." + T + " \t%vd, %vd, " + b + ";"
	if scalar {
		quot = "mul.rn." + T + " \t%vd, %vd, %s1;"
	}
	l = append(l,
		"setp.eq."+T+" \t%dp0, "+b+", "+zero+";",
		"@!%dp0 bra \t$K_nonzero;",
	)
	if scalar {
		l = append(l, "mul.rn."+T+" \t%y, "+a+", %s1;")
	} else {
		l = append(l, "div.rn."+T+" \t%y, "+a+", "+b+";")
	}
	l = append(l, "bra.uni \t$K_end;", "$K_nonzero:", "sub.rn."+T+" \t%vd, "+a+", %vm;", quot)
	l = append(l, fix...)
	l = append(l,
		"@%dp1 sub.rn."+T+" \t%vd, %vd, "+one+";",
		"setp.neu."+T+" \t%dp1, %vd, "+zero+";",
		"@!%dp1 bra \t$K_zero;",
		"cvt.rmi."+T+"."+T+" \t%vf, %vd;",
	)
	l = append(l, roundTo(t, "%vf")...)
	l = append(l,
		"sub.rn."+T+" \t%va, %vd, %vf;",
		"setp.gt."+T+" \t%dp1, %va, "+half+";",
		"@%dp1 add.rn."+T+" \t%vf, %vf, "+one+";",
		"mov."+T+" \t%y, %vf;",
		"bra.uni \t$K_end;",
		"$K_zero:",
	)
	if scalar {
		l = append(l, "mul.rn."+T+" \t%va, "+a+", %s1;")
	} else {
		l = append(l, "div.rn."+T+" \t%va, "+a+", "+b+";")
	}
	return append(l, "copysign."+T+" \t%y, %va, "+zero+";", "$K_end:")
}
