package kernels

import (
	"fmt"
	"math"
	"strings"
)

// MaxRank is the number of dimensions the strided kernels index: callers
// merge the dimensions that can be merged and pad the shape with leading 1s.
const MaxRank = 4

// MapOp is an elementwise operator of the strided map kernels (map_<op>_<t>):
// out = f(ins..., s0, s1) over a shape of up to MaxRank dimensions, every
// operand with its own element strides (0 broadcasts).
type MapOp string

// MapOpInfo describes one MapOp: its arity and its PTX body, which reads
// the inputs widened to f32 in %x0, %x1 and the scalars in %s0, %s1 and
// leaves the result in %y (temporaries %t0..%t7, predicates %pq1..%pq3).
type MapOpInfo struct {
	Op   MapOp
	Ins  int
	Doc  string
	body []string
}

// fc formats a float constant as PTX's exact hexadecimal f32 form.
func fc(x float64) string { return f32Hex(math.Float32bits(float32(x))) }

// erfPTX computes dst = erf(z) with Abramowitz and Stegun's 7.1.26
// (absolute error below 1.5e-7), using %t4..%t7.
func erfPTX(dst, z string) []string {
	return []string{
		"abs.f32 \t%t4, " + z + ";",
		"fma.rn.f32 \t%t5, %t4, " + fc(0.3275911) + ", " + one + ";",
		"rcp.rn.f32 \t%t5, %t5;",
		"fma.rn.f32 \t%t6, %t5, " + fc(1.061405429) + ", " + fc(-1.453152027) + ";",
		"fma.rn.f32 \t%t6, %t6, %t5, " + fc(1.421413741) + ";",
		"fma.rn.f32 \t%t6, %t6, %t5, " + fc(-0.284496736) + ";",
		"fma.rn.f32 \t%t6, %t6, %t5, " + fc(0.254829592) + ";",
		"mul.rn.f32 \t%t6, %t6, %t5;",
		"mul.rn.f32 \t%t7, %t4, %t4;",
		"mul.rn.f32 \t%t7, %t7, " + minusLog2e + ";",
		"ex2.approx.ftz.f32 \t%t7, %t7;",
		"mul.rn.f32 \t%t6, %t6, %t7;",
		"sub.rn.f32 \t%t6, " + one + ", %t6;",
		"copysign.f32 \t" + dst + ", " + z + ", %t6;",
	}
}

func cat(parts ...[]string) []string {
	var out []string
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}

