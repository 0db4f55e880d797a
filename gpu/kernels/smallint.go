package kernels

import "fmt"

// The small integer types: torch.uint8, torch.int8 and torch.int16. Their
// kernels (modules map_small_cast and map_small) are the map kernels that PyTorch's integer
// tensors need: fill, the copies to and from every other type, and the
// integer operators of intOpsBody (+ − × with alpha, neg, abs, affine, the
// comparisons, the division family), computed in 64-bit integers
// (MapOpmathInt) and stored as the low 8 or 16 bits, as PyTorch's int8
// arithmetic wraps.
//
// Conversions from floating types follow c10's static_cast_with_inter_type
// (c10/util/TypeCast.h) as nvcc compiles it: to uint8 through int64
// (cvt.rzi.s64, then the low byte: −1.5 → 255, 300.7 → 44); to int8 and
// int16 a C cast, which nvcc lowers through int32 (cvt.rzi.s32, NaN → 0,
// saturating at the int32 range), then the low 8 or 16 bits: 40000.0 →
// int16 −25536, int8 64, as PyTorch 2.11 gives on an H200 (ints3.py).
const (
	U8  DType = "u8"  // torch.uint8
	I8  DType = "i8"  // torch.int8
	I16 DType = "i16" // torch.int16
)

// SmallInts lists the small integer types, in the order their kernels are
// generated.
var SmallInts = []DType{U8, I8, I16}

// SmallInt reports torch.uint8, torch.int8 or torch.int16.
func SmallInt(t DType) bool { return t == U8 || t == I8 || t == I16 }

// smallIntOp reports whether op has kernels for the small integer types:
// fill, copy and the integer operators.
func smallIntOp(op MapOp) bool {
	_, ok := intOpsBody[op]
	return ok
}

// smallModules are the modules of the small integer types: map_small_cast
// (fill and the copies from and to every type of CopyDTypes and SmallInts,
// with their 64-bit-index variants, as MapHas64) and map_small (the
// integer operators), so that a script that only converts uint8 images to
// float loads the first.
func smallModules() []moduleSpec {
	cast := moduleSpec{name: "map_small_cast"}
	ops := moduleSpec{name: "map_small"}
	all := append(append([]DType(nil), CopyDTypes...), SmallInts...)
	for _, op := range MapOps {
		switch {
		case !smallIntOp(op.Op):
		case op.Op == "copy":
			for _, from := range all {
				for _, to := range all {
					if SmallInt(from) || SmallInt(to) {
						cast.kernels = append(cast.kernels, mapKernel{op: op, in: from, out: to})
					}
				}
			}
		case op.Op == "fill":
			for _, t := range SmallInts {
				cast.kernels = append(cast.kernels, mapKernel{op: op, in: t, out: t})
			}
		default:
			info := op
			body := intOpsBody[op.Op]
			info.bodyFor = func(DType) []string { return body }
			for _, t := range SmallInts {
				ops.kernels = append(ops.kernels, mapKernel{op: info, in: t, out: info.OutType(t)})
			}
		}
	}
	for _, k := range cast.kernels[:len(cast.kernels):len(cast.kernels)] {
		w := k.(mapKernel)
		w.wide = true
		cast.kernels = append(cast.kernels, w)
	}
	return []moduleSpec{cast, ops}
}

// smallLoad is loadF32 for the small integers: the element sign- or
// zero-extended into %r9, converted exactly to f32.
func (t DType) smallLoad(dst, addr, pred string) string {
	guard := ""
	pre := ""
	if pred != "" {
		guard = "@" + pred + " "
		pre = "\tmov.b32 \t%r9, 0;\n"
	}
	return pre + fmt.Sprintf("\t%sld.global.%s \t%%r9, [%s];\n\tcvt.rn.f32.s32 \t%s, %%r9;\n", guard, t.memType(), addr, dst)
}

// memType is the PTX type of a small integer in memory (loads extend it).
func (t DType) memType() string {
	switch t {
	case U8:
		return "u8"
	case I8:
		return "s8"
	}
	return "s16"
}

// smallStore is storeF32 (src an f32 register, f = "f32") or storeF64 (an
// f64 register, f = "f64") for the small integers: uint8 through int64,
// int8 and int16 through int32, as nvcc compiles PyTorch's casts.
func (t DType) smallStore(addr, src, f string) string {
	switch t {
	case U8:
		return fmt.Sprintf("\tcvt.rzi.s64.%s \t%%q9, %s;\n\tcvt.u32.u64 \t%%r9, %%q9;\n\tst.global.u8 \t[%s], %%r9;\n", f, src, addr)
	case I8:
		return fmt.Sprintf("\tcvt.rzi.s32.%s \t%%r9, %s;\n\tst.global.u8 \t[%s], %%r9;\n", f, src, addr)
	}
	return fmt.Sprintf("\tcvt.rzi.s32.%s \t%%r9, %s;\n\tcvt.u16.u32 \t%%h9, %%r9;\n\tst.global.b16 \t[%s], %%h9;\n", f, src, addr)
}

// smallLoadS64 is loadS64 for the small integers (sign- or zero-extended).
func (t DType) smallLoadS64(dst, addr string) string {
	return fmt.Sprintf("\tld.global.%s \t%%r9, [%s];\n\tcvt.s64.s32 \t%s, %%r9;\n", t.memType(), addr, dst)
}

// smallStoreS64 is storeS64 for the small integers: the low 8 or 16 bits.
func (t DType) smallStoreS64(addr, src string) string {
	if t == I16 {
		return fmt.Sprintf("\tcvt.u16.u64 \t%%h9, %s;\n\tst.global.b16 \t[%s], %%h9;\n", src, addr)
	}
	return fmt.Sprintf("\tcvt.u32.u64 \t%%r9, %s;\n\tst.global.u8 \t[%s], %%r9;\n", src, addr)
}
