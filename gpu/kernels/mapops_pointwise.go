package kernels

// The map operators of the pointwise family (issue 7): silu, clamp, the
// optimizers' lerp/addcmul/addcdiv, comparisons and logical ops into bool,
// isnan/isinf/isfinite, where and masked_fill. Formulas are ATen's CUDA
// kernels in f32 opmath, with the fused multiply-adds nvcc contracts them
// to (lerp, addcmul, addcdiv).

var (
	half     = fc(0.5)
	infinity = f32Hex(0x7F800000)
)

// cmpTypes are the input types of comparisons and logical ops: int64 is
// compared after widening to f32 (exact up to 2^24).
var cmpTypes = []DType{F32, F16, BF16, I64, B8}

// clampTypes are clamp's input types: the float types (opmath f32) and
// int64/int32 (in int64, intOpsBody; the small integers have theirs in
// map_small).
var clampTypes = []DType{F32, F16, BF16, I64, I32}

// selTypes are the data types of where and masked_fill (int64 is left out:
// its values would pass through f32).
var selTypes = []DType{F32, F16, BF16, B8}

// boolOut sets %y to 1 where %pq1 holds, 0 elsewhere.
const boolOut = "selp.f32 \t%y, " + "0f3F800000" + ", " + "0f00000000" + ", %pq1;"

func cmpOp(op, doc, setp string) MapOpInfo {
	return MapOpInfo{Op: MapOp(op), Ins: 2, Doc: doc, Out: B8, Types: cmpTypes,
		body: []string{setp + " \t%pq1, %x0, %x1;", boolOut}}
}

func cmpScalarOp(op, doc, setp string) MapOpInfo {
	return MapOpInfo{Op: MapOp(op + "_scalar"), Ins: 1, Doc: doc + " (b = s0)", Out: B8, Types: cmpTypes,
		body: []string{setp + " \t%pq1, %x0, %s0;", boolOut}}
}

func logicalOp(op, doc, combine string) MapOpInfo {
	return MapOpInfo{Op: MapOp(op), Ins: 2, Doc: doc, Out: B8, Types: cmpTypes, body: []string{
		"setp.neu.f32 \t%pq1, %x0, " + zero + ";",
		"setp.neu.f32 \t%pq2, %x1, " + zero + ";",
		combine + " \t%pq1, %pq1, %pq2;",
		boolOut,
	}}
}

