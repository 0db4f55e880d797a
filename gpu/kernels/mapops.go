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
	// Out, if set, is the output's type whatever the inputs' are (B8 for
	// comparisons); the kernel is named after the inputs' type then.
	Out DType
	// Fixed gives inputs whose type does not follow the others' (index →
	// type): the condition of where, the mask of masked_fill (B8).
	Fixed map[int]DType
	// Types lists the input types the op is generated for; nil: DTypes.
	Types []DType
	// bodyFor, if set, gives the body for the inputs' type (the division
	// family: integer, f32-opmath and f64 bodies differ).
	bodyFor func(in DType) []string
}

// InType is the type of input i when the op's inputs have type t.
func (o MapOpInfo) InType(i int, t DType) DType {
	if f, ok := o.Fixed[i]; ok {
		return f
	}
	return t
}

// OutType is the output's type when the op's inputs have type t.
func (o MapOpInfo) OutType(t DType) DType {
	if o.Out != "" {
		return o.Out
	}
	return t
}

// types is the list of input types the op is generated for.
func (o MapOpInfo) types() []DType {
	if o.Types != nil {
		return o.Types
	}
	return DTypes
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

// MapOps lists every strided map operator: the core ones and those of
// mapops_pointwise.go, mapops_loss.go, mapops_div.go, mapops_leaky.go and
// mapops_f64.go.
var MapOps = widenTypes(append(append(append(append(append(coreMapOps, pointwiseMapOps...), lossMapOps...), divMapOps...), leakyMapOps...), f64MapOps...))

// ArithTypes are the input types of the four operations, neg and affine:
// the float types, float64 and the integers (int32 for GradScaler's growth
// tracker, int64 for index arithmetic), all computed in f32.
var ArithTypes = []DType{F32, F16, BF16, F64, I32, I64}

// float64Ops are the ops generated for float64 besides ArithTypes' ops
// (reciprocal for GradScaler's inverse scale; the activations, their
// backwards and addcmul for float64 RNNs).
var float64Ops = map[MapOp]bool{"div": true, "reciprocal": true, "abs": true, "sqrt": true,
	"relu": true, "relu_backward": true, "sigmoid": true, "sigmoid_backward": true,
	"tanh": true, "tanh_backward": true, "addcmul": true}

// widenTypes gives the arithmetic ops their ArithTypes and float64Ops
// float64 (the others keep DTypes or their own list).
func widenTypes(ops []MapOpInfo) []MapOpInfo {
	for i, o := range ops {
		switch {
		case o.Types != nil:
			if float64MoreOps[o.Op] && !hasType(o.Types, F64) {
				ops[i].Types = append(append([]DType(nil), o.Types...), F64)
			}
		case float64MoreOps[o.Op]:
			ops[i].Types = append(append([]DType(nil), DTypes...), F64)
		case mapArithOps[o.Op] && o.Op != "div":
			ops[i].Types = ArithTypes
		case float64Ops[o.Op]:
			ops[i].Types = append(append([]DType(nil), DTypes...), F64)
			if o.Op == "abs" { // in integers (MapOpmathInt)
				ops[i].Types = append(ops[i].Types, I64, I32)
			}
		}
		if f64, ok := f64Bodies[o.Op]; ok { // .approx in f32: an f64 body of its own
			body := o.body
			ops[i].bodyFor = func(in DType) []string {
				if in == F64 {
					return f64()
				}
				return body
			}
		}
	}
	return ops
}

var coreMapOps = []MapOpInfo{
	{Op: "fill", Ins: 0, Doc: "out = s0", body: []string{"mov.f32 \t%y, %s0;"}},
	{Op: "copy", Ins: 1, Doc: "out = x (converted to out's type)", body: []string{"mov.f32 \t%y, %x0;"}},
	{Op: "neg", Ins: 1, Doc: "out = -x", body: []string{"neg.f32 \t%y, %x0;"}},
	{Op: "relu", Ins: 1, Doc: "out = x <= 0 ? 0 : x", body: []string{
		"setp.le.f32 \t%pq1, %x0, " + zero + ";",
		"selp.f32 \t%y, " + zero + ", %x0, %pq1;",
	}},
	{Op: "gelu", Ins: 1, Doc: "out = x/2 · (1 + erf(x/√2))", body: cat(
		[]string{"mul.rn.f32 \t%t0, %x0, " + fc(1/math.Sqrt2) + ";"},
		erfPTX("%t1", "%t0"),
		[]string{
			"add.rn.f32 \t%t1, %t1, " + one + ";",
			"mul.rn.f32 \t%t1, %t1, " + fc(0.5) + ";",
			"mul.rn.f32 \t%y, %x0, %t1;",
		})},
	{Op: "gelu_tanh", Ins: 1, Doc: "out = x/2 · (1 + tanh(√(2/π)·(x + 0.044715x³)))", body: []string{
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
	{Op: "sigmoid", Ins: 1, Doc: "out = 1 / (1 + exp(-x))", body: []string{
		"mul.f32 \t%t0, %x0, " + minusLog2e + ";",
		"ex2.approx.ftz.f32 \t%t1, %t0;",
		"add.f32 \t%t2, %t1, " + one + ";",
		"rcp.rn.f32 \t%y, %t2;",
	}},
	{Op: "tanh", Ins: 1, Doc: "out = 1 - 2 / (exp(2x) + 1)", body: []string{
		"mul.f32 \t%t0, %x0, " + twiceLog2e + ";",
		"ex2.approx.ftz.f32 \t%t1, %t0;",
		"add.f32 \t%t2, %t1, " + one + ";",
		"rcp.rn.f32 \t%t3, %t2;",
		"fma.rn.f32 \t%y, %t3, " + minusTwo + ", " + one + ";",
	}},
	{Op: "exp", Ins: 1, Doc: "out = exp(x)", body: []string{
		"mul.f32 \t%t0, %x0, " + log2e + ";",
		"ex2.approx.ftz.f32 \t%y, %t0;",
	}},
	{Op: "log", Ins: 1, Doc: "out = log(x)", body: []string{
		"lg2.approx.f32 \t%t0, %x0;",
		"mul.rn.f32 \t%y, %t0, " + fc(math.Ln2) + ";",
	}},
	{Op: "sqrt", Ins: 1, Doc: "out = sqrt(x)", body: []string{"sqrt.rn.f32 \t%y, %x0;"}},
	{Op: "rsqrt", Ins: 1, Doc: "out = 1/sqrt(x)", body: []string{"sqrt.rn.f32 \t%t0, %x0;", "rcp.rn.f32 \t%y, %t0;"}},
	{Op: "abs", Ins: 1, Doc: "out = |x|", body: []string{"abs.f32 \t%y, %x0;"}},
	{Op: "square", Ins: 1, Doc: "out = x·x", body: []string{"mul.rn.f32 \t%y, %x0, %x0;"}},
	{Op: "floor", Ins: 1, Doc: "out = ⌊x⌋", body: []string{"cvt.rmi.f32.f32 \t%y, %x0;"}},
	{Op: "ceil", Ins: 1, Doc: "out = ⌈x⌉", body: []string{"cvt.rpi.f32.f32 \t%y, %x0;"}},
	{Op: "trunc", Ins: 1, Doc: "out = x rounded toward zero", body: []string{"cvt.rzi.f32.f32 \t%y, %x0;"}},
	{Op: "round", Ins: 1, Doc: "out = x rounded half to even (nearbyint)", body: []string{"cvt.rni.f32.f32 \t%y, %x0;"}},
	{Op: "sign", Ins: 1, Doc: "out = (0 < x) − (x < 0) (NaN: 0)", body: []string{
		"setp.gt.f32 \t%pq1, %x0, " + zero + ";",
		"selp.f32 \t%t0, " + one + ", " + zero + ", %pq1;",
		"setp.lt.f32 \t%pq2, %x0, " + zero + ";",
		"selp.f32 \t%t1, " + one + ", " + zero + ", %pq2;",
		"sub.rn.f32 \t%y, %t0, %t1;",
	}},
	{Op: "reciprocal", Ins: 1, Doc: "out = 1/x", body: []string{"rcp.rn.f32 \t%y, %x0;"}},
	{Op: "affine", Ins: 1, Doc: "out = s0·x + s1", body: []string{"fma.rn.f32 \t%y, %x0, %s0, %s1;"}},
	{Op: "pow", Ins: 1, Doc: "out = x^s0 (x > 0: exp2(s0·log2 x))", body: []string{
		"lg2.approx.f32 \t%t0, %x0;",
		"mul.rn.f32 \t%t0, %t0, %s0;",
		"ex2.approx.f32 \t%y, %t0;",
	}},
	{Op: "add", Ins: 2, Doc: "out = a + s0·b", body: []string{"fma.rn.f32 \t%y, %x1, %s0, %x0;"}},
	{Op: "sub", Ins: 2, Doc: "out = a - s0·b", body: []string{"mul.rn.f32 \t%t0, %x1, %s0;", "sub.rn.f32 \t%y, %x0, %t0;"}},
	{Op: "mul", Ins: 2, Doc: "out = a·b", body: []string{"mul.rn.f32 \t%y, %x0, %x1;"}},
	{Op: "div", Ins: 2, Doc: "out = a/b", body: []string{"div.rn.f32 \t%y, %x0, %x1;"}},
	{Op: "maximum", Ins: 2, Doc: "out = max(a, b) (NaN if either is)", body: []string{
		"max.f32 \t%t0, %x0, %x1;",
		"add.f32 \t%t1, %x0, %x1;",
		"setp.nan.f32 \t%pq1, %x0, %x1;",
		"selp.f32 \t%y, %t1, %t0, %pq1;",
	}},
	{Op: "relu_backward", Ins: 2, Doc: "out = b <= 0 ? 0 : a (a grad, b input)", body: []string{
		"setp.le.f32 \t%pq1, %x1, " + zero + ";",
		"selp.f32 \t%y, " + zero + ", %x0, %pq1;",
	}},
	{Op: "gelu_backward", Ins: 2, Doc: "out = a · (Φ(b) + b·φ(b)) (a grad, b input)", body: cat(
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
	{Op: "gelu_tanh_backward", Ins: 2, Doc: "out = a · (½(1 + t) + ½b·(1 − t²)·β(1 + 3κb²)), t = tanh(β(b + κb³)) (a grad, b input)", body: []string{
		"mul.rn.f32 \t%t0, %x1, %x1;",
		"mul.rn.f32 \t%t1, %t0, " + fc(0.044715) + ";",
		"fma.rn.f32 \t%t1, %t1, %x1, %x1;",
		"mul.rn.f32 \t%t1, %t1, " + fc(math.Sqrt(2/math.Pi)) + ";",
		"mul.f32 \t%t2, %t1, " + twiceLog2e + ";",
		"ex2.approx.ftz.f32 \t%t2, %t2;",
		"add.f32 \t%t2, %t2, " + one + ";",
		"rcp.rn.f32 \t%t3, %t2;",
		"fma.rn.f32 \t%t3, %t3, " + minusTwo + ", " + one + ";",
		"add.rn.f32 \t%t4, %t3, " + one + ";",
		"mul.rn.f32 \t%t4, %t4, " + fc(0.5) + ";",
		"mul.rn.f32 \t%t5, %t3, %t3;",
		"sub.rn.f32 \t%t5, " + one + ", %t5;",
		"fma.rn.f32 \t%t6, %t0, " + fc(3*0.044715) + ", " + one + ";",
		"mul.rn.f32 \t%t5, %t5, %t6;",
		"mul.rn.f32 \t%t5, %t5, " + fc(math.Sqrt(2/math.Pi)) + ";",
		"mul.rn.f32 \t%t6, %x1, " + fc(0.5) + ";",
		"fma.rn.f32 \t%t4, %t6, %t5, %t4;",
		"mul.rn.f32 \t%y, %x0, %t4;",
	}},
	{Op: "sigmoid_backward", Ins: 2, Doc: "out = a · b · (1 - b) (a grad, b output)", body: []string{
		"sub.rn.f32 \t%t0, " + one + ", %x1;",
		"mul.rn.f32 \t%t0, %t0, %x1;",
		"mul.rn.f32 \t%y, %x0, %t0;",
	}},
	{Op: "tanh_backward", Ins: 2, Doc: "out = a · (1 - b²) (a grad, b output)", body: []string{
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
// in to t): the kernel with 32-bit index arithmetic, for launches that
// MapFits32.
func MapKernelName(op MapOp, in, t DType) string {
	if op == "copy" {
		return fmt.Sprintf("map_copy_%s_%s", in, t)
	}
	if info, ok := MapOpByName(op); ok && info.Out != "" {
		return fmt.Sprintf("map_%s_%s", op, in)
	}
	return fmt.Sprintf("map_%s_%s", op, t)
}

// MapKernelName64 is the entry with 64-bit index arithmetic ("map64_..."),
// generated only for the ops MapHas64 lists.
func MapKernelName64(op MapOp, in, t DType) string {
	return "map64_" + strings.TrimPrefix(MapKernelName(op, in, t), "map_")
}

// MapHas64 reports whether op has kernels with 64-bit indices: copy and
// fill, the ops that reach tensors of 2^31 elements or more in practice
// (a 4 GiB half-precision buffer). The other ops have 32-bit kernels only,
// which keeps the module small: the driver JIT-compiles it at load.
func MapHas64(op MapOp) bool { return op == "copy" || op == "fill" }

// MapFits32 reports whether a launch over shape with the operands'
// element strides can use 32-bit indices: fewer than 2^31 elements and
// every operand's largest element offset below 2^31 (strides are not
// negative; a negative one needs the 64-bit kernel).
func MapFits32(shape []int64, strides ...[]int64) bool {
	const lim = int64(1) << 31
	n := int64(1)
	for _, d := range shape {
		if d <= 0 {
			return true // nothing to do
		}
		if n *= d; n >= lim {
			return false
		}
	}
	for _, st := range strides {
		off := int64(0)
		for d, s := range st {
			if s < 0 || (s > 0 && shape[d]-1 > (lim-1-off)/s) {
				return false
			}
			off += (shape[d] - 1) * s
		}
	}
	return true
}

// mapKernel is a grid-stride loop over the n elements of a shape of
// MaxRank dimensions (d0 outermost); each operand's element offset is the
// dot product of the element's coordinates and the operand's strides. The
// index arithmetic is 32-bit (one div.u32 per dimension, the remainder
// from the quotient) unless wide is set.
type mapKernel struct {
	op      MapOpInfo
	in, out DType
	wide    bool
}

var operandNames = []string{"o", "a", "b", "c"}

func (k mapKernel) name() string {
	if k.wide {
		return MapKernelName64(k.op.Op, k.in, k.out)
	}
	return MapKernelName(k.op.Op, k.in, k.out)
}

func (k mapKernel) entry() Entry {
	e := Entry{Name: k.name(), Doc: k.op.Doc}
	e.Params = append(e.Params, Param{"dst", Ptr})
	for i := 0; i < k.op.Ins; i++ {
		e.Params = append(e.Params, Param{operandNames[1+i], Ptr})
	}
	sk := Scalar
	if MapOpmath64(k.op.Op, k.in, k.out) {
		sk = Scalar64
	}
	if MapOpmathInt(k.op.Op, k.in, k.out) {
		sk = U64
	}
	e.Params = append(e.Params, Param{"s0", sk}, Param{"s1", sk}, Param{"n", U64})
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
	if k.in == F64 || k.out == F64 {
		b.WriteString(scratchRegsF64)
	}
	b.WriteString("\t.reg .pred \t%pq<4>;\n\t.reg .b64 \t%rd<40>;\n\t.reg .b32 \t%ri<40>;\n")
	op64 := MapOpmath64(k.op.Op, k.in, k.out)
	opInt := MapOpmathInt(k.op.Op, k.in, k.out)
	if opInt {
		b.WriteString("\t.reg .s64 \t%x<4>;\n\t.reg .s64 \t%s<4>;\n\t.reg .s64 \t%t<8>;\n\t.reg .s64 \t%y;\n\n")
	} else if op64 {
		b.WriteString("\t.reg .f32 \t%f<10>;\n")
		b.WriteString("\t.reg .f64 \t%x<4>;\n\t.reg .f64 \t%s<4>;\n\t.reg .f64 \t%t<8>;\n\t.reg .f64 \t%y;\n\n")
	} else {
		b.WriteString("\t.reg .f32 \t%x<4>;\n\t.reg .f32 \t%s<4>;\n\t.reg .f32 \t%t<8>;\n\t.reg .f32 \t%y;\n\n")
	}
	// %rd4.. pointers (dst, a, b, c); %rd8..11 dims; strides of operand i
	// at %rd(12+4i)..; %rd28 rem, %rd29 coordinate, %rd30+i offsets, %rd34
	// the element's address.
	ptrs := []string{"dst", "a", "b", "c"}[:1+k.op.Ins]
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
	if k.wide {
		b.WriteString(k.index64(name, len(ptrs)))
	} else {
		b.WriteString(k.index32(name, len(ptrs)))
	}
	if k.raw() {
		bits := 8 * k.out.Size()
		reg := map[int64]string{8: "%r7", 16: "%h8", 32: "%r7", 64: "%q8"}[bits]
		ld := fmt.Sprintf("b%d", bits)
		if bits == 8 {
			ld = "u8"
		}
		fmt.Fprintf(&b, "\tshl.b64 \t%%rd3, %%rd31, %d;\n\tadd.u64 \t%%rd34, %%rd5, %%rd3;\n", k.in.shift())
		fmt.Fprintf(&b, "\tld.global.%s \t%s, [%%rd34];\n", ld, reg)
		fmt.Fprintf(&b, "\tshl.b64 \t%%rd3, %%rd30, %d;\n\tadd.u64 \t%%rd34, %%rd4, %%rd3;\n", k.out.shift())
		fmt.Fprintf(&b, "\tst.global.%s \t[%%rd34], %s;\n", ld, reg)
	} else {
		for i := 0; i < k.op.Ins; i++ {
			t := k.op.InType(i, k.in)
			fmt.Fprintf(&b, "\tshl.b64 \t%%rd3, %%rd%d, %d;\n\tadd.u64 \t%%rd34, %%rd%d, %%rd3;\n", 31+i, t.shift(), 5+i)
			if opInt {
				b.WriteString(t.loadS64(fmt.Sprintf("%%x%d", i), "%rd34"))
			} else if op64 {
				b.WriteString(t.loadF64(fmt.Sprintf("%%x%d", i), "%rd34"))
			} else {
				b.WriteString(t.loadF32(fmt.Sprintf("%%x%d", i), "%rd34", ""))
			}
		}
		body := k.op.body
		if opInt {
			body = intOpsBody[k.op.Op]
		}
		if k.op.bodyFor != nil {
			body = k.op.bodyFor(k.in)
		}
		for _, line := range body {
			if op64 {
				line = body64(line)
			}
			line = strings.ReplaceAll(line, "$K", "$L_"+name)
			b.WriteString("\t" + line + "\n")
		}
		fmt.Fprintf(&b, "\tshl.b64 \t%%rd3, %%rd30, %d;\n\tadd.u64 \t%%rd34, %%rd4, %%rd3;\n", k.out.shift())
		if opInt {
			b.WriteString(k.out.storeS64("%rd34", "%y"))
		} else if op64 {
			b.WriteString(k.out.storeF64("%rd34", "%y"))
		} else {
			b.WriteString(k.out.storeF32("%rd34", "%y"))
		}
	}
	if k.wide {
		b.WriteString("\tadd.u64 \t%rd0, %rd0, %rd1;\n")
	} else {
		b.WriteString("\tadd.u32 \t%ri0, %ri0, %ri1;\n")
	}
	fmt.Fprintf(&b, "\tbra.uni \t$L_%s_loop;\n$L_%s_done:\n\tret;\n}\n", name, name)
	return b.String()
}

// index64 starts the loop and leaves operand i's element offset in
// %rd(30+i), with 64-bit arithmetic (the element index in %rd0).
func (k mapKernel) index64(name string, nptrs int) string {
	var b strings.Builder
	b.WriteString(gridStrideStart)
	fmt.Fprintf(&b, "$L_%s_loop:\n", name)
	fmt.Fprintf(&b, "\tsetp.ge.u64 \t%%pq0, %%rd0, %%rd2;\n\t@%%pq0 bra \t$L_%s_done;\n", name)
	b.WriteString("\tmov.u64 \t%rd28, %rd0;\n")
	for i := 0; i < nptrs; i++ {
		fmt.Fprintf(&b, "\tmov.u64 \t%%rd%d, 0;\n", 30+i)
	}
	for d := MaxRank - 1; d >= 0; d-- {
		coord := "%rd29"
		if d > 0 {
			fmt.Fprintf(&b, "\tdiv.u64 \t%%rd35, %%rd28, %%rd%d;\n\tmul.lo.u64 \t%%rd29, %%rd35, %%rd%d;\n\tsub.u64 \t%%rd29, %%rd28, %%rd29;\n\tmov.u64 \t%%rd28, %%rd35;\n", 8+d, 8+d)
		} else {
			coord = "%rd28"
		}
		for i := 0; i < nptrs; i++ {
			fmt.Fprintf(&b, "\tmad.lo.s64 \t%%rd%d, %s, %%rd%d, %%rd%d;\n", 30+i, coord, 12+4*i+d, 30+i)
		}
	}
	return b.String()
}

// index32 is index64 with 32-bit arithmetic: the u64 parameters are
// narrowed once (the launcher checked MapFits32), the element index is
// %ri0 and the offsets are widened to %rd(30+i) at the end. Dimensions
// of size 1 are skipped at run time (most launches have fewer than
// MaxRank).
func (k mapKernel) index32(name string, nptrs int) string {
	var b strings.Builder
	// %ri2 n, %ri(8+d) dims, %ri(12+4i+d) strides, %ri28 rem, %ri35
	// quotient, %ri29 coordinate, %ri(30+i) offsets.
	b.WriteString("\tcvt.u32.u64 \t%ri2, %rd2;\n")
	for r := 8; r < 12+4*nptrs; r++ {
		fmt.Fprintf(&b, "\tcvt.u32.u64 \t%%ri%d, %%rd%d;\n", r, r)
	}
	b.WriteString("\tmov.u32 \t%ri3, %ctaid.x;\n\tmov.u32 \t%ri4, %ntid.x;\n\tmov.u32 \t%ri5, %tid.x;\n")
	b.WriteString("\tmad.lo.u32 \t%ri0, %ri3, %ri4, %ri5;\n\tmov.u32 \t%ri3, %nctaid.x;\n\tmul.lo.u32 \t%ri1, %ri3, %ri4;\n")
	fmt.Fprintf(&b, "$L_%s_loop:\n", name)
	fmt.Fprintf(&b, "\tsetp.ge.u32 \t%%pq0, %%ri0, %%ri2;\n\t@%%pq0 bra \t$L_%s_done;\n", name)
	b.WriteString("\tmov.u32 \t%ri28, %ri0;\n")
	for i := 0; i < nptrs; i++ {
		fmt.Fprintf(&b, "\tmov.u32 \t%%ri%d, 0;\n", 30+i)
	}
	for d := MaxRank - 1; d >= 0; d-- {
		coord := "%ri29"
		if d > 0 {
			fmt.Fprintf(&b, "\tdiv.u32 \t%%ri35, %%ri28, %%ri%d;\n\tmul.lo.u32 \t%%ri29, %%ri35, %%ri%d;\n\tsub.u32 \t%%ri29, %%ri28, %%ri29;\n\tmov.u32 \t%%ri28, %%ri35;\n", 8+d, 8+d)
		} else {
			coord = "%ri28"
		}
		for i := 0; i < nptrs; i++ {
			fmt.Fprintf(&b, "\tmad.lo.u32 \t%%ri%d, %s, %%ri%d, %%ri%d;\n", 30+i, coord, 12+4*i+d, 30+i)
		}
	}
	for i := 0; i < nptrs; i++ {
		fmt.Fprintf(&b, "\tcvt.u64.u32 \t%%rd%d, %%ri%d;\n", 30+i, 30+i)
	}
	return b.String()
}

// CopyDTypes are the types the strided copy converts between.
var CopyDTypes = []DType{F32, F16, BF16, I64, B8, F64, I32}

// mapKernels lists every map operator for every float type, the copy for
// every pair of CopyDTypes, and fill for int64, bool, float64 and int32 (mapModules splits
// them into modules).
func mapKernels() []mapKernel {
	var ks []mapKernel
	for _, op := range MapOps {
		if op.Op == "copy" {
			for _, from := range CopyDTypes {
				for _, to := range CopyDTypes {
					ks = append(ks, mapKernel{op: op, in: from, out: to})
				}
			}
			continue
		}
		for _, t := range op.types() {
			ks = append(ks, mapKernel{op: op, in: t, out: op.OutType(t)})
		}
		if op.Op == "fill" {
			for _, t := range []DType{I64, B8, F64, I32} {
				ks = append(ks, mapKernel{op: op, in: t, out: t})
			}
		}
	}
	// The 64-bit variants of MapHas64's ops, after the 32-bit ones.
	for _, k := range ks[:len(ks):len(ks)] {
		if MapHas64(k.op.Op) {
			k.wide = true
			ks = append(ks, k)
		}
	}
	return ks
}
