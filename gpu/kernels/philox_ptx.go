package kernels

import (
	"fmt"
	"math"
	"strings"
)

// philoxKernel generates philox_<kind>_<t>: element i of [0, n) computes
// its (thread, call, word) slot in PyTorch's launch (PhiloxArgs), the
// Philox block of counter ctr0 + call and subsequence thread under key
// seed, and the kind's transform (see PhiloxKind; gpu/refkern/philox.go is
// the same algorithm in Go).
type philoxKernel struct {
	kind PhiloxKind
	t    DType
}

func (k philoxKernel) entry() Entry {
	return Entry{
		Name: PhiloxKernelName(k.kind, k.t),
		Doc:  fmt.Sprintf("dst[i] = %s draw of element i of PyTorch's Philox launch (threads, vec), seed, ctr0 = offset/4; a, b, c: parameters (bits)", k.kind),
		Params: []Param{{"dst", Ptr}, {"n", U64}, {"seed", U64}, {"ctr0", U64}, {"threads", U64}, {"vec", U64},
			{"a", U64}, {"b", U64}, {"c", U64}},
	}
}

func d64(x float64) string { return fmt.Sprintf("0d%016X", math.Float64bits(x)) }

// Registers: %rd0 index, %rd1 stride, %rd2 n, %rd4 dst, %rd5 seed, %rd6
// ctr0, %rd7 threads, %rd8 vec, %rd9..11 a, b, c; %rd12.. slot scratch;
// %u0..3 the block, %u4..15 Philox scratch; %f, %d float scratch.
const philoxRegs = "\t.reg .pred \t%pq<8>;\n\t.reg .b64 \t%rd<48>;\n\t.reg .b32 \t%u<24>;\n" +
	"\t.reg .f32 \t%f<24>;\n\t.reg .f64 \t%d<40>;\n"

func (k philoxKernel) body() string {
	e := k.entry()
	name := e.Name
	var b strings.Builder
	b.WriteString(entryHeader(e))
	b.WriteString(scratchRegs)
	b.WriteString(scratchRegs64)
	b.WriteString(scratchRegsF64)
	b.WriteString(philoxRegs)
	b.WriteString(loadParam(e, "dst", "%rd4"))
	b.WriteString("\tcvta.to.global.u64 \t%rd4, %rd4;\n")
	for _, p := range []struct{ name, reg string }{{"n", "%rd2"}, {"seed", "%rd5"}, {"ctr0", "%rd6"}, {"threads", "%rd7"},
		{"vec", "%rd8"}, {"a", "%rd9"}, {"b", "%rd10"}, {"c", "%rd11"}} {
		b.WriteString(loadParam(e, p.name, p.reg))
	}
	b.WriteString(gridStrideStart)
	fmt.Fprintf(&b, "$L_%s_loop:\n", name)
	fmt.Fprintf(&b, "\tsetp.ge.u64 \t%%pq0, %%rd0, %%rd2;\n\t@%%pq0 bra \t$L_%s_done;\n", name)
	b.WriteString(philoxSlotPTX(name, PhiloxUnroll(k.kind, k.t)))
	b.WriteString(philoxBlockPTX())
	fmt.Fprintf(&b, "\tshl.b64 \t%%rd3, %%rd0, %d;\n\tadd.u64 \t%%rd29, %%rd4, %%rd3;\n", k.t.shift())
	b.WriteString(k.transform())
	b.WriteString("\tadd.u64 \t%rd0, %rd0, %rd1;\n")
	fmt.Fprintf(&b, "\tbra.uni \t$L_%s_loop;\n$L_%s_done:\n\tret;\n}\n", name, name)
	return b.String()
}

