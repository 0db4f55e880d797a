package kernels

import (
	"fmt"
	"math"
	"strings"
)

// softmax_<mode>_f64 and nll_loss[_backward]_f64 of module linalg_f64, and
// the f64 exp and log they need (PTX has no f64 transcendental
// instructions): exp by Cody–Waite reduction to |r| ≤ ln2/2 and a
// degree-13 Taylor polynomial (truncation below 1e-17), log by the
// exponent and atanh series of the mantissa in [√½, √2) (terms to s²¹);
// both within a few ulps of the correctly rounded value.

// fdlibm's split of ln 2: k·ln2Hi is exact for |k| < 2^11.
const (
	ln2Hi = 6.93147180369123816490e-01
	ln2Lo = 1.90821492927058770002e-10
)

// expF64PTX sets dst = exp(src) (f64 registers; uses %fe0..%fe5, %re0..2,
// %rde0..1, %pe0). Inputs are clamped to [−746, 710], which keeps the
// result's 0 and inf; NaN stays NaN.
func expF64PTX(dst, src string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "\tmax.f64 \t%%fe0, %s, %s;\n\tmin.f64 \t%%fe0, %%fe0, %s;\n", src, f64c(-746), f64c(710))
	fmt.Fprintf(&b, "\tmul.f64 \t%%fe1, %%fe0, %s;\n\tcvt.rni.f64.f64 \t%%fe1, %%fe1;\n", f64c(math.Log2E))
	fmt.Fprintf(&b, "\tfma.rn.f64 \t%%fe2, %%fe1, %s, %%fe0;\n\tfma.rn.f64 \t%%fe2, %%fe1, %s, %%fe2;\n", f64c(-ln2Hi), f64c(-ln2Lo))
	fact := 1.0
	for n := 2; n <= 13; n++ {
		fact *= float64(n)
	}
	fmt.Fprintf(&b, "\tmov.f64 \t%%fe3, %s;\n", f64c(1/fact)) // 1/13!
	for n := 12; n >= 0; n-- {
		fact /= float64(n + 1)
		fmt.Fprintf(&b, "\tfma.rn.f64 \t%%fe3, %%fe3, %%fe2, %s;\n", f64c(1/fact)) // 1/n!
	}
	// 2^k as 2^k1 · 2^k2 (each a normal power of two for |k| ≤ 1076)
	b.WriteString("\tcvt.rni.s32.f64 \t%re0, %fe1;\n\tshr.s32 \t%re1, %re0, 1;\n\tsub.s32 \t%re2, %re0, %re1;\n")
	b.WriteString("\tadd.s32 \t%re1, %re1, 1023;\n\tadd.s32 \t%re2, %re2, 1023;\n")
	b.WriteString("\tcvt.u64.u32 \t%rde0, %re1;\n\tshl.b64 \t%rde0, %rde0, 52;\n\tmov.b64 \t%fe4, %rde0;\n")
	b.WriteString("\tcvt.u64.u32 \t%rde1, %re2;\n\tshl.b64 \t%rde1, %rde1, 52;\n\tmov.b64 \t%fe5, %rde1;\n")
	b.WriteString("\tmul.rn.f64 \t%fe3, %fe3, %fe4;\n\tmul.rn.f64 \t%fe3, %fe3, %fe5;\n")
	fmt.Fprintf(&b, "\tsetp.nan.f64 \t%%pe0, %s, %s;\n\tselp.f64 \t%s, %s, %%fe3, %%pe0;\n", src, src, dst, src)
	return b.String()
}

