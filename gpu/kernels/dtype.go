package kernels

import (
	"fmt"
	"strings"
)

// DType is an element type the kernels read and write. Arithmetic always
// happens in f32 (PyTorch's "opmath" type for the half types): a kernel
// loads an element, widens it to f32, computes, and narrows the result.
type DType string

// Element types with kernels.
const (
	F32  DType = "f32"  // torch.float32
	F16  DType = "f16"  // torch.float16 (IEEE binary16)
	BF16 DType = "bf16" // torch.bfloat16
	// I64 is torch.int64: indices, targets, arange and randint. Only the
	// strided copy, arange, randint and the loss kernels take it; it is not
	// in DTypes. Loaded into f32 it is exact up to 2^24.
	I64 DType = "i64"
	// B8 is torch.bool: one byte, 0 or 1. Loaded it widens to 0 or 1 in
	// f32; stored, any non-zero value (NaN included) becomes 1, as
	// PyTorch's conversion to bool. Comparisons write it, where and
	// masked_fill read it (mapops_pointwise.go); it is not in DTypes.
	B8 DType = "b8"
	// F64 is torch.float64 and I32 torch.int32 (GradScaler's inverse scale
	// is computed in float64, its growth tracker is int32). Like I64 they
	// are not in DTypes: the copies, fill and the arithmetic ops (ArithTypes)
	// take them. float64 kernels of MapOpmath64 compute in f64 (loadF64,
	// storeF64); int32 is loaded into f32 (exact to 2^24).
	F64 DType = "f64"
	I32 DType = "i32"
)

// DTypes lists every element type, in the order kernels are generated.
var DTypes = []DType{F32, F16, BF16}

// Size returns the bytes of one element.
func (t DType) Size() int64 {
	switch t {
	case F32, I32:
		return 4
	case I64, F64:
		return 8
	case B8, U8, I8:
		return 1
	}
	return 2
}

// shift is log2 of the element size: index << shift is the byte offset.
func (t DType) shift() int {
	switch t {
	case F32, I32:
		return 2
	case I64, F64:
		return 3
	case B8, U8, I8:
		return 0
	}
	return 1
}

// loadF32 returns PTX that loads the element at address register addr into
// the f32 register dst. Scratch registers: %h9 (b16) and %r9 (b32). If pred
// is not empty the load happens only when the predicate holds and dst is 0
// otherwise.
func (t DType) loadF32(dst, addr, pred string) string {
	if SmallInt(t) {
		return t.smallLoad(dst, addr, pred)
	}
	guard := ""
	if pred != "" {
		guard = "@" + pred + " "
	}
	var b strings.Builder
	switch t {
	case F32:
		if pred != "" {
			fmt.Fprintf(&b, "\tmov.f32 \t%s, 0f00000000;\n", dst)
		}
		fmt.Fprintf(&b, "\t%sld.global.f32 \t%s, [%s];\n", guard, dst, addr)
	case F16:
		if pred != "" {
			b.WriteString("\tmov.b16 \t%h9, 0;\n")
		}
		fmt.Fprintf(&b, "\t%sld.global.b16 \t%%h9, [%s];\n", guard, addr)
		fmt.Fprintf(&b, "\tcvt.f32.f16 \t%s, %%h9;\n", dst)
	case I64:
		// %q9 is declared by the kernels that take I64 (scratchRegs64).
		if pred != "" {
			b.WriteString("\tmov.b64 \t%q9, 0;\n")
		}
		fmt.Fprintf(&b, "\t%sld.global.s64 \t%%q9, [%s];\n", guard, addr)
		fmt.Fprintf(&b, "\tcvt.rn.f32.s64 \t%s, %%q9;\n", dst)
	case F64:
		if pred != "" {
			b.WriteString("\tmov.b64 \t%q9, 0;\n")
		}
		fmt.Fprintf(&b, "\t%sld.global.b64 \t%%q9, [%s];\n", guard, addr)
		b.WriteString("\tmov.b64 \t%fd9, %q9;\n")
		fmt.Fprintf(&b, "\tcvt.rn.f32.f64 \t%s, %%fd9;\n", dst)
	case I32:
		if pred != "" {
			b.WriteString("\tmov.b32 \t%r9, 0;\n")
		}
		fmt.Fprintf(&b, "\t%sld.global.s32 \t%%r9, [%s];\n", guard, addr)
		fmt.Fprintf(&b, "\tcvt.rn.f32.s32 \t%s, %%r9;\n", dst)
	case B8:
		if pred != "" {
			b.WriteString("\tmov.b32 \t%r9, 0;\n")
		}
		fmt.Fprintf(&b, "\t%sld.global.u8 \t%%r9, [%s];\n", guard, addr)
		fmt.Fprintf(&b, "\tcvt.rn.f32.u32 \t%s, %%r9;\n", dst)
	case BF16:
		if pred != "" {
			b.WriteString("\tmov.b16 \t%h9, 0;\n")
		}
		fmt.Fprintf(&b, "\t%sld.global.b16 \t%%h9, [%s];\n", guard, addr)
		b.WriteString("\tcvt.u32.u16 \t%r9, %h9;\n")
		b.WriteString("\tshl.b32 \t%r9, %r9, 16;\n")
		fmt.Fprintf(&b, "\tmov.b32 \t%s, %%r9;\n", dst)
	}
	return b.String()
}