// philoxSlotPTX sets %rd14 = thread, %rd15 = call, %rd18 = word of
// element %rd0 (refkern.PhiloxSlot).
func philoxSlotPTX(name string, unroll int64) string {
	shift := 2
	if unroll == 2 {
		shift = 1
	}
	var b strings.Builder
	fmt.Fprintf(&b, "\tsetp.gt.u64 \t%%pq1, %%rd8, 1;\n\t@%%pq1 bra \t$L_%s_vec;\n", name)
	b.WriteString("\trem.u64 \t%rd14, %rd0, %rd7;\n\tdiv.u64 \t%rd13, %rd0, %rd7;\n")
	fmt.Fprintf(&b, "\tshr.u64 \t%%rd15, %%rd13, %d;\n\tand.b64 \t%%rd18, %%rd13, %d;\n", shift, unroll-1)
	fmt.Fprintf(&b, "\tbra.uni \t$L_%s_slot;\n$L_%s_vec:\n", name, name)
	b.WriteString("\trem.u64 \t%rd12, %rd0, %rd8;\n\tdiv.u64 \t%rd13, %rd0, %rd8;\n")
	b.WriteString("\trem.u64 \t%rd14, %rd13, %rd7;\n\tdiv.u64 \t%rd15, %rd13, %rd7;\n")
	b.WriteString("\tadd.u64 \t%rd16, %rd8, 3;\n\tshr.u64 \t%rd16, %rd16, 2;\n\tmul.lo.u64 \t%rd15, %rd15, %rd16;\n")
	b.WriteString("\tshr.u64 \t%rd17, %rd12, 2;\n\tadd.u64 \t%rd15, %rd15, %rd17;\n\tand.b64 \t%rd18, %rd12, 3;\n")
	fmt.Fprintf(&b, "$L_%s_slot:\n", name)
	return b.String()
}

// philoxBlockPTX computes the Philox4x32-10 block of counter
// (%rd6 + %rd15, %rd14) and key %rd5 into %u0..%u3.
func philoxBlockPTX() string {
	var b strings.Builder
	b.WriteString("\tadd.u64 \t%rd19, %rd6, %rd15;\n")
	b.WriteString("\tcvt.u32.u64 \t%u0, %rd19;\n\tshr.u64 \t%rd20, %rd19, 32;\n\tcvt.u32.u64 \t%u1, %rd20;\n")
	b.WriteString("\tcvt.u32.u64 \t%u2, %rd14;\n\tshr.u64 \t%rd20, %rd14, 32;\n\tcvt.u32.u64 \t%u3, %rd20;\n")
	b.WriteString("\tcvt.u32.u64 \t%u4, %rd5;\n\tshr.u64 \t%rd20, %rd5, 32;\n\tcvt.u32.u64 \t%u5, %rd20;\n")
	for r := 0; r < 10; r++ {
		if r > 0 {
			fmt.Fprintf(&b, "\tadd.u32 \t%%u4, %%u4, %d;\n\tadd.u32 \t%%u5, %%u5, %d;\n", PhiloxW0, PhiloxW1)
		}
		fmt.Fprintf(&b, "\tmul.hi.u32 \t%%u6, %%u0, %d;\n\tmul.lo.u32 \t%%u7, %%u0, %d;\n", PhiloxM0, PhiloxM0)
		fmt.Fprintf(&b, "\tmul.hi.u32 \t%%u8, %%u2, %d;\n\tmul.lo.u32 \t%%u9, %%u2, %d;\n", PhiloxM1, PhiloxM1)
		b.WriteString("\txor.b32 \t%u8, %u8, %u1;\n\txor.b32 \t%u0, %u8, %u4;\n\tmov.b32 \t%u1, %u9;\n")
		b.WriteString("\txor.b32 \t%u6, %u6, %u3;\n\txor.b32 \t%u2, %u6, %u5;\n\tmov.b32 \t%u3, %u7;\n")
	}
	return b.String()
}

// pickWord sets dst to word %rd18 of the block.
func pickWord(dst string) string {
	return "\tsetp.eq.u64 \t%pq2, %rd18, 1;\n\tsetp.eq.u64 \t%pq3, %rd18, 2;\n\tsetp.eq.u64 \t%pq4, %rd18, 3;\n" +
		fmt.Sprintf("\tmov.b32 \t%s, %%u0;\n\t@%%pq2 mov.b32 \t%s, %%u1;\n\t@%%pq3 mov.b32 \t%s, %%u2;\n\t@%%pq4 mov.b32 \t%s, %%u3;\n",
			dst, dst, dst, dst)
}

// pickPair sets %u10, %u11 to word pair %rd18 (0: words 0, 1; 1: 2, 3).
func pickPair() string {
	return "\tsetp.ne.u64 \t%pq2, %rd18, 0;\n\tselp.b32 \t%u10, %u2, %u0, %pq2;\n\tselp.b32 \t%u11, %u3, %u1, %pq2;\n"
}

// uniform32 sets %f0 = curand_uniform(%u10).
const uniform32 = "\tcvt.rn.f32.u32 \t%f0, %u10;\n\tfma.rn.f32 \t%f0, %f0, 0f2F800000, 0f2F000000;\n"

