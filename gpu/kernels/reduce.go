package kernels

import (
	"fmt"
	"strings"
)

// SumBlock is the block size the sum kernels must be launched with: their
// shared buffer holds one f32 per thread and the tree reduction halves a
// power of two.
const SumBlock = 256

// SumMaxPartials bounds the grid of sum_partial_*: sum_final_* reduces the
// partial sums with one block, each thread adding every SumBlock-th partial.
const SumMaxPartials = 1024

// reduceKernel sums src[0:n) in f32. Each block runs a grid-stride loop
// (thread t adds elements t, t+stride, ... in that order), reduces its
// threads' sums by a shared-memory tree and writes the block's sum to
// dst[blockIdx.x]. The order of additions depends only on n, the grid and
// the block size, so results are deterministic. Launched twice: with G
// blocks from the input into G f32 partial sums, then with one block from
// the partial sums into the result.
type reduceKernel struct {
	name    string
	doc     string
	in, out DType
}

func (k reduceKernel) entry() Entry {
	return Entry{Name: k.name, Doc: k.doc, Params: []Param{{"dst", Ptr}, {"src", Ptr}, {"n", U64}}}
}

func (k reduceKernel) body() string {
	e := k.entry()
	buf := k.name + "_buf"
	l := func(s string) string { return "$L_" + k.name + "_" + s }
	var b strings.Builder
	fmt.Fprintf(&b, ".shared .align 4 .b8 \t%s[%d];\n", buf, 4*SumBlock)
	b.WriteString(entryHeader(e))
	b.WriteString(scratchRegs)
	b.WriteString("\t.reg .pred \t%pq<4>;\n\t.reg .b64 \t%rd<16>;\n\t.reg .b32 \t%ri<8>;\n")
	b.WriteString("\t.reg .f32 \t%x<4>;\n\t.reg .f32 \t%acc;\n\n")
	b.WriteString(loadParam(e, "dst", "%rd4"))
	b.WriteString("\tcvta.to.global.u64 \t%rd4, %rd4;\n")
	b.WriteString(loadParam(e, "src", "%rd5"))
	b.WriteString("\tcvta.to.global.u64 \t%rd5, %rd5;\n")
	b.WriteString(loadParam(e, "n", "%rd2"))
	b.WriteString(gridStrideStart)
	fmt.Fprintf(&b, "\tmov.f32 \t%%acc, %s;\n", zero)
	fmt.Fprintf(&b, "%s:\n", l("loop"))
	fmt.Fprintf(&b, "\tsetp.ge.u64 \t%%pq0, %%rd0, %%rd2;\n\t@%%pq0 bra \t%s;\n", l("tree_start"))
	fmt.Fprintf(&b, "\tshl.b64 \t%%rd3, %%rd0, %d;\n\tadd.u64 \t%%rd15, %%rd5, %%rd3;\n", k.in.shift())
	b.WriteString(k.in.loadF32("%x0", "%rd15", ""))
	b.WriteString("\tadd.rn.f32 \t%acc, %acc, %x0;\n\tadd.u64 \t%rd0, %rd0, %rd1;\n")
	fmt.Fprintf(&b, "\tbra.uni \t%s;\n", l("loop"))
	fmt.Fprintf(&b, "%s:\n", l("tree_start"))
	b.WriteString("\tmov.u32 \t%ri0, %tid.x;\n")
	fmt.Fprintf(&b, "\tmov.u32 \t%%ri1, %s;\n", buf)
	b.WriteString("\tshl.b32 \t%ri2, %ri0, 2;\n\tadd.u32 \t%ri3, %ri1, %ri2;\n")
	b.WriteString("\tst.shared.f32 \t[%ri3], %acc;\n\tbar.sync \t0;\n")
	b.WriteString("\tmov.u32 \t%ri4, %ntid.x;\n\tshr.u32 \t%ri4, %ri4, 1;\n")
	fmt.Fprintf(&b, "%s:\n", l("tree"))
	fmt.Fprintf(&b, "\tsetp.eq.u32 \t%%pq1, %%ri4, 0;\n\t@%%pq1 bra.uni \t%s;\n", l("write"))
	b.WriteString("\tsetp.lt.u32 \t%pq2, %ri0, %ri4;\n")
	b.WriteString("\tshl.b32 \t%ri5, %ri4, 2;\n\tadd.u32 \t%ri5, %ri3, %ri5;\n")
	b.WriteString("\t@%pq2 ld.shared.f32 \t%x1, [%ri5];\n")
	b.WriteString("\t@%pq2 ld.shared.f32 \t%x2, [%ri3];\n")
	b.WriteString("\t@%pq2 add.rn.f32 \t%x2, %x2, %x1;\n")
	b.WriteString("\t@%pq2 st.shared.f32 \t[%ri3], %x2;\n")
	b.WriteString("\tbar.sync \t0;\n\tshr.u32 \t%ri4, %ri4, 1;\n")
	fmt.Fprintf(&b, "\tbra.uni \t%s;\n", l("tree"))
	fmt.Fprintf(&b, "%s:\n", l("write"))
	fmt.Fprintf(&b, "\tsetp.ne.u32 \t%%pq3, %%ri0, 0;\n\t@%%pq3 bra \t%s;\n", l("done"))
	b.WriteString("\tld.shared.f32 \t%acc, [%ri1];\n")
	b.WriteString("\tmov.u32 \t%ri6, %ctaid.x;\n")
	fmt.Fprintf(&b, "\tmul.wide.u32 \t%%rd3, %%ri6, %d;\n\tadd.u64 \t%%rd15, %%rd4, %%rd3;\n", k.out.Size())
	b.WriteString(k.out.storeF32("%rd15", "%acc"))
	fmt.Fprintf(&b, "%s:\n\tret;\n}\n", l("done"))
	return b.String()
}

// reduceModule generates the two sum stages for every dtype.
func reduceModule() moduleSpec {
	var ks []kernelSpec
	for _, t := range DTypes {
		ks = append(ks,
			reduceKernel{
				name: "sum_partial_" + string(t), in: t, out: F32,
				doc: fmt.Sprintf("dst[blockIdx.x] = f32 sum of this block's share of src[0:n) (%s), block size %d", t, SumBlock),
			},
			reduceKernel{
				name: "sum_final_" + string(t), in: F32, out: t,
				doc: fmt.Sprintf("dst[0] = (%s) sum of the f32 partial sums src[0:n), one block of %d", t, SumBlock),
			},
		)
	}
	return moduleSpec{name: "reduce", kernels: ks}
}
