package kernels

import (
	"fmt"
	"math"
)

// intOpsBody are the map operators whose integer kernels compute in
// 64-bit integer arithmetic (PyTorch computes integer tensors in their own
// type, exactly, wrapping on overflow), with their s64 bodies: the same
// registers as the float bodies (%x inputs, %s scalars, %t temporaries,
// %y the result), declared .s64.
var intOpsBody = map[MapOp][]string{
	"fill":   {"mov.b64 \t%y, %s0;"},
	"copy":   {"mov.b64 \t%y, %x0;"},
	"neg":    {"neg.s64 \t%y, %x0;"},
	"abs":    {"abs.s64 \t%y, %x0;"},
	"add":    {"mad.lo.s64 \t%y, %x1, %s0, %x0;"},
	"sub":    {"mul.lo.s64 \t%t0, %x1, %s0;", "sub.s64 \t%y, %x0, %t0;"},
	"mul":    {"mul.lo.s64 \t%y, %x0, %x1;"},
	"affine": {"mad.lo.s64 \t%y, %x0, %s0, %s1;"},
}

// The selections of the small integer types (module map_small): where
// (a bool condition), masked_fill (a bool mask, the number s0) and
// maximum/minimum, on the s64 values (no NaN to propagate). The bool
// operand is loaded as 0 or 1 (loadS64 of B8).
func init() {
	intOpsBody["where"] = []string{"setp.ne.s64 \t%p0, %x0, 0;", "selp.s64 \t%y, %x1, %x2, %p0;"}
	intOpsBody["masked_fill"] = []string{"setp.ne.s64 \t%p0, %x1, 0;", "selp.s64 \t%y, %s0, %x0, %p0;"}
	intOpsBody["maximum"] = []string{"max.s64 \t%y, %x0, %x1;"}
	intOpsBody["minimum"] = []string{"min.s64 \t%y, %x0, %x1;"}
	// clamp of an integer tensor by integer bounds (ClampDType keeps the
	// type): min(max(x, s0), s1) in int64; the launchers pass an infinite
	// bound as the int64 extreme (IntScalar).
	intOpsBody["clamp"] = []string{"max.s64 \t%t0, %x0, %s0;", "min.s64 \t%y, %t0, %s1;"}
}

// IntScalar is a scalar of an integer map kernel as its int64 parameter:
// the integer itself, saturated at the int64 range (±inf: the extremes,
// NaN: 0) so that clamp's missing bounds bound nothing.
func IntScalar(v float64) int64 {
	switch {
	case v != v:
		return 0
	case v >= 0x1p63:
		return math.MaxInt64
	case v <= -0x1p63:
		return math.MinInt64
	}
	return int64(v)
}

// The comparisons of integers compare the s64 values (float32 would merge
// neighbours beyond 2^24); %y is 1 or 0, stored as bool.
func init() {
	for _, c := range []string{"eq", "ne", "lt", "le", "gt", "ge"} {
		intOpsBody[MapOp(c)] = []string{"setp." + c + ".s64 \t%p0, %x0, %x1;", "selp.s64 \t%y, 1, 0, %p0;"}
		intOpsBody[MapOp(c+"_scalar")] = []string{"setp." + c + ".s64 \t%p0, %x0, %s0;", "selp.s64 \t%y, 1, 0, %p0;"}
	}
}

// MapOpmathInt reports whether the map kernel of op from in to out computes
// in 64-bit integers: in int64 or int32, out int64, int32 or (the
// comparisons) bool, and an operator of intOpsBody, except the same-type copy (a bit copy). Its scalars s0/s1
// are int64 (.u64 parameters holding the two's complement bits); int32
// results keep the low 32 bits, as PyTorch's int32 arithmetic wraps.
func MapOpmathInt(op MapOp, in, out DType) bool {
	if op == "copy" && in == out {
		return false
	}
	_, ok := intOpsBody[op]
	return ok && isInt(in) && (isInt(out) || out == B8)
}

func isInt(t DType) bool { return t == I64 || t == I32 || SmallInt(t) }

// loadS64 returns PTX that loads the int64 or int32 element at address
// register addr into the s64 register dst (int32 sign-extended, bool 0
// or 1).
func (t DType) loadS64(dst, addr string) string {
	if SmallInt(t) {
		return t.smallLoadS64(dst, addr)
	}
	if t == B8 {
		return fmt.Sprintf("\tld.global.u8 \t%%r9, [%s];\n\tcvt.u64.u32 \t%s, %%r9;\n", addr, dst)
	}
	if t == I32 {
		return fmt.Sprintf("\tld.global.s32 \t%%r9, [%s];\n\tcvt.s64.s32 \t%s, %%r9;\n", addr, dst)
	}
	return fmt.Sprintf("\tld.global.s64 \t%s, [%s];\n", dst, addr)
}

// storeS64 returns PTX that stores the s64 register src at address
// register addr as int64, as int32 (the low 32 bits) or as bool (≠ 0).
func (t DType) storeS64(addr, src string) string {
	if SmallInt(t) {
		return t.smallStoreS64(addr, src)
	}
	switch t {
	case I32:
		return fmt.Sprintf("\tcvt.u32.u64 \t%%r9, %s;\n\tst.global.b32 \t[%s], %%r9;\n", src, addr)
	case B8:
		return fmt.Sprintf("\tsetp.ne.s64 \t%%p9, %s, 0;\n\tselp.u32 \t%%r9, 1, 0, %%p9;\n\tst.global.u8 \t[%s], %%r9;\n", src, addr)
	}
	return fmt.Sprintf("\tst.global.s64 \t[%s], %s;\n", addr, src)
}