var pointwiseMapOps = []MapOpInfo{
	{Op: "silu", Ins: 1, Doc: "out = x / (1 + exp(-x))", body: []string{
		"mul.f32 \t%t0, %x0, " + minusLog2e + ";",
		"ex2.approx.ftz.f32 \t%t1, %t0;",
		"add.f32 \t%t2, %t1, " + one + ";",
		"div.rn.f32 \t%y, %x0, %t2;",
	}},
	{Op: "silu_backward", Ins: 2, Doc: "s = sigmoid(b); out = a * s * (1 + b*(1 - s)) (a grad, b input)", body: []string{
		"mul.f32 \t%t0, %x1, " + minusLog2e + ";",
		"ex2.approx.ftz.f32 \t%t1, %t0;",
		"add.f32 \t%t2, %t1, " + one + ";",
		"rcp.rn.f32 \t%t3, %t2;",
		"sub.rn.f32 \t%t4, " + one + ", %t3;",
		"fma.rn.f32 \t%t4, %x1, %t4, " + one + ";",
		"mul.rn.f32 \t%t5, %x0, %t3;",
		"mul.rn.f32 \t%y, %t5, %t4;",
	}},
	{Op: "clamp", Ins: 1, Doc: "out = isnan(x) ? x : min(max(x, s0), s1)", Types: clampTypes, body: []string{
		"max.f32 \t%t0, %x0, %s0;",
		"min.f32 \t%t0, %t0, %s1;",
		"setp.nan.f32 \t%pq1, %x0, %x0;",
		"selp.f32 \t%y, %x0, %t0, %pq1;",
	}},
	{Op: "clamp_backward", Ins: 2, Doc: "out = s0 <= b && b <= s1 ? a : 0 (a grad, b input)", body: []string{
		"setp.ge.f32 \t%pq1, %x1, %s0;",
		"setp.le.f32 \t%pq2, %x1, %s1;",
		"and.pred \t%pq1, %pq1, %pq2;",
		"selp.f32 \t%y, %x0, " + zero + ", %pq1;",
	}},
	{Op: "minimum", Ins: 2, Doc: "out = min(a, b) (NaN if either is)", body: []string{
		"min.f32 \t%t0, %x0, %x1;",
		"add.f32 \t%t1, %x0, %x1;",
		"setp.nan.f32 \t%pq1, %x0, %x1;",
		"selp.f32 \t%y, %t1, %t0, %pq1;",
	}},
	{Op: "lerp", Ins: 2, Doc: "d = b - a; out = |s0| < 0.5 ? a + s0*d : b - d*(1 - s0)", body: []string{
		"sub.rn.f32 \t%t0, %x1, %x0;",
		"abs.f32 \t%t1, %s0;",
		"setp.lt.f32 \t%pq1, %t1, " + half + ";",
		"fma.rn.f32 \t%t2, %s0, %t0, %x0;",
		"sub.rn.f32 \t%t3, " + one + ", %s0;",
		"neg.f32 \t%t4, %t0;",
		"fma.rn.f32 \t%t5, %t4, %t3, %x1;",
		"selp.f32 \t%y, %t2, %t5, %pq1;",
	}},
	{Op: "lerp_tensor", Ins: 3, Doc: "d = b - a; out = |c| < 0.5 ? a + c*d : b - d*(1 - c)", body: []string{
		"sub.rn.f32 \t%t0, %x1, %x0;",
		"abs.f32 \t%t1, %x2;",
		"setp.lt.f32 \t%pq1, %t1, " + half + ";",
		"fma.rn.f32 \t%t2, %x2, %t0, %x0;",
		"sub.rn.f32 \t%t3, " + one + ", %x2;",
		"neg.f32 \t%t4, %t0;",
		"fma.rn.f32 \t%t5, %t4, %t3, %x1;",
		"selp.f32 \t%y, %t2, %t5, %pq1;",
	}},
	{Op: "addcmul", Ins: 3, Doc: "out = a + s0*(b*c)", body: []string{
		"mul.rn.f32 \t%t0, %x1, %x2;",
		"fma.rn.f32 \t%y, %s0, %t0, %x0;",
	}},
	{Op: "addcdiv", Ins: 3, Doc: "out = a + s0*(b/c)", body: []string{
		"div.rn.f32 \t%t0, %x1, %x2;",
		"fma.rn.f32 \t%y, %s0, %t0, %x0;",
	}},
	cmpOp("eq", "out = a == b", "setp.eq.f32"),
	cmpOp("ne", "out = a != b (true for NaN)", "setp.neu.f32"),
	cmpOp("lt", "out = a < b", "setp.lt.f32"),
	cmpOp("le", "out = a <= b", "setp.le.f32"),
	cmpOp("gt", "out = a > b", "setp.gt.f32"),
	cmpOp("ge", "out = a >= b", "setp.ge.f32"),
	cmpScalarOp("eq", "out = a == b", "setp.eq.f32"),
	cmpScalarOp("ne", "out = a != b (true for NaN)", "setp.neu.f32"),
	cmpScalarOp("lt", "out = a < b", "setp.lt.f32"),
	cmpScalarOp("le", "out = a <= b", "setp.le.f32"),
	cmpScalarOp("gt", "out = a > b", "setp.gt.f32"),
	cmpScalarOp("ge", "out = a >= b", "setp.ge.f32"),
	logicalOp("logical_and", "out = a != 0 && b != 0", "and.pred"),
	logicalOp("logical_or", "out = a != 0 || b != 0", "or.pred"),
	logicalOp("logical_xor", "out = (a != 0) != (b != 0)", "xor.pred"),
	{Op: "logical_not", Ins: 1, Doc: "out = x == 0", Out: B8, Types: cmpTypes, body: []string{
		"setp.eq.f32 \t%pq1, %x0, " + zero + ";", boolOut,
	}},
	{Op: "isnan", Ins: 1, Doc: "out = x != x", Out: B8, body: []string{
		"setp.nan.f32 \t%pq1, %x0, %x0;", boolOut,
	}},
	{Op: "isinf", Ins: 1, Doc: "out = |x| == inf", Out: B8, body: []string{
		"abs.f32 \t%t0, %x0;", "setp.eq.f32 \t%pq1, %t0, " + infinity + ";", boolOut,
	}},
	{Op: "isfinite", Ins: 1, Doc: "out = |x| < inf (false for NaN)", Out: B8, body: []string{
		"abs.f32 \t%t0, %x0;", "setp.lt.f32 \t%pq1, %t0, " + infinity + ";", boolOut,
	}},
	{Op: "where", Ins: 3, Doc: "out = a ? b : c (a bool)", Fixed: map[int]DType{0: B8}, Types: selTypes, body: []string{
		"setp.neu.f32 \t%pq1, %x0, " + zero + ";",
		"selp.f32 \t%y, %x1, %x2, %pq1;",
	}},
	{Op: "masked_fill", Ins: 2, Doc: "out = b ? s0 : a (b bool)", Fixed: map[int]DType{1: B8}, Types: selTypes, body: []string{
		"setp.neu.f32 \t%pq1, %x1, " + zero + ";",
		"selp.f32 \t%y, %s0, %x0, %pq1;",
	}},
	{Op: "masked_keep", Ins: 2, Doc: "out = b ? a : s0 (b bool): where(cond, grad, 0)", Fixed: map[int]DType{1: B8}, Types: selTypes, body: []string{
		"setp.neu.f32 \t%pq1, %x1, " + zero + ";",
		"selp.f32 \t%y, %x0, %s0, %pq1;",
	}},
}

// Supports reports whether the op has a kernel for inputs of type t.
func (o MapOpInfo) Supports(t DType) bool {
	if SmallInt(t) {
		return smallIntOp(o.Op)
	}
	switch o.Op {
	case "copy":
		for _, c := range CopyDTypes {
			if c == t {
				return true
			}
		}
		return false
	case "fill":
		if t == I64 || t == B8 || t == F64 || t == I32 {
			return true
		}
	}
	for _, c := range o.types() {
		if c == t {
			return true
		}
	}
	return false
}