// doubleOf sets dst = (lo ^ hi<<21) as f64 (exact), using %rd21, %rd22.
func doubleOf(dst, lo, hi string) string {
	return fmt.Sprintf("\tcvt.u64.u32 \t%%rd21, %s;\n\tcvt.u64.u32 \t%%rd22, %s;\n\tshl.b64 \t%%rd22, %%rd22, 21;\n", lo, hi) +
		fmt.Sprintf("\txor.b64 \t%%rd21, %%rd21, %%rd22;\n\tcvt.rn.f64.u64 \t%s, %%rd21;\n", dst)
}

// roundPTX rounds the f32 %f1 to t's precision in place (RNE; the values
// are finite).
func roundPTX(t DType) string {
	switch t {
	case F16:
		return "\tcvt.rn.f16.f32 \t%h0, %f1;\n\tcvt.f32.f16 \t%f1, %h0;\n"
	case BF16:
		return "\tmov.b32 \t%u12, %f1;\n\tshr.u32 \t%u13, %u12, 16;\n\tand.b32 \t%u13, %u13, 1;\n" +
			"\tadd.u32 \t%u13, %u13, 32767;\n\tadd.u32 \t%u12, %u12, %u13;\n\tand.b32 \t%u12, %u12, -65536;\n\tmov.b32 \t%f1, %u12;\n"
	}
	return ""
}