// MapOps lists every strided map operator.
var MapOps = []MapOpInfo{
	{"fill", 0, "out = s0", []string{"mov.f32 \t%y, %s0;"}},
	{"copy", 1, "out = x (converted to out's type)", []string{"mov.f32 \t%y, %x0;"}},
	{"neg", 1, "out = -x", []string{"neg.f32 \t%y, %x0;"}},
	{"relu", 1, "out = x <= 0 ? 0 : x", []string{
		"setp.le.f32 \t%pq1, %x0, " + zero + ";",
		"selp.f32 \t%y, " + zero + ", %x0, %pq1;",
	}},
	{"gelu", 1, "out = x/2 · (1 + erf(x/√2))", cat(
		[]string{"mul.rn.f32 \t%t0, %x0, " + fc(1/math.Sqrt2) + ";"},
		erfPTX("%t1", "%t0"),
		[]string{
			"add.rn.f32 \t%t1, %t1, " + one + ";",
			"mul.rn.f32 \t%t1, %t1, " + fc(0.5) + ";",
			"mul.rn.f32 \t%y, %x0, %t1;",
		})},
	{"gelu_tanh", 1, "out = x/2 · (1 + tanh(√(2/π)·(x + 0.044715x³)))", []string{
		"mul.rn.f32 \t%t0, %x0, %x0;",
		"mul.rn.f32 \t%t0, %t0, " + fc(0.044715) + ";",
		"fma.rn.f32 \t%t0, %t0, %x0, %x0;",
		"mul.rn.f32 \t%t0, %t0, " + fc(math.Sqrt(2/math.Pi)) + ";",
		"mul.f32 \t%t1, %t0, " + twiceLog2e + ";",
		"ex2.approx.ftz.f32 \t%t1, %t1;",
		"add.f32 \t%t2, %t1, " + one + ";",
		"rcp.rn.f32 \t%t3, %t2;",
		"fma.rn.f32 \t%t3, %t3, " + minusTwo + ", " + one + ";",
		"add.rn.f32 \t%t3, %t3, " + one + ";",
		"mul.rn.f32 \t%t3, %t3, " + fc(0.5) + ";",
		"mul.rn.f32 \t%y, %x0, %t3;",
	}},
	{"sigmoid", 1, "out = 1 / (1 + exp(-x))", []string{
		"mul.f32 \t%t0, %x0, " + minusLog2e + ";",
		"ex2.approx.ftz.f32 \t%t1, %t0;",
		"add.f32 \t%t2, %t1, " + one + ";",
		"rcp.rn.f32 \t%y, %t2;",
	}},
	{"tanh", 1, "out = 1 - 2 / (exp(2x) + 1)", []string{
		"mul.f32 \t%t0, %x0, " + twiceLog2e + ";",
		"ex2.approx.ftz.f32 \t%t1, %t0;",
		"add.f32 \t%t2, %t1, " + one + ";",
		"rcp.rn.f32 \t%t3, %t2;",
		"fma.rn.f32 \t%y, %t3, " + minusTwo + ", " + one + ";",
	}},
	{"exp", 1, "out = exp(x)", []string{
		"mul.f32 \t%t0, %x0, " + log2e + ";",
		"ex2.approx.ftz.f32 \t%y, %t0;",
	}},
	{"log", 1, "out = log(x)", []string{
		"lg2.approx.f32 \t%t0, %x0;",
		"mul.rn.f32 \t%y, %t0, " + fc(math.Ln2) + ";",
	}},
	{"sqrt", 1, "out = sqrt(x)", []string{"sqrt.rn.f32 \t%y, %x0;"}},
	{"rsqrt", 1, "out = 1/sqrt(x)", []string{"sqrt.rn.f32 \t%t0, %x0;", "rcp.rn.f32 \t%y, %t0;"}},
	{"abs", 1, "out = |x|", []string{"abs.f32 \t%y, %x0;"}},
	{"square", 1, "out = x·x", []string{"mul.rn.f32 \t%y, %x0, %x0;"}},
	{"reciprocal", 1, "out = 1/x", []string{"rcp.rn.f32 \t%y, %x0;"}},
	{"affine", 1, "out = s0·x + s1", []string{"fma.rn.f32 \t%y, %x0, %s0, %s1;"}},
	{"pow", 1, "out = x^s0 (x > 0: exp2(s0·log2 x))", []string{
		"lg2.approx.f32 \t%t0, %x0;",
		"mul.rn.f32 \t%t0, %t0, %s0;",
		"ex2.approx.f32 \t%y, %t0;",
	}},
	{"add", 2, "out = a + s0·b", []string{"fma.rn.f32 \t%y, %x1, %s0, %x0;"}},
	{"sub", 2, "out = a - s0·b", []string{"mul.rn.f32 \t%t0, %x1, %s0;", "sub.rn.f32 \t%y, %x0, %t0;"}},
	{"mul", 2, "out = a·b", []string{"mul.rn.f32 \t%y, %x0, %x1;"}},
	{"div", 2, "out = a/b", []string{"div.rn.f32 \t%y, %x0, %x1;"}},
	{"maximum", 2, "out = max(a, b)", []string{"max.f32 \t%y, %x0, %x1;"}},
	{"relu_backward", 2, "out = b <= 0 ? 0 : a (a grad, b input)", []string{
		"setp.le.f32 \t%pq1, %x1, " + zero + ";",
		"selp.f32 \t%y, " + zero + ", %x0, %pq1;",
	}},
	{"gelu_backward", 2, "out = a · (Φ(b) + b·φ(b)) (a grad, b input)", cat(
		[]string{"mul.rn.f32 \t%t0, %x1, " + fc(1/math.Sqrt2) + ";"},
		erfPTX("%t1", "%t0"),
		[]string{
			"add.rn.f32 \t%t1, %t1, " + one + ";",
			"mul.rn.f32 \t%t1, %t1, " + fc(0.5) + ";",
			"mul.rn.f32 \t%t2, %x1, %x1;",
			"mul.rn.f32 \t%t2, %t2, " + fc(-0.5*math.Log2E) + ";",
			"ex2.approx.ftz.f32 \t%t2, %t2;",
			"mul.rn.f32 \t%t2, %t2, " + fc(1/math.Sqrt(2*math.Pi)) + ";",
			"fma.rn.f32 \t%t3, %x1, %t2, %t1;",
			"mul.rn.f32 \t%y, %x0, %t3;",
		})},
	{"sigmoid_backward", 2, "out = a · b · (1 - b) (a grad, b output)", []string{
		"sub.rn.f32 \t%t0, " + one + ", %x1;",
		"mul.rn.f32 \t%t0, %t0, %x1;",
		"mul.rn.f32 \t%y, %x0, %t0;",
	}},
	{"tanh_backward", 2, "out = a · (1 - b²) (a grad, b output)", []string{
		"mul.rn.f32 \t%t0, %x1, %x1;",
		"sub.rn.f32 \t%t0, " + one + ", %t0;",
		"mul.rn.f32 \t%y, %x0, %t0;",
	}},
}

