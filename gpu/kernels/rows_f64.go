package kernels

import (
	"fmt"
	"strings"
)

// ReduceRows64 is the name of the float64 row sum: reduceRowsKernel's
// layout and parameters, accumulated in float64 (PyTorch sums double in
// double) with a .f64 scale.
const ReduceRows64 = "reduce_rows_f64"

// ReduceRowsS64 is the name of the int64 row sum: reduce_rows_f64's layout
// and parameters (the scale unused: integer sums are not scaled), the sum
// in int64, wrapping, as PyTorch sums int64 (and int32, into int64).
const ReduceRowsS64 = "reduce_rows_s64"

// reduceRows64Kernel is reduce_rows_<t> for float64 (or int64 when s64 is
// set): each thread sums its strided share of the row in f64, a
// shared-memory tree adds the block's partial sums, thread 0 scales and
// stores the row's result.
type reduceRows64Kernel struct{ s64 bool }

func (k reduceRows64Kernel) entry() Entry {
	if k.s64 {
		return Entry{Name: ReduceRowsS64,
			Doc: "dst[r] = sum_j src[base(r) + j·sl] (int64 accumulation, scale unused), one block per row",
			Params: []Param{{"dst", Ptr}, {"src", Ptr}, {"scale", Scalar64}, {"l", U64}, {"sl", U64},
				{"d1", U64}, {"d2", U64}, {"s0", U64}, {"s1", U64}, {"s2", U64}}}
	}
	return Entry{Name: ReduceRows64,
		Doc: "dst[r] = scale · sum_j src[base(r) + j·sl] (f64 accumulation), one block per row",
		Params: []Param{{"dst", Ptr}, {"src", Ptr}, {"scale", Scalar64}, {"l", U64}, {"sl", U64},
			{"d1", U64}, {"d2", U64}, {"s0", U64}, {"s1", U64}, {"s2", U64}}}
}

func (k reduceRows64Kernel) body() string {
	if k.s64 {
		return k.bodyS64()
	}
	return k.bodyF64()
}

// bodyS64 is bodyF64 with the accumulation in int64 and no scaling.
func (k reduceRows64Kernel) bodyS64() string {
	f := reduceRows64Kernel{}.bodyF64()
	f = strings.ReplaceAll(f, ReduceRows64, ReduceRowsS64)
	f = strings.Replace(f, "\tmul.rn.f64 \t%acc, %acc, %scale;\n", "", 1)
	f = strings.ReplaceAll(f, "add.rn.f64", "add.s64")
	f = strings.ReplaceAll(f, "0d0000000000000000", "0")
	for _, r := range []string{"ld.global.f64", "ld.shared.f64", "st.shared.f64", "st.global.f64", "mov.f64", ".reg .f64 \t%x<4>", ".reg .f64 \t%acc"} {
		f = strings.ReplaceAll(f, r, strings.Replace(r, "f64", "s64", 1))
	}
	return f
}