// logF64PTX sets dst = log(src) for a positive normal or infinite src (the
// softmax sums, which are at least 1); NaN stays NaN. Uses %fe0..%fe5,
// %rde0..1, %pe0..1.
func logF64PTX(dst, src string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "\tmov.b64 \t%%rde0, %s;\n\tshr.u64 \t%%rde1, %%rde0, 52;\n", src)
	b.WriteString("\tand.b64 \t%rde0, %rde0, 0x000FFFFFFFFFFFFF;\n\tor.b64 \t%rde0, %rde0, 0x3FF0000000000000;\n")
	fmt.Fprintf(&b, "\tmov.b64 \t%%fe0, %%rde0;\n\tcvt.rn.f64.u64 \t%%fe1, %%rde1;\n\tsub.f64 \t%%fe1, %%fe1, %s;\n", f64c(1023))
	fmt.Fprintf(&b, "\tsetp.gt.f64 \t%%pe0, %%fe0, %s;\n\t@%%pe0 mul.f64 \t%%fe0, %%fe0, %s;\n\t@%%pe0 add.f64 \t%%fe1, %%fe1, %s;\n",
		f64c(math.Sqrt2), f64c(0.5), f64c(1))
	fmt.Fprintf(&b, "\tsub.f64 \t%%fe2, %%fe0, %s;\n\tadd.f64 \t%%fe3, %%fe0, %s;\n\tdiv.rn.f64 \t%%fe2, %%fe2, %%fe3;\n", f64c(1), f64c(1))
	b.WriteString("\tmul.f64 \t%fe3, %fe2, %fe2;\n")
	fmt.Fprintf(&b, "\tmov.f64 \t%%fe4, %s;\n", f64c(1.0/21))
	for n := 19; n >= 1; n -= 2 {
		fmt.Fprintf(&b, "\tfma.rn.f64 \t%%fe4, %%fe4, %%fe3, %s;\n", f64c(1/float64(n)))
	}
	b.WriteString("\tadd.f64 \t%fe2, %fe2, %fe2;\n\tmul.f64 \t%fe4, %fe4, %fe2;\n")
	fmt.Fprintf(&b, "\tfma.rn.f64 \t%%fe4, %%fe1, %s, %%fe4;\n\tfma.rn.f64 \t%%fe4, %%fe1, %s, %%fe4;\n", f64c(ln2Lo), f64c(ln2Hi))
	fmt.Fprintf(&b, "\tsetp.geu.f64 \t%%pe1, %s, %s;\n\tselp.f64 \t%s, %s, %%fe4, %%pe1;\n", src, f64c(math.Inf(1)), dst, src)
	return b.String()
}