// MapOpByName returns the operator's description.
func MapOpByName(op MapOp) (MapOpInfo, bool) {
	for _, o := range MapOps {
		if o.Op == op {
			return o, true
		}
	}
	return MapOpInfo{}, false
}

// MapKernelName is the entry of op over operands of type t (for copy: from
// in to t).
func MapKernelName(op MapOp, in, t DType) string {
	if op == "copy" {
		return fmt.Sprintf("map_copy_%s_%s", in, t)
	}
	return fmt.Sprintf("map_%s_%s", op, t)
}

// mapKernel is a grid-stride loop over the n elements of a shape of
// MaxRank dimensions (d0 outermost); each operand's element offset is the
// dot product of the element's coordinates and the operand's strides.
type mapKernel struct {
	op      MapOpInfo
	in, out DType
}

var operandNames = []string{"o", "a", "b"}

func (k mapKernel) name() string { return MapKernelName(k.op.Op, k.in, k.out) }

func (k mapKernel) entry() Entry {
	e := Entry{Name: k.name(), Doc: k.op.Doc}
	e.Params = append(e.Params, Param{"dst", Ptr})
	for i := 0; i < k.op.Ins; i++ {
		e.Params = append(e.Params, Param{operandNames[1+i], Ptr})
	}
	e.Params = append(e.Params, Param{"s0", Scalar}, Param{"s1", Scalar}, Param{"n", U64})
	for d := 0; d < MaxRank; d++ {
		e.Params = append(e.Params, Param{fmt.Sprintf("d%d", d), U64})
	}
	for i := 0; i <= k.op.Ins; i++ {
		for d := 0; d < MaxRank; d++ {
			e.Params = append(e.Params, Param{fmt.Sprintf("s%s%d", operandNames[i], d), U64})
		}
	}
	return e
}

// raw reports a same-type copy, done on the bits (exact for every type,
// int64 beyond 2^24 and NaN payloads included).
func (k mapKernel) raw() bool { return k.op.Op == "copy" && k.in == k.out }