func (k reduceRows64Kernel) bodyF64() string {
	e := k.entry()
	name, buf := e.Name, e.Name+"_buf"
	l := func(s string) string { return "$L_" + name + "_" + s }
	var b strings.Builder
	fmt.Fprintf(&b, ".shared .align 8 .b8 \t%s[%d];\n", buf, 8*RowBlock)
	b.WriteString(entryHeader(e))
	b.WriteString("\t.reg .pred \t%pq<4>;\n\t.reg .b64 \t%rd<40>;\n\t.reg .b32 \t%ri<8>;\n")
	b.WriteString("\t.reg .f64 \t%x<4>;\n\t.reg .f64 \t%scale;\n\t.reg .f64 \t%acc;\n\n")
	// %rd4.. the parameters in order (scale in %scale), %rd0 tid, %rd1
	// ntid, %rd2 the row.
	for i, p := range e.Params {
		switch p.Kind {
		case Ptr:
			r := fmt.Sprintf("%%rd%d", 4+i)
			b.WriteString(loadParam(e, p.Name, r))
			fmt.Fprintf(&b, "\tcvta.to.global.u64 \t%s, %s;\n", r, r)
		case U64:
			b.WriteString(loadParam(e, p.Name, fmt.Sprintf("%%rd%d", 4+i)))
		case Scalar64:
			b.WriteString(loadParam(e, p.Name, "%scale"))
		}
	}
	b.WriteString("\tmov.u32 \t%ri0, %tid.x;\n")
	fmt.Fprintf(&b, "\tmov.u32 \t%%ri1, %s;\n", buf)
	b.WriteString("\tshl.b32 \t%ri2, %ri0, 3;\n\tadd.u32 \t%ri3, %ri1, %ri2;\n")
	b.WriteString("\tcvt.u64.u32 \t%rd0, %ri0;\n\tmov.u32 \t%ri6, %ntid.x;\n\tcvt.u64.u32 \t%rd1, %ri6;\n")
	b.WriteString("\tmov.u32 \t%ri6, %ctaid.x;\n\tcvt.u64.u32 \t%rd2, %ri6;\n")
	// Row base: c2 = r % d2, c1 = (r / d2) % d1, c0 = r / d2 / d1
	// (parameters: d1 %rd9, d2 %rd10, s0 %rd11, s1 %rd12, s2 %rd13).
	b.WriteString("\trem.u64 \t%rd20, %rd2, %rd10;\n\tdiv.u64 \t%rd21, %rd2, %rd10;\n")
	b.WriteString("\trem.u64 \t%rd22, %rd21, %rd9;\n\tdiv.u64 \t%rd23, %rd21, %rd9;\n")
	b.WriteString("\tmul.lo.u64 \t%rd24, %rd23, %rd11;\n\tmad.lo.u64 \t%rd24, %rd22, %rd12, %rd24;\n\tmad.lo.u64 \t%rd24, %rd20, %rd13, %rd24;\n")
	b.WriteString("\tmov.f64 \t%acc, 0d0000000000000000;\n")
	// for j = tid; j < l (%rd7); j += ntid: acc += src[base + j·sl (%rd8)].
	b.WriteString("\tmov.u64 \t%rd3, %rd0;\n" + l("sum") + ":\n\tsetp.ge.u64 \t%pq0, %rd3, %rd7;\n\t@%pq0 bra \t" + l("sum_end") + ";\n")
	b.WriteString("\tmad.lo.u64 \t%rd25, %rd3, %rd8, %rd24;\n\tshl.b64 \t%rd25, %rd25, 3;\n\tadd.u64 \t%rd26, %rd5, %rd25;\n")
	b.WriteString("\tld.global.f64 \t%x0, [%rd26];\n\tadd.rn.f64 \t%acc, %acc, %x0;\n")
	b.WriteString("\tadd.u64 \t%rd3, %rd3, %rd1;\n\tbra.uni \t" + l("sum") + ";\n" + l("sum_end") + ":\n")
	// The tree over the block's partial sums (treePTX in f64).
	b.WriteString("\tbar.sync \t0;\n\tst.shared.f64 \t[%ri3], %acc;\n\tbar.sync \t0;\n")
	b.WriteString("\tmov.u32 \t%ri4, %ntid.x;\n\tshr.u32 \t%ri4, %ri4, 1;\n")
	b.WriteString(l("tree") + ":\n\tsetp.eq.u32 \t%pq1, %ri4, 0;\n\t@%pq1 bra.uni \t" + l("end") + ";\n")
	b.WriteString("\tsetp.lt.u32 \t%pq2, %ri0, %ri4;\n\tshl.b32 \t%ri5, %ri4, 3;\n\tadd.u32 \t%ri5, %ri3, %ri5;\n")
	b.WriteString("\t@%pq2 ld.shared.f64 \t%x1, [%ri5];\n\t@%pq2 ld.shared.f64 \t%x2, [%ri3];\n")
	b.WriteString("\t@%pq2 add.rn.f64 \t%x2, %x2, %x1;\n\t@%pq2 st.shared.f64 \t[%ri3], %x2;\n")
	b.WriteString("\tbar.sync \t0;\n\tshr.u32 \t%ri4, %ri4, 1;\n\tbra.uni \t" + l("tree") + ";\n" + l("end") + ":\n")
	b.WriteString("\tsetp.ne.u32 \t%pq3, %ri0, 0;\n\t@%pq3 bra \t" + l("exit") + ";\n")
	b.WriteString("\tld.shared.f64 \t%acc, [%ri1];\n\tmul.rn.f64 \t%acc, %acc, %scale;\n")
	b.WriteString("\tshl.b64 \t%rd27, %rd2, 3;\n\tadd.u64 \t%rd27, %rd4, %rd27;\n\tst.global.f64 \t[%rd27], %acc;\n")
	fmt.Fprintf(&b, "%s:\n\tret;\n}\n", l("exit"))
	return b.String()
}
