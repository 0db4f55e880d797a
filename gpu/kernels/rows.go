package kernels

import (
	"fmt"
	"strings"
)

// RowBlock is the block size of the row kernels (reduce_rows_*, softmax_*,
// nll_*): one block per row, RowBlock threads striding along it, and a
// shared-memory tree over the threads' partial results.
const RowBlock = 256

// treePTX reduces %acc over the block (op "add.rn.f32" or "max.f32") with
// the shared buffer whose address is in %ri1 and this thread's slot in
// %ri3, and leaves the block's result in every thread's %acc. Labels get
// the suffix tag. Uses %ri4, %ri5, %x1, %x2, %pq1, %pq2.
func treePTX(name, tag, op string) string {
	l := func(s string) string { return "$L_" + name + "_" + tag + "_" + s }
	var b strings.Builder
	b.WriteString("\tbar.sync \t0;\n\tst.shared.f32 \t[%ri3], %acc;\n\tbar.sync \t0;\n")
	b.WriteString("\tmov.u32 \t%ri4, %ntid.x;\n\tshr.u32 \t%ri4, %ri4, 1;\n")
	fmt.Fprintf(&b, "%s:\n", l("tree"))
	fmt.Fprintf(&b, "\tsetp.eq.u32 \t%%pq1, %%ri4, 0;\n\t@%%pq1 bra.uni \t%s;\n", l("end"))
	b.WriteString("\tsetp.lt.u32 \t%pq2, %ri0, %ri4;\n")
	b.WriteString("\tshl.b32 \t%ri5, %ri4, 2;\n\tadd.u32 \t%ri5, %ri3, %ri5;\n")
	b.WriteString("\t@%pq2 ld.shared.f32 \t%x1, [%ri5];\n")
	b.WriteString("\t@%pq2 ld.shared.f32 \t%x2, [%ri3];\n")
	fmt.Fprintf(&b, "\t@%%pq2 %s \t%%x2, %%x2, %%x1;\n", op)
	b.WriteString("\t@%pq2 st.shared.f32 \t[%ri3], %x2;\n")
	b.WriteString("\tbar.sync \t0;\n\tshr.u32 \t%ri4, %ri4, 1;\n")
	fmt.Fprintf(&b, "\tbra.uni \t%s;\n", l("tree"))
	fmt.Fprintf(&b, "%s:\n", l("end"))
	b.WriteString("\tld.shared.f32 \t%acc, [%ri1];\n")
	return b.String()
}

// rowKernel is the common frame of the row kernels: parameters, registers,
// the shared buffer and %ri0 = tid, %ri1 = &buf, %ri3 = &buf[tid].
type rowKernel struct {
	name   string
	doc    string
	params []Param
	t      DType
	main   func(b *strings.Builder, k rowKernel) // the body after the frame
}

func (k rowKernel) entry() Entry { return Entry{Name: k.name, Doc: k.doc, Params: k.params} }

func (k rowKernel) body() string {
	e := k.entry()
	buf := k.name + "_buf"
	var b strings.Builder
	fmt.Fprintf(&b, ".shared .align 4 .b8 \t%s[%d];\n", buf, 4*RowBlock)
	b.WriteString(entryHeader(e))
	b.WriteString(scratchRegs)
	b.WriteString(scratchRegs64)
	b.WriteString("\t.reg .pred \t%pq<8>;\n\t.reg .b64 \t%rd<40>;\n\t.reg .b32 \t%ri<8>;\n")
	b.WriteString("\t.reg .f32 \t%x<8>;\n\t.reg .f32 \t%s<4>;\n\t.reg .f32 \t%acc;\n\t.reg .f32 \t%cnt;\n\n")
	for i, p := range k.params {
		switch p.Kind {
		case Ptr:
			r := fmt.Sprintf("%%rd%d", 4+i)
			b.WriteString(loadParam(e, p.Name, r))
			fmt.Fprintf(&b, "\tcvta.to.global.u64 \t%s, %s;\n", r, r)
		case U64:
			b.WriteString(loadParam(e, p.Name, fmt.Sprintf("%%rd%d", 4+i)))
		case Scalar:
			b.WriteString(loadParam(e, p.Name, fmt.Sprintf("%%s%d", i%4)))
		}
	}
	b.WriteString("\tmov.u32 \t%ri0, %tid.x;\n")
	fmt.Fprintf(&b, "\tmov.u32 \t%%ri1, %s;\n", buf)
	b.WriteString("\tshl.b32 \t%ri2, %ri0, 2;\n\tadd.u32 \t%ri3, %ri1, %ri2;\n")
	b.WriteString("\tcvt.u64.u32 \t%rd0, %ri0;\n\tmov.u32 \t%ri6, %ntid.x;\n\tcvt.u64.u32 \t%rd1, %ri6;\n")
	b.WriteString("\tmov.u32 \t%ri6, %ctaid.x;\n\tcvt.u64.u32 \t%rd2, %ri6;\n")
	k.main(&b, k)
	fmt.Fprintf(&b, "$L_%s_exit:\n\tret;\n}\n", k.name)
	return b.String()
}

