package kernels

import (
	"fmt"
	"strings"
)

// IndexMode selects an index_<mode>_<t> kernel: the data movement of
// embedding, index_select, t[idx] and gather (IndexGather) and of their
// backwards and index_put (IndexScatter, IndexScatterAdd).
type IndexMode string

// Index kernels. Every one walks a shape of MaxRank dimensions with a
// strided dst, src and int64 idx operand; v = idx(c) is the index of
// element c (negative v counts from dimSize; v == skip, or v still out of
// [0, dimSize), moves nothing).
const (
	// IndexGather: dst(c) = src(c + v·dimStride).
	IndexGather IndexMode = "gather"
	// IndexScatter: dst(c + v·dimStride) = src(c).
	IndexScatter IndexMode = "scatter"
	// IndexScatterAdd: dst(c + v·dimStride) += src(c), atomically
	// (ScatterAddDTypes: f32, f64, and i64/i32 with two's-complement
	// wrap-around; callers accumulate half types in an f32 buffer, as
	// PyTorch's embedding backward does, and the narrow integers in i64).
	IndexScatterAdd IndexMode = "scatter_add"
)

// IndexKernelName is the entry of mode over elements of type t.
func IndexKernelName(mode IndexMode, t DType) string { return fmt.Sprintf("index_%s_%s", mode, t) }

// indexKernel is a grid-stride loop like mapKernel's with three operands
// (dst, src, idx) and the indexed dimension's stride added to dst's
// (scatter) or src's (gather) offset.
type indexKernel struct {
	mode IndexMode
	t    DType
}

var indexOperands = []string{"dst", "src", "idx"}

func (k indexKernel) entry() Entry {
	docs := map[IndexMode]string{
		IndexGather:     "dst(c) = src(c + idx(c)*dimStride), idx(c) != skip, negative idx + dimSize",
		IndexScatter:    "dst(c + idx(c)*dimStride) = src(c), idx(c) != skip, negative idx + dimSize",
		IndexScatterAdd: "atomic dst(c + idx(c)*dimStride) += src(c), idx(c) != skip, negative idx + dimSize",
	}
	e := Entry{Name: IndexKernelName(k.mode, k.t), Doc: docs[k.mode]}
	for _, p := range indexOperands {
		e.Params = append(e.Params, Param{p, Ptr})
	}
	e.Params = append(e.Params, Param{"n", U64})
	for d := 0; d < MaxRank; d++ {
		e.Params = append(e.Params, Param{fmt.Sprintf("d%d", d), U64})
	}
	for _, p := range indexOperands {
		for d := 0; d < MaxRank; d++ {
			e.Params = append(e.Params, Param{fmt.Sprintf("s%s%d", p, d), U64})
		}
	}
	e.Params = append(e.Params, Param{"dimStride", U64}, Param{"dimSize", U64}, Param{"skip", U64})
	return e
}