func (k philoxKernel) transform() string {
	var b strings.Builder
	f64 := k.t == F64
	switch {
	case k.kind == PhiloxRandInt32:
		b.WriteString(pickWord("%u10"))
		b.WriteString("\tcvt.u64.u32 \t%rd21, %u10;\n\trem.u64 \t%rd21, %rd21, %rd10;\n\tadd.u64 \t%rd21, %rd21, %rd9;\n")
		b.WriteString("\tst.global.s64 \t[%rd29], %rd21;\n")
	case k.kind == PhiloxRandInt64:
		b.WriteString(pickPair())
		b.WriteString("\tcvt.u64.u32 \t%rd21, %u10;\n\tshl.b64 \t%rd21, %rd21, 32;\n\tcvt.u64.u32 \t%rd22, %u11;\n\tor.b64 \t%rd21, %rd21, %rd22;\n")
		b.WriteString("\trem.u64 \t%rd21, %rd21, %rd10;\n\tadd.u64 \t%rd21, %rd21, %rd9;\n\tst.global.s64 \t[%rd29], %rd21;\n")
	case k.kind == PhiloxRaw:
		b.WriteString(pickWord("%u10"))
		b.WriteString(uniform32)
		b.WriteString("\tst.global.f32 \t[%rd29], %f0;\n")
	case k.kind == PhiloxNormal && f64:
		b.WriteString(doubleOf("%d0", "%u0", "%u1"))
		b.WriteString(fmt.Sprintf("\tfma.rn.f64 \t%%d0, %%d0, %s, %s;\n", d64(0x1p-53), d64(0x1p-54)))
		b.WriteString(doubleOf("%d1", "%u2", "%u3"))
		b.WriteString(fmt.Sprintf("\tfma.rn.f64 \t%%d1, %%d1, %s, %s;\n", d64(0x1p-52), d64(0x1p-53)))
		b.WriteString(log64PTX("%d2", "%d0"))
		b.WriteString(fmt.Sprintf("\tmul.rn.f64 \t%%d2, %%d2, %s;\n\tsqrt.rn.f64 \t%%d2, %%d2;\n", d64(-2)))
		b.WriteString(sinCosPi64PTX("%d3", "%d4", "%d1"))
		b.WriteString("\tsetp.ne.u64 \t%pq2, %rd18, 0;\n\tselp.f64 \t%d3, %d4, %d3, %pq2;\n\tmul.rn.f64 \t%d3, %d3, %d2;\n")
		b.WriteString("\tmov.b64 \t%d5, %rd9;\n\tmov.b64 \t%d6, %rd10;\n\tfma.rn.f64 \t%d3, %d3, %d6, %d5;\n")
		b.WriteString("\tst.global.f64 \t[%rd29], %d3;\n")
	case k.kind == PhiloxNormal:
		b.WriteString("\tsetp.gt.u64 \t%pq2, %rd18, 1;\n\tselp.b32 \t%u10, %u2, %u0, %pq2;\n\tselp.b32 \t%u11, %u3, %u1, %pq2;\n")
		b.WriteString(uniform32)
		tp := float32(2*math.Pi) * 0x1p-32
		fmt.Fprintf(&b, "\tcvt.rn.f32.u32 \t%%f2, %%u11;\n\tfma.rn.f32 \t%%f2, %%f2, %s, %s;\n", fc(float64(tp)), fc(float64(tp/2)))
		b.WriteString("\tcvt.f64.f32 \t%d0, %f0;\n")
		b.WriteString(log64PTX("%d2", "%d0"))
		b.WriteString("\tcvt.rn.f32.f64 \t%f3, %d2;\n\tmul.rn.f32 \t%f3, %f3, 0fC0000000;\n\tsqrt.rn.f32 \t%f3, %f3;\n")
		b.WriteString("\tsin.approx.f32 \t%f4, %f2;\n\tcos.approx.f32 \t%f5, %f2;\n")
		b.WriteString("\tand.b64 \t%rd23, %rd18, 1;\n\tsetp.ne.u64 \t%pq3, %rd23, 0;\n\tselp.f32 \t%f4, %f5, %f4, %pq3;\n")
		b.WriteString("\tmul.rn.f32 \t%f4, %f4, %f3;\n")
		b.WriteString("\tmov.b64 \t%d5, %rd9;\n\tcvt.rn.f32.f64 \t%f6, %d5;\n\tmov.b64 \t%d6, %rd10;\n\tcvt.rn.f32.f64 \t%f7, %d6;\n")
		b.WriteString("\tfma.rn.f32 \t%f1, %f4, %f7, %f6;\n")
		b.WriteString(k.t.storeF32("%rd29", "%f1"))
	case f64: // uniform, bernoulli
		b.WriteString(pickPair())
		b.WriteString(doubleOf("%d0", "%u10", "%u11"))
		b.WriteString(fmt.Sprintf("\tfma.rn.f64 \t%%d0, %%d0, %s, %s;\n", d64(0x1p-53), d64(0x1p-54)))
		b.WriteString("\tmov.b64 \t%d5, %rd9;\n\tmov.b64 \t%d6, %rd10;\n\tmov.b64 \t%d7, %rd11;\n")
		if k.kind == PhiloxBernoulli {
			b.WriteString("\tsetp.lt.f64 \t%pq2, %d0, %d5;\n\tselp.f64 \t%d1, 0d3FF0000000000000, 0d0000000000000000, %pq2;\n")
		} else {
			b.WriteString("\tfma.rn.f64 \t%d1, %d0, %d6, %d5;\n\tsetp.eq.f64 \t%pq2, %d1, %d7;\n\tselp.f64 \t%d1, %d5, %d1, %pq2;\n")
		}
		b.WriteString("\tst.global.f64 \t[%rd29], %d1;\n")
	default: // uniform, bernoulli in f32 opmath
		b.WriteString(pickWord("%u10"))
		b.WriteString(uniform32)
		b.WriteString("\tmov.b64 \t%d5, %rd9;\n\tcvt.rn.f32.f64 \t%f6, %d5;\n\tmov.b64 \t%d6, %rd10;\n\tcvt.rn.f32.f64 \t%f7, %d6;\n")
		b.WriteString("\tmov.b64 \t%d7, %rd11;\n\tcvt.rn.f32.f64 \t%f8, %d7;\n")
		if k.kind == PhiloxBernoulli {
			b.WriteString("\tsetp.lt.f32 \t%pq2, %f0, %f6;\n\tselp.f32 \t%f1, 0f3F800000, 0f00000000, %pq2;\n")
		} else {
			b.WriteString("\tfma.rn.f32 \t%f1, %f0, %f7, %f6;\n")
			b.WriteString(roundPTX(k.t))
			b.WriteString("\tsetp.eq.f32 \t%pq2, %f1, %f8;\n\tselp.f32 \t%f1, %f6, %f1, %pq2;\n")
		}
		b.WriteString(k.t.storeF32("%rd29", "%f1"))
	}
	return b.String()
}