// reg returns the register holding parameter p.
func (k rowKernel) reg(p string) string {
	for i, q := range k.params {
		if q.Name == p {
			if q.Kind == Scalar {
				return fmt.Sprintf("%%s%d", i%4)
			}
			return fmt.Sprintf("%%rd%d", 4+i)
		}
	}
	return "%unknown_" + p
}

// loopPTX emits "for (j = tid; j < limit; j += ntid) { body }" with j in
// %rd3.
func loopPTX(b *strings.Builder, name, tag, limit, body string) {
	l := "$L_" + name + "_" + tag
	fmt.Fprintf(b, "\tmov.u64 \t%%rd3, %%rd0;\n%s:\n\tsetp.ge.u64 \t%%pq0, %%rd3, %s;\n\t@%%pq0 bra \t%s_end;\n", l, limit, l)
	b.WriteString(body)
	fmt.Fprintf(b, "\tadd.u64 \t%%rd3, %%rd3, %%rd1;\n\tbra.uni \t%s;\n%s_end:\n", l, l)
}

// addrPTX sets dst = base + (off << shift of t), using %rd39.
func addrPTX(dst, base, off string, t DType) string {
	return fmt.Sprintf("\tshl.b64 \t%%rd39, %s, %d;\n\tadd.u64 \t%s, %s, %%rd39;\n", off, t.shift(), dst, base)
}

// reduceRowsKernel: dst[r] = scale · Σ_j src[base(r) + j·sl], r = blockIdx.x,
// base(r) from r's coordinates in (d0, d1, d2) and the strides s0..s2.
func reduceRowsKernel(t DType) rowKernel {
	return rowKernel{
		name: "reduce_rows_" + string(t), t: t,
		doc: "dst[r] = scale · sum_j src[base(r) + j·sl] (f32 accumulation), one block per row",
		params: []Param{{"dst", Ptr}, {"src", Ptr}, {"scale", Scalar}, {"l", U64}, {"sl", U64},
			{"d1", U64}, {"d2", U64}, {"s0", U64}, {"s1", U64}, {"s2", U64}},
		main: func(b *strings.Builder, k rowKernel) {
			// row coordinates: c2 = r % d2, r' = r / d2, c1 = r' % d1, c0 = r' / d1.
			fmt.Fprintf(b, "\trem.u64 \t%%rd20, %%rd2, %s;\n\tdiv.u64 \t%%rd21, %%rd2, %s;\n", k.reg("d2"), k.reg("d2"))
			fmt.Fprintf(b, "\trem.u64 \t%%rd22, %%rd21, %s;\n\tdiv.u64 \t%%rd23, %%rd21, %s;\n", k.reg("d1"), k.reg("d1"))
			fmt.Fprintf(b, "\tmul.lo.u64 \t%%rd24, %%rd23, %s;\n\tmad.lo.u64 \t%%rd24, %%rd22, %s, %%rd24;\n\tmad.lo.u64 \t%%rd24, %%rd20, %s, %%rd24;\n",
				k.reg("s0"), k.reg("s1"), k.reg("s2"))
			fmt.Fprintf(b, "\tmov.f32 \t%%acc, %s;\n", zero)
			loopPTX(b, k.name, "sum", k.reg("l"),
				fmt.Sprintf("\tmad.lo.u64 \t%%rd25, %%rd3, %s, %%rd24;\n", k.reg("sl"))+
					addrPTX("%rd26", k.reg("src"), "%rd25", t)+t.loadF32("%x0", "%rd26", "")+
					"\tadd.rn.f32 \t%acc, %acc, %x0;\n")
			b.WriteString(treePTX(k.name, "t", "add.rn.f32"))
			fmt.Fprintf(b, "\tsetp.ne.u32 \t%%pq3, %%ri0, 0;\n\t@%%pq3 bra \t$L_%s_exit;\n", k.name)
			fmt.Fprintf(b, "\tmul.rn.f32 \t%%acc, %%acc, %s;\n", k.reg("scale"))
			b.WriteString(addrPTX("%rd27", k.reg("dst"), "%rd2", t))
			b.WriteString(t.storeF32("%rd27", "%acc"))
		},
	}
}

