package kernels

import (
	"fmt"
	"strings"
)

// RandKind is a generator kernel (rand_<kind>_<t>): a contiguous output
// filled from a counter-based hash of (seed, counter + index), so a value
// depends only on the seed, the counter and its index, never on the launch
// geometry. The values are not PyTorch's (Philox): they are deterministic
// and have the right distribution.
type RandKind string

// Generators.
const (
	RandUniform RandKind = "uniform" // s0 + (s1-s0)·u, u in [0, 1) with 24 bits
	RandNormal  RandKind = "normal"  // s0 + s1·z, z ~ N(0, 1) by Box–Muller
	RandArange  RandKind = "arange"  // s0 + i·s1 (no randomness; f32 arithmetic)
)

// Splitmix64 constants (the finaliser of Steele, Lea and Flood's
// SplitMix64), shared by the kernels and the Go reference.
const (
	SeedMul   = 0xD1B54A32D192ED03
	golden64  = 0x9E3779B97F4A7C15
	mixMul1   = 0xBF58476D1CE4E5B9
	mixMul2   = 0x94D049BB133111EB
	twoPowM24 = 0x33800000 // 2^-24 as f32 bits
)

// Hash is the generator's 64-bit value for element i: splitmix64 of
// seed·SeedMul + counter + i.
func Hash(seed, counter, i uint64) uint64 {
	z := seed*SeedMul + counter + i + golden64
	z = (z ^ z>>30) * mixMul1
	z = (z ^ z>>27) * mixMul2
	return z ^ z>>31
}

// randKernel generates one RandKind for type t; randint (t = I64) takes the
// integer bounds as lo and span.
type randKernel struct {
	kind RandKind
	t    DType
	ints bool // randint_i64: dst = lo + hash % span
}

func (k randKernel) name() string {
	if k.ints {
		return "randint_i64"
	}
	return fmt.Sprintf("rand_%s_%s", k.kind, k.t)
}

func (k randKernel) entry() Entry {
	e := Entry{Name: k.name()}
	switch {
	case k.ints:
		e.Doc = "dst[i] = lo + Hash(seed, counter, i) % span (int64)"
		e.Params = []Param{{"dst", Ptr}, {"n", U64}, {"seed", U64}, {"counter", U64}, {"lo", U64}, {"span", U64}}
		return e
	case k.kind == RandArange:
		e.Doc = "dst[i] = s0 + i·s1"
	case k.kind == RandUniform:
		e.Doc = "dst[i] = s0 + (s1-s0)·u(Hash(seed, counter, i))"
	default:
		e.Doc = "dst[i] = s0 + s1·BoxMuller(Hash(seed, counter, i))"
	}
	e.Params = []Param{{"dst", Ptr}, {"n", U64}, {"seed", U64}, {"counter", U64}, {"s0", Scalar}, {"s1", Scalar}}
	return e
}

// hashPTX computes the Hash of element %rd0 into %rd20 (seed %rd5,
// counter %rd6), using %rd21.
func hashPTX() string {
	var b strings.Builder
	fmt.Fprintf(&b, "\tmul.lo.u64 \t%%rd20, %%rd5, %d;\n", uint64(SeedMul))
	b.WriteString("\tadd.u64 \t%rd20, %rd20, %rd6;\n\tadd.u64 \t%rd20, %rd20, %rd0;\n")
	fmt.Fprintf(&b, "\tadd.u64 \t%%rd20, %%rd20, %d;\n", uint64(golden64))
	for _, st := range []struct {
		shift int
		mul   uint64
	}{{30, mixMul1}, {27, mixMul2}, {31, 0}} {
		fmt.Fprintf(&b, "\tshr.u64 \t%%rd21, %%rd20, %d;\n\txor.b64 \t%%rd20, %%rd20, %%rd21;\n", st.shift)
		if st.mul != 0 {
			fmt.Fprintf(&b, "\tmul.lo.u64 \t%%rd20, %%rd20, %d;\n", st.mul)
		}
	}
	return b.String()
}