// log64PTX sets dst = log(src) for a positive normal f64 (refkern.Log64),
// using %d10..%d19 and %rd24..%rd26, %pq5.
func log64PTX(dst, src string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "\tmov.b64 \t%%rd24, %s;\n\tshr.u64 \t%%rd25, %%rd24, 52;\n\tsub.s64 \t%%rd25, %%rd25, 1023;\n", src)
	b.WriteString("\tand.b64 \t%rd24, %rd24, 4503599627370495;\n\tor.b64 \t%rd24, %rd24, 4607182418800017408;\n\tmov.b64 \t%d10, %rd24;\n")
	fmt.Fprintf(&b, "\tsetp.gt.f64 \t%%pq5, %%d10, %s;\n", d64(math.Sqrt2))
	fmt.Fprintf(&b, "\t@%%pq5 mul.rn.f64 \t%%d10, %%d10, %s;\n\t@%%pq5 add.s64 \t%%rd25, %%rd25, 1;\n", d64(0.5))
	fmt.Fprintf(&b, "\tsub.rn.f64 \t%%d11, %%d10, %s;\n\tadd.rn.f64 \t%%d12, %%d11, %s;\n", d64(1), d64(2))
	b.WriteString("\tdiv.rn.f64 \t%d13, %d11, %d12;\n\tmul.rn.f64 \t%d14, %d13, %d13;\n")
	c := LogSeries
	fmt.Fprintf(&b, "\tmov.f64 \t%%d15, %s;\n", d64(c[len(c)-1]))
	for j := len(c) - 2; j >= 0; j-- {
		fmt.Fprintf(&b, "\tfma.rn.f64 \t%%d15, %%d15, %%d14, %s;\n", d64(c[j]))
	}
	b.WriteString("\tmul.rn.f64 \t%d16, %d13, %d14;\n\tadd.rn.f64 \t%d17, %d13, %d13;\n\tfma.rn.f64 \t%d18, %d16, %d15, %d17;\n")
	b.WriteString("\tcvt.rn.f64.s64 \t%d19, %rd25;\n")
	fmt.Fprintf(&b, "\tfma.rn.f64 \t%%d18, %%d19, %s, %%d18;\n\tfma.rn.f64 \t%s, %%d19, %s, %%d18;\n", d64(Ln2Lo), dst, d64(Ln2Hi))
	return b.String()
}

// sinCosPi64PTX sets sin, cos = sin πv, cos πv for 0 ≤ v ≤ 2
// (refkern.SinCosPi64), using %d20..%d31, %rd27, %rd28, %pq6, %pq7.
func sinCosPi64PTX(sin, cos, v string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "\tadd.rn.f64 \t%%d20, %s, %s;\n\tcvt.rni.f64.f64 \t%%d21, %%d20;\n\tsub.rn.f64 \t%%d22, %%d20, %%d21;\n", v, v)
	fmt.Fprintf(&b, "\tmul.rn.f64 \t%%d22, %%d22, %s;\n\tmul.rn.f64 \t%%d23, %%d22, %%d22;\n", d64(PiOver2))
	horner := func(reg string, c []float64) {
		fmt.Fprintf(&b, "\tmov.f64 \t%s, %s;\n", reg, d64(c[len(c)-1]))
		for j := len(c) - 2; j >= 0; j-- {
			fmt.Fprintf(&b, "\tfma.rn.f64 \t%s, %s, %%d23, %s;\n", reg, reg, d64(c[j]))
		}
	}
	horner("%d24", SinSeries)
	horner("%d25", CosSeries)
	b.WriteString("\tmul.rn.f64 \t%d26, %d22, %d23;\n\tfma.rn.f64 \t%d27, %d26, %d24, %d22;\n")
	fmt.Fprintf(&b, "\tfma.rn.f64 \t%%d28, %%d23, %%d25, %s;\n", d64(1))
	// Quadrant q & 3: sin takes cos on odd q, negated for q = 2, 3; cos
	// takes sin on odd q, negated for q = 1, 2.
	b.WriteString("\tcvt.rzi.s64.f64 \t%rd27, %d21;\n\tand.b64 \t%rd27, %rd27, 3;\n")
	b.WriteString("\tand.b64 \t%rd28, %rd27, 1;\n\tsetp.ne.u64 \t%pq6, %rd28, 0;\n")
	fmt.Fprintf(&b, "\tselp.f64 \t%s, %%d28, %%d27, %%pq6;\n\tselp.f64 \t%s, %%d27, %%d28, %%pq6;\n", sin, cos)
	fmt.Fprintf(&b, "\tsetp.ge.u64 \t%%pq7, %%rd27, 2;\n\t@%%pq7 neg.f64 \t%s, %s;\n", sin, sin)
	b.WriteString("\tshr.u64 \t%rd28, %rd27, 1;\n\txor.b64 \t%rd28, %rd28, %rd27;\n\tand.b64 \t%rd28, %rd28, 1;\n")
	fmt.Fprintf(&b, "\tsetp.ne.u64 \t%%pq7, %%rd28, 0;\n\t@%%pq7 neg.f64 \t%s, %s;\n", cos, cos)
	return b.String()
}

// philoxModule generates every kind for its types.
func philoxModule() moduleSpec {
	var ks []kernelSpec
	for _, kind := range PhiloxKinds {
		for _, t := range PhiloxTypes(kind) {
			ks = append(ks, philoxKernel{kind: kind, t: t})
		}
	}
	return moduleSpec{name: "philox", kernels: ks}
}