// softmaxF64 is softmax_<mode>_f64 with the parameters of softmaxKernel:
// thread 0 of block r does row r in order (max, then the sum, then the
// outputs), as PyTorch's epilogues: exp(x − max) / Σ, x − (max + log Σ),
// y·(g − Σ g·y), g − exp(y)·Σ g.
func softmaxF64(mode SoftmaxMode) f64Kernel {
	rk := softmaxKernel(mode, F64)
	e := Entry{Name: rk.name, Doc: rk.doc + " (f64, one thread per row)", Params: rk.params}
	r := func(n string) string { return preg(e, n) }
	var b strings.Builder
	b.WriteString("\tmov.u32 \t%r1, %tid.x;\n\tsetp.ne.u32 \t%p0, %r1, 0;\n\t@%p0 bra \t$K_ret;\n")
	b.WriteString("\tmov.u32 \t%r2, %ctaid.x;\n\tcvt.u64.u32 \t%rd1, %r2;\n")
	fmt.Fprintf(&b, "\trem.u64 \t%%rd2, %%rd1, %s;\n\tdiv.u64 \t%%rd3, %%rd1, %s;\n", r("nq"), r("nq"))
	// bases: %rd4 dst, %rd5 a, %rd6 b
	for i, x := range []string{"o", "a", "b"} {
		fmt.Fprintf(&b, "\tmul.lo.u64 \t%%rd%d, %%rd3, %s;\n\tmad.lo.u64 \t%%rd%d, %%rd2, %s, %%rd%d;\n", 4+i, r("s"+x+"_o"), 4+i, r("s"+x+"_q"), 4+i)
	}
	ptr := map[string]string{"o": r("dst"), "a": r("a"), "b": r("b")}
	base := map[string]string{"o": "%rd4", "a": "%rd5", "b": "%rd6"}
	load := func(x, reg string) string {
		return fmt.Sprintf("\tmad.lo.u64 \t%%rd30, %%rd7, %s, %s;\n", r("s"+x+"_d"), base[x]) +
			elemAddr("%rd31", ptr[x], "%rd30") + fmt.Sprintf("\tld.global.f64 \t%s, [%%rd31];\n", reg)
	}
	store := func(reg string) string {
		return fmt.Sprintf("\tmad.lo.u64 \t%%rd30, %%rd7, %s, %%rd4;\n", r("so_d")) +
			elemAddr("%rd31", ptr["o"], "%rd30") + fmt.Sprintf("\tst.global.f64 \t[%%rd31], %s;\n", reg)
	}
	loop := func(name, body string) {
		fmt.Fprintf(&b, "\tmov.u64 \t%%rd7, 0;\n$K_%s:\n\tsetp.ge.u64 \t%%p1, %%rd7, %s;\n\t@%%p1 bra \t$K_%s_end;\n", name, r("dd"), name)
		b.WriteString(body)
		fmt.Fprintf(&b, "\tadd.u64 \t%%rd7, %%rd7, 1;\n\tbra.uni \t$K_%s;\n$K_%s_end:\n", name, name)
	}
	zero := f64c(0)
	switch mode {
	case SoftmaxFwd, LogSoftmaxFwd:
		fmt.Fprintf(&b, "\tmov.f64 \t%%fd1, %s;\n", f64c(-math.MaxFloat64))
		loop("max", load("a", "%fd2")+"\tmax.f64 \t%fd1, %fd1, %fd2;\n")
		fmt.Fprintf(&b, "\tmov.f64 \t%%fd3, %s;\n", zero)
		loop("sum", load("a", "%fd2")+"\tsub.rn.f64 \t%fd2, %fd2, %fd1;\n"+expF64PTX("%fd4", "%fd2")+"\tadd.rn.f64 \t%fd3, %fd3, %fd4;\n")
		if mode == SoftmaxFwd {
			loop("out", load("a", "%fd2")+"\tsub.rn.f64 \t%fd2, %fd2, %fd1;\n"+expF64PTX("%fd4", "%fd2")+
				"\tdiv.rn.f64 \t%fd5, %fd4, %fd3;\n"+store("%fd5"))
		} else {
			b.WriteString(logF64PTX("%fd6", "%fd3") + "\tadd.rn.f64 \t%fd6, %fd6, %fd1;\n")
			loop("out", load("a", "%fd2")+"\tsub.rn.f64 \t%fd5, %fd2, %fd6;\n"+store("%fd5"))
		}
	case SoftmaxBwd:
		fmt.Fprintf(&b, "\tmov.f64 \t%%fd3, %s;\n", zero)
		loop("dot", load("a", "%fd2")+load("b", "%fd4")+"\tfma.rn.f64 \t%fd3, %fd2, %fd4, %fd3;\n")
		loop("out", load("a", "%fd2")+load("b", "%fd4")+"\tsub.rn.f64 \t%fd5, %fd2, %fd3;\n\tmul.rn.f64 \t%fd5, %fd4, %fd5;\n"+store("%fd5"))
	case LogSoftmaxBwd:
		fmt.Fprintf(&b, "\tmov.f64 \t%%fd3, %s;\n", zero)
		loop("sum", load("a", "%fd2")+"\tadd.rn.f64 \t%fd3, %fd3, %fd2;\n")
		loop("out", load("a", "%fd2")+load("b", "%fd4")+expF64PTX("%fd5", "%fd4")+
			"\tmul.rn.f64 \t%fd5, %fd5, %fd3;\n\tsub.rn.f64 \t%fd5, %fd2, %fd5;\n"+store("%fd5"))
	}
	return f64Kernel{e: e, main: b.String()}
}