func (k randKernel) body() string {
	e := k.entry()
	name := k.name()
	var b strings.Builder
	b.WriteString(entryHeader(e))
	b.WriteString(scratchRegs)
	b.WriteString(scratchRegs64)
	b.WriteString("\t.reg .pred \t%pq<4>;\n\t.reg .b64 \t%rd<32>;\n")
	b.WriteString("\t.reg .f32 \t%s<4>;\n\t.reg .f32 \t%t<8>;\n\t.reg .f32 \t%y;\n\n")
	b.WriteString(loadParam(e, "dst", "%rd4"))
	b.WriteString("\tcvta.to.global.u64 \t%rd4, %rd4;\n")
	b.WriteString(loadParam(e, "n", "%rd2"))
	b.WriteString(loadParam(e, "seed", "%rd5"))
	b.WriteString(loadParam(e, "counter", "%rd6"))
	if k.ints {
		b.WriteString(loadParam(e, "lo", "%rd7"))
		b.WriteString(loadParam(e, "span", "%rd8"))
	} else {
		b.WriteString(loadParam(e, "s0", "%s0"))
		b.WriteString(loadParam(e, "s1", "%s1"))
	}
	b.WriteString(gridStrideStart)
	fmt.Fprintf(&b, "$L_%s_loop:\n", name)
	fmt.Fprintf(&b, "\tsetp.ge.u64 \t%%pq0, %%rd0, %%rd2;\n\t@%%pq0 bra \t$L_%s_done;\n", name)
	fmt.Fprintf(&b, "\tshl.b64 \t%%rd3, %%rd0, %d;\n\tadd.u64 \t%%rd29, %%rd4, %%rd3;\n", k.t.shift())
	switch {
	case k.ints:
		b.WriteString(hashPTX())
		b.WriteString("\trem.u64 \t%rd22, %rd20, %rd8;\n\tadd.s64 \t%rd22, %rd22, %rd7;\n")
		b.WriteString("\tst.global.s64 \t[%rd29], %rd22;\n")
	case k.kind == RandArange:
		b.WriteString("\tcvt.rn.f32.u64 \t%t0, %rd0;\n\tfma.rn.f32 \t%y, %t0, %s1, %s0;\n")
		b.WriteString(k.t.storeF32("%rd29", "%y"))
	case k.kind == RandUniform:
		b.WriteString(hashPTX())
		b.WriteString("\tshr.u64 \t%rd21, %rd20, 40;\n\tcvt.rn.f32.u64 \t%t0, %rd21;\n")
		fmt.Fprintf(&b, "\tmul.rn.f32 \t%%t0, %%t0, %s;\n", f32Hex(twoPowM24))
		b.WriteString("\tsub.rn.f32 \t%t1, %s1, %s0;\n\tfma.rn.f32 \t%y, %t0, %t1, %s0;\n")
		b.WriteString(k.t.storeF32("%rd29", "%y"))
	default: // normal: u1 in (0, 1] from the high 24 bits, u2 in [0, 1) from the low 24
		b.WriteString(hashPTX())
		b.WriteString("\tshr.u64 \t%rd21, %rd20, 40;\n\tadd.u64 \t%rd21, %rd21, 1;\n\tcvt.rn.f32.u64 \t%t0, %rd21;\n")
		fmt.Fprintf(&b, "\tmul.rn.f32 \t%%t0, %%t0, %s;\n", f32Hex(twoPowM24))
		b.WriteString("\tand.b64 \t%rd22, %rd20, 16777215;\n\tcvt.rn.f32.u64 \t%t1, %rd22;\n")
		fmt.Fprintf(&b, "\tmul.rn.f32 \t%%t1, %%t1, %s;\n", f32Hex(twoPowM24))
		b.WriteString("\tlg2.approx.f32 \t%t2, %t0;\n")
		fmt.Fprintf(&b, "\tmul.rn.f32 \t%%t2, %%t2, %s;\n", fc(-2*0.6931471805599453))
		b.WriteString("\tsqrt.rn.f32 \t%t2, %t2;\n")
		fmt.Fprintf(&b, "\tmul.rn.f32 \t%%t3, %%t1, %s;\n", fc(2*3.141592653589793))
		b.WriteString("\tcos.approx.f32 \t%t3, %t3;\n\tmul.rn.f32 \t%t2, %t2, %t3;\n")
		b.WriteString("\tfma.rn.f32 \t%y, %t2, %s1, %s0;\n")
		b.WriteString(k.t.storeF32("%rd29", "%y"))
	}
	b.WriteString("\tadd.u64 \t%rd0, %rd0, %rd1;\n")
	fmt.Fprintf(&b, "\tbra.uni \t$L_%s_loop;\n$L_%s_done:\n\tret;\n}\n", name, name)
	return b.String()
}

// randomModule generates the generators for every float type, arange for
// int64 as well, and randint.
func randomModule() moduleSpec {
	var ks []kernelSpec
	for _, kind := range []RandKind{RandUniform, RandNormal, RandArange} {
		for _, t := range DTypes {
			ks = append(ks, randKernel{kind: kind, t: t})
		}
	}
	ks = append(ks, randKernel{kind: RandArange, t: I64}, randKernel{t: I64, ints: true})
	return moduleSpec{name: "random", kernels: ks}
}