// intMoreOps are the operators given integer kernels in session 12
// (gpu-ints-2): int64 and int32 entries (the small integers get theirs in
// map_small, as every operator of intOpsBody), computed in s64 as PyTorch
// computes integer tensors in their type: relu (max with 0), sign, square
// and pow by an integer exponent (wrapping products), isnan/isinf (False)
// and isfinite (True), the logical ops (≠ 0), where/masked_fill/
// masked_keep (the selections of tril/triu) and the comparisons (int32:
// int64 has them already).
var intMoreOps = map[MapOp]bool{
	"relu": true, "sign": true, "square": true, "pow": true,
	"isnan": true, "isinf": true, "isfinite": true,
	"logical_not": true, "logical_and": true, "logical_or": true, "logical_xor": true,
	"where": true, "masked_fill": true, "masked_keep": true,
	"eq": true, "ne": true, "lt": true, "le": true, "gt": true, "ge": true,
	"eq_scalar": true, "ne_scalar": true, "lt_scalar": true, "le_scalar": true, "gt_scalar": true, "ge_scalar": true,
}

// powIntBody is x^s0 for an integer exponent as c10's powi: binary
// exponentiation in s64 (its products wrap as the type's, whatever their
// order); a negative exponent gives 1 for x = 1, ±1 for x = −1 (by the
// exponent's parity) and 0 for any other x.
var powIntBody = []string{
	"setp.lt.s64 \t%p0, %s0, 0;",
	"@%p0 bra \t$K_pneg;",
	"mov.b64 \t%y, 1;",
	"mov.b64 \t%t0, %x0;",
	"mov.b64 \t%t1, %s0;",
	"$K_ploop:",
	"setp.eq.s64 \t%p1, %t1, 0;",
	"@%p1 bra \t$K_pdone;",
	"and.b64 \t%t2, %t1, 1;",
	"setp.ne.s64 \t%p2, %t2, 0;",
	"@%p2 mul.lo.s64 \t%y, %y, %t0;",
	"mul.lo.s64 \t%t0, %t0, %t0;",
	"shr.u64 \t%t1, %t1, 1;",
	"bra.uni \t$K_ploop;",
	"$K_pneg:",
	"and.b64 \t%t2, %s0, 1;",
	"setp.ne.s64 \t%p2, %t2, 0;",
	"selp.s64 \t%t3, -1, 1, %p2;",
	"setp.eq.s64 \t%p1, %x0, -1;",
	"selp.s64 \t%y, %t3, 0, %p1;",
	"setp.eq.s64 \t%p1, %x0, 1;",
	"@%p1 mov.b64 \t%y, 1;",
	"$K_pdone:",
}

func init() {
	intOpsBody["relu"] = []string{"max.s64 \t%y, %x0, 0;"}
	intOpsBody["sign"] = []string{
		"setp.gt.s64 \t%p0, %x0, 0;", "selp.s64 \t%t0, 1, 0, %p0;",
		"setp.lt.s64 \t%p1, %x0, 0;", "selp.s64 \t%t1, 1, 0, %p1;",
		"sub.s64 \t%y, %t0, %t1;",
	}
	intOpsBody["square"] = []string{"mul.lo.s64 \t%y, %x0, %x0;"}
	intOpsBody["pow"] = powIntBody
	intOpsBody["isnan"] = []string{"mov.b64 \t%y, 0;"}
	intOpsBody["isinf"] = []string{"mov.b64 \t%y, 0;"}
	intOpsBody["isfinite"] = []string{"mov.b64 \t%y, 1;"}
	intOpsBody["logical_not"] = []string{"setp.eq.s64 \t%p0, %x0, 0;", "selp.s64 \t%y, 1, 0, %p0;"}
	for op, combine := range map[MapOp]string{"logical_and": "and", "logical_or": "or", "logical_xor": "xor"} {
		intOpsBody[op] = []string{
			"setp.ne.s64 \t%p0, %x0, 0;", "setp.ne.s64 \t%p1, %x1, 0;",
			combine + ".pred \t%p0, %p0, %p1;", "selp.s64 \t%y, 1, 0, %p0;",
		}
	}
	intOpsBody["masked_keep"] = []string{"setp.ne.s64 \t%p0, %x1, 0;", "selp.s64 \t%y, %x0, %s0, %p0;"}
	// ~x: the store keeps the type's bits (uint8 255 − x, two's complement
	// −x − 1 for the signed types)
	intOpsBody["bitwise_not"] = []string{"not.b64 \t%y, %x0;"}
	MapOps = append(MapOps, MapOpInfo{Op: "bitwise_not", Ins: 1, Doc: "out = ~x (integer types only)", Types: []DType{I64, I32}})
	for i, o := range MapOps {
		if !intMoreOps[o.Op] {
			continue
		}
		ts := append([]DType(nil), o.types()...)
		for _, t := range []DType{I64, I32} {
			if !hasType(ts, t) {
				ts = append(ts, t)
			}
		}
		MapOps[i].Types = ts
		if old := o.bodyFor; old != nil { // the float64 bodies: integers keep theirs
			body := intOpsBody[o.Op]
			MapOps[i].bodyFor = func(in DType) []string {
				if isInt(in) {
					return body
				}
				return old(in)
			}
		}
	}
}