func (k indexKernel) body() string {
	e := k.entry()
	name := e.Name
	var b strings.Builder
	b.WriteString(entryHeader(e))
	b.WriteString(scratchRegs)
	b.WriteString(scratchRegs64)
	if k.mode == IndexScatterAdd && k.t == F64 {
		b.WriteString(scratchRegsF64)
	}
	b.WriteString("\t.reg .pred \t%pq<4>;\n\t.reg .b64 \t%rd<40>;\n\t.reg .f32 \t%x<4>;\n\n")
	// %rd4..6 pointers (dst, src, idx); %rd8..11 dims; strides of operand
	// i at %rd(12+4i)..; %rd24 rem, %rd25 coordinate, %rd26..28 offsets;
	// %rd30 dimStride, %rd31 dimSize, %rd32 skip, %rd33 the index.
	for i, p := range indexOperands {
		r := fmt.Sprintf("%%rd%d", 4+i)
		b.WriteString(loadParam(e, p, r))
		fmt.Fprintf(&b, "\tcvta.to.global.u64 \t%s, %s;\n", r, r)
	}
	b.WriteString(loadParam(e, "n", "%rd2"))
	for d := 0; d < MaxRank; d++ {
		b.WriteString(loadParam(e, fmt.Sprintf("d%d", d), fmt.Sprintf("%%rd%d", 8+d)))
	}
	for i, p := range indexOperands {
		for d := 0; d < MaxRank; d++ {
			b.WriteString(loadParam(e, fmt.Sprintf("s%s%d", p, d), fmt.Sprintf("%%rd%d", 12+4*i+d)))
		}
	}
	b.WriteString(loadParam(e, "dimStride", "%rd30"))
	b.WriteString(loadParam(e, "dimSize", "%rd31"))
	b.WriteString(loadParam(e, "skip", "%rd32"))
	b.WriteString(gridStrideStart)
	fmt.Fprintf(&b, "$L_%s_loop:\n", name)
	fmt.Fprintf(&b, "\tsetp.ge.u64 \t%%pq0, %%rd0, %%rd2;\n\t@%%pq0 bra \t$L_%s_done;\n", name)
	b.WriteString("\tmov.u64 \t%rd24, %rd0;\n")
	for i := range indexOperands {
		fmt.Fprintf(&b, "\tmov.u64 \t%%rd%d, 0;\n", 26+i)
	}
	for d := MaxRank - 1; d >= 0; d-- {
		coord := "%rd25"
		if d > 0 {
			fmt.Fprintf(&b, "\trem.u64 \t%%rd25, %%rd24, %%rd%d;\n\tdiv.u64 \t%%rd24, %%rd24, %%rd%d;\n", 8+d, 8+d)
		} else {
			coord = "%rd24"
		}
		for i := range indexOperands {
			fmt.Fprintf(&b, "\tmad.lo.s64 \t%%rd%d, %s, %%rd%d, %%rd%d;\n", 26+i, coord, 12+4*i+d, 26+i)
		}
	}
	next := "$L_" + name + "_next"
	// The index: skip, wrap, bounds.
	b.WriteString("\tshl.b64 \t%rd3, %rd28, 3;\n\tadd.u64 \t%rd29, %rd6, %rd3;\n\tld.global.s64 \t%rd33, [%rd29];\n")
	fmt.Fprintf(&b, "\tsetp.eq.s64 \t%%pq1, %%rd33, %%rd32;\n\t@%%pq1 bra \t%s;\n", next)
	b.WriteString("\tsetp.lt.s64 \t%pq2, %rd33, 0;\n\t@%pq2 add.s64 \t%rd33, %rd33, %rd31;\n")
	fmt.Fprintf(&b, "\tsetp.lt.s64 \t%%pq2, %%rd33, 0;\n\t@%%pq2 bra \t%s;\n", next)
	fmt.Fprintf(&b, "\tsetp.ge.s64 \t%%pq2, %%rd33, %%rd31;\n\t@%%pq2 bra \t%s;\n", next)
	if k.mode == IndexGather {
		b.WriteString("\tmad.lo.s64 \t%rd27, %rd33, %rd30, %rd27;\n")
	} else {
		b.WriteString("\tmad.lo.s64 \t%rd26, %rd33, %rd30, %rd26;\n")
	}
	src := fmt.Sprintf("\tshl.b64 \t%%rd3, %%rd27, %d;\n\tadd.u64 \t%%rd29, %%rd5, %%rd3;\n", k.t.shift())
	dst := fmt.Sprintf("\tshl.b64 \t%%rd3, %%rd26, %d;\n\tadd.u64 \t%%rd34, %%rd4, %%rd3;\n", k.t.shift())
	b.WriteString(src + dst)
	if k.mode == IndexScatterAdd {
		b.WriteString(scatterAddPTX(name, k.t))
	} else {
		bits := 8 * k.t.Size()
		reg := map[int64]string{8: "%r7", 16: "%h8", 32: "%r7", 64: "%q8"}[bits]
		mv := fmt.Sprintf("b%d", bits)
		if bits == 8 {
			mv = "u8"
		}
		fmt.Fprintf(&b, "\tld.global.%s \t%s, [%%rd29];\n\tst.global.%s \t[%%rd34], %s;\n", mv, reg, mv, reg)
	}
	fmt.Fprintf(&b, "%s:\n", next)
	b.WriteString("\tadd.u64 \t%rd0, %rd0, %rd1;\n")
	fmt.Fprintf(&b, "\tbra.uni \t$L_%s_loop;\n$L_%s_done:\n\tret;\n}\n", name, name)
	return b.String()
}

// IndexDTypes are the element types of the gather and scatter kernels
// (bit moves, so every type of a size has its own entry only for the
// launcher's sake); scatter_add exists for ScatterAddDTypes.
var IndexDTypes = []DType{F32, F16, BF16, I64, U8, I8, I16, B8, F64, I32}

// ScatterAddDTypes are the element types of the scatter_add kernel.
var ScatterAddDTypes = []DType{F32, F64, I64, I32}

// ScatterAdds reports whether t has a scatter_add kernel.
func ScatterAdds(t DType) bool {
	for _, s := range ScatterAddDTypes {
		if s == t {
			return true
		}
	}
	return false
}

// scatterAddPTX adds the element at [%rd29] into [%rd34] atomically:
// red.add for f32 and the integers (u32/u64 adds wrap as two's
// complement), a compare-and-swap loop for f64 (red.add.f64 needs sm_60,
// the modules target sm_52).
func scatterAddPTX(name string, t DType) string {
	switch t {
	case F64:
		return "\tld.global.b64 \t%q0, [%rd29];\n\tld.global.b64 \t%q1, [%rd34];\n" +
			"$L_" + name + "_cas:\n\tmov.b64 \t%fd0, %q1;\n\tmov.b64 \t%fd1, %q0;\n\tadd.rn.f64 \t%fd2, %fd0, %fd1;\n" +
			"\tmov.b64 \t%q2, %fd2;\n\tatom.global.cas.b64 \t%q3, [%rd34], %q1, %q2;\n" +
			"\tsetp.ne.b64 \t%pq3, %q3, %q1;\n\tmov.b64 \t%q1, %q3;\n\t@%pq3 bra \t$L_" + name + "_cas;\n"
	case I64:
		return "\tld.global.u64 \t%q0, [%rd29];\n\tred.global.add.u64 \t[%rd34], %q0;\n"
	case I32:
		return "\tld.global.u32 \t%r7, [%rd29];\n\tred.global.add.u32 \t[%rd34], %r7;\n"
	}
	return "\tld.global.f32 \t%x0, [%rd29];\n\tred.global.add.f32 \t[%rd34], %x0;\n"
}

// nnModule generates the index kernels.
func nnModule() moduleSpec {
	var ks []kernelSpec
	for _, t := range IndexDTypes {
		ks = append(ks, indexKernel{IndexGather, t}, indexKernel{IndexScatter, t})
	}
	for _, t := range ScatterAddDTypes {
		ks = append(ks, indexKernel{IndexScatterAdd, t})
	}
	return moduleSpec{name: "nn", kernels: ks}
}