// SoftmaxMode selects a softmax_<mode>_<t> kernel.
type SoftmaxMode string

// Softmax kernels: forward from a; backward from a = grad and b = the
// forward's output.
const (
	SoftmaxFwd    SoftmaxMode = "fwd"
	LogSoftmaxFwd SoftmaxMode = "logfwd"
	SoftmaxBwd    SoftmaxMode = "bwd"
	LogSoftmaxBwd SoftmaxMode = "logbwd"
)

// softmaxKernel works on rows along a dimension of length dd: row r =
// blockIdx.x is (o, q) = (r / nq, r % nq), element j of operand x is at
// o·sx_o + q·sx_q + j·sx_d.
func softmaxKernel(mode SoftmaxMode, t DType) rowKernel {
	var ps []Param
	ps = append(ps, Param{"dst", Ptr}, Param{"a", Ptr}, Param{"b", Ptr}, Param{"dd", U64}, Param{"nq", U64})
	for _, x := range []string{"o", "a", "b"} {
		for _, d := range []string{"o", "q", "d"} {
			ps = append(ps, Param{"s" + x + "_" + d, U64})
		}
	}
	docs := map[SoftmaxMode]string{
		SoftmaxFwd:    "dst = softmax(a) along d",
		LogSoftmaxFwd: "dst = log_softmax(a) along d",
		SoftmaxBwd:    "dst = b · (a - Σ a·b) along d (a grad, b softmax output)",
		LogSoftmaxBwd: "dst = a - exp(b) · Σ a along d (a grad, b log_softmax output)",
	}
	return rowKernel{
		name: fmt.Sprintf("softmax_%s_%s", mode, t), t: t, doc: docs[mode], params: ps,
		main: func(b *strings.Builder, k rowKernel) {
			fmt.Fprintf(b, "\trem.u64 \t%%rd20, %%rd2, %s;\n\tdiv.u64 \t%%rd21, %%rd2, %s;\n", k.reg("nq"), k.reg("nq"))
			// bases: %rd22 dst, %rd23 a, %rd24 b.
			for i, x := range []string{"o", "a", "b"} {
				fmt.Fprintf(b, "\tmul.lo.u64 \t%%rd%d, %%rd21, %s;\n\tmad.lo.u64 \t%%rd%d, %%rd20, %s, %%rd%d;\n",
					22+i, k.reg("s"+x+"_o"), 22+i, k.reg("s"+x+"_q"), 22+i)
			}
			// load element j (%rd3) of operand x into reg.
			load := func(x string, base int, ptr, reg string) string {
				return fmt.Sprintf("\tmad.lo.u64 \t%%rd25, %%rd3, %s, %%rd%d;\n", k.reg("s"+x+"_d"), base) +
					addrPTX("%rd26", k.reg(ptr), "%rd25", t) + t.loadF32(reg, "%rd26", "")
			}
			store := "\tmad.lo.u64 \t%rd25, %rd3, " + k.reg("so_d") + ", %rd22;\n" +
				addrPTX("%rd26", k.reg("dst"), "%rd25", t) + t.storeF32("%rd26", "%x5")
			exp := func(dst, src string) string {
				return fmt.Sprintf("\tmul.f32 \t%s, %s, %s;\n\tex2.approx.ftz.f32 \t%s, %s;\n", dst, src, log2e, dst, dst)
			}
			dd := k.reg("dd")
			switch mode {
			case SoftmaxFwd, LogSoftmaxFwd:
				fmt.Fprintf(b, "\tmov.f32 \t%%acc, %s;\n", fc(-3.4028234663852886e38)) // -FLT_MAX; -inf rows give NaN as PyTorch
				loopPTX(b, k.name, "max", dd, load("a", 23, "a", "%x0")+"\tmax.f32 \t%acc, %acc, %x0;\n")
				b.WriteString(treePTX(k.name, "tmax", "max.f32"))
				b.WriteString("\tmov.f32 \t%x6, %acc;\n")
				fmt.Fprintf(b, "\tmov.f32 \t%%acc, %s;\n", zero)
				loopPTX(b, k.name, "sum", dd, load("a", 23, "a", "%x0")+"\tsub.rn.f32 \t%x0, %x0, %x6;\n"+exp("%x3", "%x0")+
					"\tadd.rn.f32 \t%acc, %acc, %x3;\n")
				b.WriteString(treePTX(k.name, "tsum", "add.rn.f32"))
				if mode == SoftmaxFwd {
					b.WriteString("\trcp.rn.f32 \t%x7, %acc;\n")
					loopPTX(b, k.name, "out", dd, load("a", 23, "a", "%x0")+"\tsub.rn.f32 \t%x0, %x0, %x6;\n"+exp("%x3", "%x0")+
						"\tmul.rn.f32 \t%x5, %x3, %x7;\n"+store)
				} else {
					fmt.Fprintf(b, "\tlg2.approx.f32 \t%%x7, %%acc;\n\tmul.rn.f32 \t%%x7, %%x7, %s;\n\tadd.rn.f32 \t%%x7, %%x7, %%x6;\n", fc(0.6931471805599453))
					loopPTX(b, k.name, "out", dd, load("a", 23, "a", "%x0")+"\tsub.rn.f32 \t%x5, %x0, %x7;\n"+store)
				}
			case SoftmaxBwd:
				fmt.Fprintf(b, "\tmov.f32 \t%%acc, %s;\n", zero)
				loopPTX(b, k.name, "dot", dd, load("a", 23, "a", "%x0")+load("b", 24, "b", "%x3")+"\tfma.rn.f32 \t%acc, %x0, %x3, %acc;\n")
				b.WriteString(treePTX(k.name, "tsum", "add.rn.f32"))
				loopPTX(b, k.name, "out", dd, load("a", 23, "a", "%x0")+load("b", 24, "b", "%x3")+
					"\tsub.rn.f32 \t%x4, %x0, %acc;\n\tmul.rn.f32 \t%x5, %x3, %x4;\n"+store)
			case LogSoftmaxBwd:
				fmt.Fprintf(b, "\tmov.f32 \t%%acc, %s;\n", zero)
				loopPTX(b, k.name, "sum", dd, load("a", 23, "a", "%x0")+"\tadd.rn.f32 \t%acc, %acc, %x0;\n")
				b.WriteString(treePTX(k.name, "tsum", "add.rn.f32"))
				loopPTX(b, k.name, "out", dd, load("a", 23, "a", "%x0")+load("b", 24, "b", "%x3")+exp("%x4", "%x3")+
					"\tmul.rn.f32 \t%x4, %x4, %acc;\n\tsub.rn.f32 \t%x5, %x0, %x4;\n"+store)
			}
		},
	}
}

