package kernels

import (
	"fmt"
	"math"
	"strings"
)

// PickMode selects a pick_<mode>_<t> kernel: max or min of each row with
// the index of the element that holds it (torch.max/min over a dim,
// argmax/argmin, amax/amin).
type PickMode string

// Pick modes. NaN wins over every number (PyTorch propagates it) and, of
// equal values (NaNs included), the first index wins.
const (
	PickMax PickMode = "max"
	PickMin PickMode = "min"
)

// PickKernelName is the entry of mode over elements of type t.
func PickKernelName(mode PickMode, t DType) string { return fmt.Sprintf("pick_%s_%s", mode, t) }

// pickKernel: one block per row r = blockIdx.x (rows as reduce_rows: base
// from r's coordinates in (d0, d1, d2) and strides s0..s2, l elements sl
// apart); dst[r] gets the picked value (type t) and idx[r] its index along
// the row (int64); a zero dst or idx is not written.
type pickKernel struct {
	mode PickMode
	t    DType
}

func (k pickKernel) name() string { return PickKernelName(k.mode, k.t) }

// ft is the PTX type the kernel compares in: f64 for float64, s64 for
// the integer types (exact, as PyTorch compares them in their type), else
// f32.
func (k pickKernel) ft() string {
	switch {
	case k.t == F64:
		return "f64"
	case isInt(k.t):
		return "s64"
	}
	return "f32"
}

func (k pickKernel) entry() Entry {
	return Entry{Name: k.name(), Doc: "dst[r], idx[r] = the " + string(k.mode) + " of row r and its first index (NaN wins), one block per row",
		Params: []Param{{"dst", Ptr}, {"idx", Ptr}, {"src", Ptr}, {"l", U64}, {"sl", U64},
			{"d1", U64}, {"d2", U64}, {"s0", U64}, {"s1", U64}, {"s2", U64}}}
}

// betterPTX sets %pq1 when (v, i) beats (%acc, %ai): a strictly better
// number, a NaN over a number, or an equal value (both NaN included) at a
// lower index.
func (k pickKernel) betterPTX(v, i string) string {
	cmp := "gt"
	if k.mode == PickMin {
		cmp = "lt"
	}
	f := k.ft()
	if f == "s64" { // no NaN among integers
		return fmt.Sprintf("\tsetp.%s.s64 \t%%pq1, %s, %%acc;\n", cmp, v) +
			fmt.Sprintf("\tsetp.eq.s64 \t%%pq5, %s, %%acc;\n", v) +
			fmt.Sprintf("\tsetp.lt.u64 \t%%pq6, %s, %%ai;\n", i) +
			"\tand.pred \t%pq5, %pq5, %pq6;\n" +
			"\tor.pred \t%pq1, %pq1, %pq5;\n"
	}
	return fmt.Sprintf("\tsetp.%s.%s \t%%pq1, %s, %%acc;\n", cmp, f, v) +
		fmt.Sprintf("\tsetp.nan.%s \t%%pq2, %s, %s;\n", f, v, v) +
		"\tsetp.nan." + f + " \t%pq3, %acc, %acc;\n" +
		"\tnot.pred \t%pq5, %pq3;\n" +
		"\tand.pred \t%pq5, %pq2, %pq5;\n" +
		"\tor.pred \t%pq1, %pq1, %pq5;\n" +
		"\tand.pred \t%pq5, %pq2, %pq3;\n" +
		fmt.Sprintf("\tsetp.eq.or.%s \t%%pq5, %s, %%acc, %%pq5;\n", f, v) +
		fmt.Sprintf("\tsetp.lt.u64 \t%%pq6, %s, %%ai;\n", i) +
		"\tand.pred \t%pq5, %pq5, %pq6;\n" +
		"\tor.pred \t%pq1, %pq1, %pq5;\n"
}