// nllF64 is nll_loss[_backward]_f64 with nllKernel's parameters, thread 0
// of the one block in target order: forward dst[0] = −Σ logp[i, t_i]
// (÷ count if mean), backward dst[i, t_i] = −(grad ÷ count if mean).
func nllF64(backward bool) f64Kernel {
	rk := nllKernel(backward, F64)
	e := Entry{Name: rk.name, Doc: rk.doc + " (f64, one thread)", Params: rk.params}
	r := func(n string) string { return preg(e, n) }
	src := "logp"
	if backward {
		src = "grad"
	}
	var b strings.Builder
	b.WriteString("\tmov.u32 \t%r1, %tid.x;\n\tsetp.ne.u32 \t%p0, %r1, 0;\n\t@%p0 bra \t$K_ret;\n")
	// count (and the forward's sum) over the targets
	fmt.Fprintf(&b, "\tmov.f64 \t%%fd1, %s;\n\tmov.f64 \t%%fd2, %s;\n\tmov.u64 \t%%rd7, 0;\n$K_count:\n", f64c(0), f64c(0))
	fmt.Fprintf(&b, "\tsetp.ge.u64 \t%%p1, %%rd7, %s;\n\t@%%p1 bra \t$K_count_end;\n", r("n"))
	tgt := fmt.Sprintf("\tmul.lo.u64 \t%%rd30, %%rd7, %s;\n", r("st")) + elemAddr("%rd31", r("target"), "%rd30") +
		"\tld.global.s64 \t%rd8, [%rd31];\n" + fmt.Sprintf("\tsetp.eq.s64 \t%%p2, %%rd8, %s;\n", r("ignore"))
	b.WriteString(tgt + "\t@%p2 bra \t$K_count_next;\n")
	fmt.Fprintf(&b, "\tadd.f64 \t%%fd2, %%fd2, %s;\n", f64c(1))
	if !backward {
		fmt.Fprintf(&b, "\tmul.lo.u64 \t%%rd30, %%rd7, %s;\n\tmad.lo.u64 \t%%rd30, %%rd8, %s, %%rd30;\n", r("sn"), r("sc"))
		b.WriteString(elemAddr("%rd31", r(src), "%rd30") + "\tld.global.f64 \t%fd3, [%rd31];\n\tsub.rn.f64 \t%fd1, %fd1, %fd3;\n")
	}
	b.WriteString("$K_count_next:\n\tadd.u64 \t%rd7, %rd7, 1;\n\tbra.uni \t$K_count;\n$K_count_end:\n")
	fmt.Fprintf(&b, "\tsetp.ne.u64 \t%%p3, %s, 0;\n", r("mean"))
	if !backward {
		b.WriteString("\t@%p3 div.rn.f64 \t%fd1, %fd1, %fd2;\n")
		b.WriteString(elemAddr("%rd31", r("dst"), "%rd9") + "\tst.global.f64 \t[%rd31], %fd1;\n")
		return f64Kernel{e: e, main: "\tmov.u64 \t%rd9, 0;\n" + b.String()}
	}
	fmt.Fprintf(&b, "\tld.global.f64 \t%%fd4, [%s];\n\t@%%p3 div.rn.f64 \t%%fd4, %%fd4, %%fd2;\n\tneg.f64 \t%%fd4, %%fd4;\n", r(src))
	fmt.Fprintf(&b, "\tmov.u64 \t%%rd7, 0;\n$K_write:\n\tsetp.ge.u64 \t%%p1, %%rd7, %s;\n\t@%%p1 bra \t$K_ret;\n", r("n"))
	b.WriteString(tgt + "\t@%p2 bra \t$K_write_next;\n")
	fmt.Fprintf(&b, "\tmul.lo.u64 \t%%rd30, %%rd7, %s;\n\tmad.lo.u64 \t%%rd30, %%rd8, %s, %%rd30;\n", r("sn"), r("sc"))
	b.WriteString(elemAddr("%rd31", r("dst"), "%rd30") + "\tst.global.f64 \t[%rd31], %fd4;\n")
	b.WriteString("$K_write_next:\n\tadd.u64 \t%rd7, %rd7, 1;\n\tbra.uni \t$K_write;\n")
	return f64Kernel{e: e, main: b.String()}
}