// nllKernel is nll_loss over logp [N, C] (strides sn, sc) and int64
// targets (stride st), one block: forward writes dst[0] = -Σ logp[i, t_i]
// (÷ the count of targets ≠ ignore when mean ≠ 0); backward writes
// dst[i·gn + t_i·gc] = -grad[0] (÷ that count) into a zeroed grad_input.
func nllKernel(backward bool, t DType) rowKernel {
	name := "nll_loss_" + string(t)
	ps := []Param{{"dst", Ptr}, {"logp", Ptr}, {"target", Ptr}, {"n", U64}, {"sn", U64}, {"sc", U64}, {"st", U64}, {"ignore", U64}, {"mean", U64}}
	doc := "dst[0] = -sum_i logp[i, target[i]] (/ count if mean), target[i] != ignore"
	if backward {
		name = "nll_loss_backward_" + string(t)
		ps[1] = Param{"grad", Ptr}
		doc = "dst[i, target[i]] = -grad[0] (/ count if mean), on a zeroed dst with strides sn, sc"
	}
	return rowKernel{
		name: name, t: t, doc: doc, params: ps,
		main: func(b *strings.Builder, k rowKernel) {
			tgt := func() string {
				return fmt.Sprintf("\tmul.lo.u64 \t%%rd25, %%rd3, %s;\n", k.reg("st")) + addrPTX("%rd26", k.reg("target"), "%rd25", I64) +
					"\tld.global.s64 \t%rd27, [%rd26];\n" +
					fmt.Sprintf("\tsetp.ne.s64 \t%%pq4, %%rd27, %s;\n", k.reg("ignore"))
			}
			// elem computes the element offset i·sn + t·sc into %rd28.
			elem := fmt.Sprintf("\tmul.lo.u64 \t%%rd28, %%rd3, %s;\n\tmad.lo.u64 \t%%rd28, %%rd27, %s, %%rd28;\n", k.reg("sn"), k.reg("sc"))
			fmt.Fprintf(b, "\tmov.f32 \t%%acc, %s;\n\tmov.f32 \t%%cnt, %s;\n", zero, zero)
			if !backward {
				loopPTX(b, k.name, "sum", k.reg("n"), tgt()+elem+addrPTX("%rd29", k.reg("logp"), "%rd28", t)+
					"\tmov.f32 \t%x0, "+zero+";\n"+t.loadF32("%x0", "%rd29", "%pq4")+
					"\tsub.rn.f32 \t%acc, %acc, %x0;\n\t@%pq4 add.rn.f32 \t%cnt, %cnt, "+one+";\n")
				b.WriteString(treePTX(k.name, "tsum", "add.rn.f32"))
				b.WriteString("\tmov.f32 \t%x6, %acc;\n\tmov.f32 \t%acc, %cnt;\n")
				b.WriteString(treePTX(k.name, "tcnt", "add.rn.f32"))
				fmt.Fprintf(b, "\tsetp.ne.u32 \t%%pq3, %%ri0, 0;\n\t@%%pq3 bra \t$L_%s_exit;\n", k.name)
				fmt.Fprintf(b, "\tsetp.ne.u64 \t%%pq5, %s, 0;\n\t@%%pq5 div.rn.f32 \t%%x6, %%x6, %%acc;\n", k.reg("mean"))
				b.WriteString(t.storeF32(k.reg("dst"), "%x6"))
				return
			}
			loopPTX(b, k.name, "cnt", k.reg("n"), tgt()+"\t@%pq4 add.rn.f32 \t%cnt, %cnt, "+one+";\n")
			b.WriteString("\tmov.f32 \t%acc, %cnt;\n")
			b.WriteString(treePTX(k.name, "tcnt", "add.rn.f32"))
			b.WriteString(t.loadF32("%x6", k.reg("grad"), ""))
			b.WriteString("\tneg.f32 \t%x6, %x6;\n")
			fmt.Fprintf(b, "\tsetp.ne.u64 \t%%pq5, %s, 0;\n\t@%%pq5 div.rn.f32 \t%%x6, %%x6, %%acc;\n", k.reg("mean"))
			loopPTX(b, k.name, "out", k.reg("n"), tgt()+fmt.Sprintf("\t@!%%pq4 bra \t$L_%s_skip;\n", k.name)+elem+
				addrPTX("%rd29", k.reg("dst"), "%rd28", t)+t.storeF32("%rd29", "%x6")+fmt.Sprintf("$L_%s_skip:\n", k.name))
		},
	}
}

// rowsModule generates the row kernels for every float type.
func rowsModule() moduleSpec {
	var ks []kernelSpec
	for _, t := range DTypes {
		ks = append(ks, reduceRowsKernel(t))
		for _, m := range []SoftmaxMode{SoftmaxFwd, LogSoftmaxFwd, SoftmaxBwd, LogSoftmaxBwd} {
			ks = append(ks, softmaxKernel(m, t))
		}
		ks = append(ks, nllKernel(false, t), nllKernel(true, t))
	}
	ks = append(ks, reduceRows64Kernel{}, reduceRows64Kernel{s64: true})
	return moduleSpec{name: "rows", kernels: ks}
}