func (k pickKernel) body() string {
	e := k.entry()
	name := k.name()
	l := func(s string) string { return "$L_" + name + "_" + s }
	// Not name_idx: the parameter idx is named so in the entry, and would
	// shadow the buffer.
	vbuf, ibuf := name+"_sval", name+"_sidx"
	var b strings.Builder
	f, vsz, vshift := k.ft(), 4, 2
	if k.t == F64 || f == "s64" {
		vsz, vshift = 8, 3
	}
	fmt.Fprintf(&b, ".shared .align %d .b8 \t%s[%d];\n", vsz, vbuf, vsz*RowBlock)
	fmt.Fprintf(&b, ".shared .align 8 .b8 \t%s[%d];\n", ibuf, 8*RowBlock)
	b.WriteString(entryHeader(e))
	b.WriteString(scratchRegs)
	b.WriteString(scratchRegs64)
	b.WriteString("\t.reg .pred \t%pq<8>;\n\t.reg .b64 \t%rd<40>;\n\t.reg .b32 \t%ri<8>;\n")
	if k.t == F64 {
		b.WriteString(scratchRegsF64)
	}
	fmt.Fprintf(&b, "\t.reg .%s \t%%x<4>;\n\t.reg .%s \t%%acc;\n\t.reg .b64 \t%%ai;\n\t.reg .b64 \t%%bi;\n\n", f, f)
	for i, p := range e.Params {
		b.WriteString(loadParam(e, p.Name, fmt.Sprintf("%%rd%d", 4+i)))
	}
	// %rd4 dst, %rd5 idx, %rd6 src, %rd7 l, %rd8 sl, %rd9 d1, %rd10 d2,
	// %rd11..13 s0..s2.
	b.WriteString("\tcvta.to.global.u64 \t%rd6, %rd6;\n")
	b.WriteString("\tmov.u32 \t%ri0, %tid.x;\n\tcvt.u64.u32 \t%rd0, %ri0;\n")
	b.WriteString("\tmov.u32 \t%ri6, %ntid.x;\n\tcvt.u64.u32 \t%rd1, %ri6;\n")
	b.WriteString("\tmov.u32 \t%ri6, %ctaid.x;\n\tcvt.u64.u32 \t%rd2, %ri6;\n")
	b.WriteString("\trem.u64 \t%rd20, %rd2, %rd10;\n\tdiv.u64 \t%rd21, %rd2, %rd10;\n")
	b.WriteString("\trem.u64 \t%rd22, %rd21, %rd9;\n\tdiv.u64 \t%rd23, %rd21, %rd9;\n")
	b.WriteString("\tmul.lo.u64 \t%rd24, %rd23, %rd11;\n\tmad.lo.u64 \t%rd24, %rd22, %rd12, %rd24;\n\tmad.lo.u64 \t%rd24, %rd20, %rd13, %rd24;\n")
	init := f32Hex(0xFF800000) // -inf
	if k.mode == PickMin {
		init = infinity
	}
	load := k.t.loadF32("%x0", "%rd26", "")
	if k.t == F64 {
		init = f64c(math.Inf(-1))
		if k.mode == PickMin {
			init = f64c(math.Inf(1))
		}
		load = k.t.loadF64("%x0", "%rd26")
	}
	if f == "s64" {
		init = "0x8000000000000000"
		if k.mode == PickMin {
			init = "0x7FFFFFFFFFFFFFFF"
		}
		load = k.t.loadS64("%x0", "%rd26")
	}
	fmt.Fprintf(&b, "\tmov.%s \t%%acc, %s;\n\tmov.u64 \t%%ai, 9223372036854775807;\n", f, init)
	loopPTX(&b, name, "scan", "%rd7",
		"\tmad.lo.u64 \t%rd25, %rd3, %rd8, %rd24;\n"+
			addrPTX("%rd26", "%rd6", "%rd25", k.t)+load+
			k.betterPTX("%x0", "%rd3")+
			"\t@%pq1 mov."+f+" \t%acc, %x0;\n\t@%pq1 mov.u64 \t%ai, %rd3;\n")
	// Tree over the block: thread tid < s merges slot tid + s into its own.
	fmt.Fprintf(&b, "\tmov.u32 \t%%ri1, %s;\n\tshl.b32 \t%%ri2, %%ri0, %d;\n\tadd.u32 \t%%ri3, %%ri1, %%ri2;\n", vbuf, vshift)
	fmt.Fprintf(&b, "\tmov.u32 \t%%ri2, %s;\n\tshl.b32 \t%%ri5, %%ri0, 3;\n\tadd.u32 \t%%ri5, %%ri2, %%ri5;\n", ibuf)
	b.WriteString("\tbar.sync \t0;\n\tst.shared." + f + " \t[%ri3], %acc;\n\tst.shared.u64 \t[%ri5], %ai;\n\tbar.sync \t0;\n")
	b.WriteString("\tmov.u32 \t%ri4, %ntid.x;\n\tshr.u32 \t%ri4, %ri4, 1;\n")
	fmt.Fprintf(&b, "%s:\n\tsetp.eq.u32 \t%%pq0, %%ri4, 0;\n\t@%%pq0 bra.uni \t%s;\n", l("tree"), l("end"))
	fmt.Fprintf(&b, "\tsetp.ge.u32 \t%%pq4, %%ri0, %%ri4;\n\t@%%pq4 bra \t%s;\n", l("wait"))
	fmt.Fprintf(&b, "\tshl.b32 \t%%ri6, %%ri4, %d;\n\tadd.u32 \t%%ri6, %%ri3, %%ri6;\n\tld.shared.%s \t%%x1, [%%ri6];\n", vshift, f)
	b.WriteString("\tshl.b32 \t%ri6, %ri4, 3;\n\tadd.u32 \t%ri6, %ri5, %ri6;\n\tld.shared.u64 \t%bi, [%ri6];\n")
	b.WriteString(k.betterPTX("%x1", "%bi"))
	b.WriteString("\t@%pq1 mov." + f + " \t%acc, %x1;\n\t@%pq1 mov.u64 \t%ai, %bi;\n")
	b.WriteString("\tst.shared." + f + " \t[%ri3], %acc;\n\tst.shared.u64 \t[%ri5], %ai;\n")
	fmt.Fprintf(&b, "%s:\n\tbar.sync \t0;\n\tshr.u32 \t%%ri4, %%ri4, 1;\n\tbra.uni \t%s;\n", l("wait"), l("tree"))
	fmt.Fprintf(&b, "%s:\n\tsetp.ne.u32 \t%%pq0, %%ri0, 0;\n\t@%%pq0 bra \t%s;\n", l("end"), l("exit"))
	fmt.Fprintf(&b, "\tsetp.eq.u64 \t%%pq0, %%rd4, 0;\n\t@%%pq0 bra \t%s;\n", l("noval"))
	b.WriteString("\tcvta.to.global.u64 \t%rd4, %rd4;\n")
	b.WriteString(addrPTX("%rd27", "%rd4", "%rd2", k.t))
	if k.t == F64 {
		b.WriteString("\tst.global.f64 \t[%rd27], %acc;\n")
	} else if f == "s64" {
		b.WriteString(k.t.storeS64("%rd27", "%acc"))
	} else {
		b.WriteString(k.t.storeF32("%rd27", "%acc"))
	}
	fmt.Fprintf(&b, "%s:\n\tsetp.eq.u64 \t%%pq0, %%rd5, 0;\n\t@%%pq0 bra \t%s;\n", l("noval"), l("exit"))
	b.WriteString("\tcvta.to.global.u64 \t%rd5, %rd5;\n")
	b.WriteString(addrPTX("%rd27", "%rd5", "%rd2", I64))
	b.WriteString("\tst.global.s64 \t[%rd27], %ai;\n")
	fmt.Fprintf(&b, "%s:\n\tret;\n}\n", l("exit"))
	return b.String()
}

// PickTypes are the types with pick kernels: the float types, float64
// (compared and stored in f64) and the integer types (compared in s64,
// exactly: int64 beyond 2^53 included).
var PickTypes = append(append(append([]DType(nil), DTypes...), F64, I64, I32), SmallInts...)

// pickModule generates max and min for every type of PickTypes.
func pickModule() moduleSpec {
	var ks []kernelSpec
	for _, t := range PickTypes {
		for _, m := range []PickMode{PickMax, PickMin} {
			ks = append(ks, pickKernel{m, t})
		}
	}
	return moduleSpec{name: "pick", kernels: ks}
}