// storeF32 returns PTX that narrows the f32 register src to the element type
// and stores it at address register addr. Scratch registers: %h9, %r8,
// %r9 and %p9. bf16 rounds to nearest even and keeps NaNs quiet, as
// PyTorch's conversion does.
func (t DType) storeF32(addr, src string) string {
	if SmallInt(t) {
		return t.smallStore(addr, src, "f32")
	}
	var b strings.Builder
	switch t {
	case F32:
		fmt.Fprintf(&b, "\tst.global.f32 \t[%s], %s;\n", addr, src)
	case I64:
		// Truncation toward zero, as a C cast and PyTorch's float→int copy.
		fmt.Fprintf(&b, "\tcvt.rzi.s64.f32 \t%%q9, %s;\n", src)
		fmt.Fprintf(&b, "\tst.global.s64 \t[%s], %%q9;\n", addr)
	case F64:
		fmt.Fprintf(&b, "\tcvt.f64.f32 \t%%fd9, %s;\n", src)
		fmt.Fprintf(&b, "\tst.global.f64 \t[%s], %%fd9;\n", addr)
	case I32:
		fmt.Fprintf(&b, "\tcvt.rzi.s32.f32 \t%%r9, %s;\n", src)
		fmt.Fprintf(&b, "\tst.global.s32 \t[%s], %%r9;\n", addr)
	case B8:
		// setp.neu is true for NaN: bool(nan) is True.
		fmt.Fprintf(&b, "\tsetp.neu.f32 \t%%p9, %s, 0f00000000;\n", src)
		b.WriteString("\tselp.u32 \t%r9, 1, 0, %p9;\n")
		fmt.Fprintf(&b, "\tst.global.u8 \t[%s], %%r9;\n", addr)
	case F16:
		fmt.Fprintf(&b, "\tcvt.rn.f16.f32 \t%%h9, %s;\n", src)
		fmt.Fprintf(&b, "\tst.global.b16 \t[%s], %%h9;\n", addr)
	case BF16:
		fmt.Fprintf(&b, "\tmov.b32 \t%%r8, %s;\n", src)
		b.WriteString("\tshr.u32 \t%r9, %r8, 16;\n")
		b.WriteString("\tand.b32 \t%r9, %r9, 1;\n")
		b.WriteString("\tadd.u32 \t%r9, %r9, 32767;\n")
		b.WriteString("\tadd.u32 \t%r9, %r8, %r9;\n")
		b.WriteString("\tshr.u32 \t%r9, %r9, 16;\n")
		fmt.Fprintf(&b, "\tsetp.nan.f32 \t%%p9, %s, %s;\n", src, src)
		b.WriteString("\t@%p9 shr.u32 \t%r9, %r8, 16;\n")
		b.WriteString("\t@%p9 or.b32 \t%r9, %r9, 64;\n")
		b.WriteString("\tcvt.u16.u32 \t%h9, %r9;\n")
		fmt.Fprintf(&b, "\tst.global.b16 \t[%s], %%h9;\n", addr)
	}
	return b.String()
}

// scratchRegs declares the registers loadF32 and storeF32 use.
const scratchRegs = "\t.reg .b16 \t%h<10>;\n\t.reg .b32 \t%r<10>;\n\t.reg .pred \t%p<10>;\n"

// scratchRegs64 declares %q9, the scratch register of I64 loads and stores.
const scratchRegs64 = "\t.reg .b64 \t%q<10>;\n"

// scratchRegsF64 declares %fd9, the scratch register of F64 loads and
// stores (the map kernels, the only ones that take F64).
const scratchRegsF64 = "\t.reg .f64 \t%fd<10>;\n"

// loadF64 returns PTX that loads the element at address register addr into
// the f64 register dst (the map kernels of MapOpmath64). float64 loads
// directly; integers convert exactly up to 2^53; the other floats widen
// through f32 (exact). Scratch registers as loadF32's, plus %f9 (f32).
func (t DType) loadF64(dst, addr string) string {
	switch t {
	case F64:
		return fmt.Sprintf("\tld.global.f64 \t%s, [%s];\n", dst, addr)
	case I64:
		return fmt.Sprintf("\tld.global.s64 \t%%q9, [%s];\n\tcvt.rn.f64.s64 \t%s, %%q9;\n", addr, dst)
	case I32:
		return fmt.Sprintf("\tld.global.s32 \t%%r9, [%s];\n\tcvt.rn.f64.s32 \t%s, %%r9;\n", addr, dst)
	}
	return t.loadF32("%f9", addr, "") + fmt.Sprintf("\tcvt.f64.f32 \t%s, %%f9;\n", dst)
}

// storeF64 returns PTX that narrows the f64 register src to the element
// type and stores it at address register addr: integers truncate toward
// zero from the double (PyTorch's double→int cast), bool is src ≠ 0 (NaN
// included), the other floats round to f32 first (c10's Half/BFloat16
// conversions from double go through float too).
func (t DType) storeF64(addr, src string) string {
	if SmallInt(t) {
		return t.smallStore(addr, src, "f64")
	}
	switch t {
	case F64:
		return fmt.Sprintf("\tst.global.f64 \t[%s], %s;\n", addr, src)
	case I64:
		return fmt.Sprintf("\tcvt.rzi.s64.f64 \t%%q9, %s;\n\tst.global.s64 \t[%s], %%q9;\n", src, addr)
	case I32:
		return fmt.Sprintf("\tcvt.rzi.s32.f64 \t%%r9, %s;\n\tst.global.s32 \t[%s], %%r9;\n", src, addr)
	case B8:
		return fmt.Sprintf("\tsetp.neu.f64 \t%%p9, %s, 0d0000000000000000;\n\tselp.u32 \t%%r9, 1, 0, %%p9;\n\tst.global.u8 \t[%s], %%r9;\n", src, addr)
	}
	return fmt.Sprintf("\tcvt.rn.f32.f64 \t%%f9, %s;\n", src) + t.storeF32(addr, "%f9")
}