func (k mapKernel) body() string {
	e := k.entry()
	name := k.name()
	var b strings.Builder
	b.WriteString(entryHeader(e))
	b.WriteString(scratchRegs)
	b.WriteString(scratchRegs64)
	b.WriteString("\t.reg .pred \t%pq<4>;\n\t.reg .b64 \t%rd<32>;\n")
	b.WriteString("\t.reg .f32 \t%x<4>;\n\t.reg .f32 \t%s<4>;\n\t.reg .f32 \t%t<8>;\n\t.reg .f32 \t%y;\n\n")
	// %rd4.. pointers (dst, a, b); %rd8..11 dims; strides of operand i at
	// %rd(12+4i)..; %rd24 rem, %rd25 coordinate, %rd26+i offsets.
	ptrs := []string{"dst", "a", "b"}[:1+k.op.Ins]
	for i, p := range ptrs {
		r := fmt.Sprintf("%%rd%d", 4+i)
		b.WriteString(loadParam(e, p, r))
		fmt.Fprintf(&b, "\tcvta.to.global.u64 \t%s, %s;\n", r, r)
	}
	b.WriteString(loadParam(e, "s0", "%s0"))
	b.WriteString(loadParam(e, "s1", "%s1"))
	b.WriteString(loadParam(e, "n", "%rd2"))
	for d := 0; d < MaxRank; d++ {
		b.WriteString(loadParam(e, fmt.Sprintf("d%d", d), fmt.Sprintf("%%rd%d", 8+d)))
	}
	for i := range ptrs {
		for d := 0; d < MaxRank; d++ {
			b.WriteString(loadParam(e, fmt.Sprintf("s%s%d", operandNames[i], d), fmt.Sprintf("%%rd%d", 12+4*i+d)))
		}
	}
	b.WriteString(gridStrideStart)
	fmt.Fprintf(&b, "$L_%s_loop:\n", name)
	fmt.Fprintf(&b, "\tsetp.ge.u64 \t%%pq0, %%rd0, %%rd2;\n\t@%%pq0 bra \t$L_%s_done;\n", name)
	b.WriteString("\tmov.u64 \t%rd24, %rd0;\n")
	for i := range ptrs {
		fmt.Fprintf(&b, "\tmov.u64 \t%%rd%d, 0;\n", 26+i)
	}
	for d := MaxRank - 1; d >= 0; d-- {
		coord := "%rd25"
		if d > 0 {
			fmt.Fprintf(&b, "\trem.u64 \t%%rd25, %%rd24, %%rd%d;\n\tdiv.u64 \t%%rd24, %%rd24, %%rd%d;\n", 8+d, 8+d)
		} else {
			coord = "%rd24"
		}
		for i := range ptrs {
			fmt.Fprintf(&b, "\tmad.lo.s64 \t%%rd%d, %s, %%rd%d, %%rd%d;\n", 26+i, coord, 12+4*i+d, 26+i)
		}
	}
	if k.raw() {
		bits := 8 * k.out.Size()
		reg := map[int64]string{16: "%h8", 32: "%r7", 64: "%q8"}[bits]
		fmt.Fprintf(&b, "\tshl.b64 \t%%rd3, %%rd27, %d;\n\tadd.u64 \t%%rd29, %%rd5, %%rd3;\n", k.in.shift())
		fmt.Fprintf(&b, "\tld.global.b%d \t%s, [%%rd29];\n", bits, reg)
		fmt.Fprintf(&b, "\tshl.b64 \t%%rd3, %%rd26, %d;\n\tadd.u64 \t%%rd29, %%rd4, %%rd3;\n", k.out.shift())
		fmt.Fprintf(&b, "\tst.global.b%d \t[%%rd29], %s;\n", bits, reg)
	} else {
		for i := 0; i < k.op.Ins; i++ {
			fmt.Fprintf(&b, "\tshl.b64 \t%%rd3, %%rd%d, %d;\n\tadd.u64 \t%%rd29, %%rd%d, %%rd3;\n", 27+i, k.in.shift(), 5+i)
			b.WriteString(k.in.loadF32(fmt.Sprintf("%%x%d", i), "%rd29", ""))
		}
		for _, line := range k.op.body {
			b.WriteString("\t" + line + "\n")
		}
		fmt.Fprintf(&b, "\tshl.b64 \t%%rd3, %%rd26, %d;\n\tadd.u64 \t%%rd29, %%rd4, %%rd3;\n", k.out.shift())
		b.WriteString(k.out.storeF32("%rd29", "%y"))
	}
	b.WriteString("\tadd.u64 \t%rd0, %rd0, %rd1;\n")
	fmt.Fprintf(&b, "\tbra.uni \t$L_%s_loop;\n$L_%s_done:\n\tret;\n}\n", name, name)
	return b.String()
}

// CopyDTypes are the types the strided copy converts between.
var CopyDTypes = []DType{F32, F16, BF16, I64}

// mapModule generates every map operator for every float type, the copy
// for every pair of CopyDTypes, and fill for int64.
func mapModule() moduleSpec {
	var ks []kernelSpec
	for _, op := range MapOps {
		if op.Op == "copy" {
			for _, from := range CopyDTypes {
				for _, to := range CopyDTypes {
					ks = append(ks, mapKernel{op, from, to})
				}
			}
			continue
		}
		for _, t := range DTypes {
			ks = append(ks, mapKernel{op, t, t})
		}
		if op.Op == "fill" {
			ks = append(ks, mapKernel{op, I64, I64})
		}
	}
	return moduleSpec{name: "map", kernels: ks}
}
