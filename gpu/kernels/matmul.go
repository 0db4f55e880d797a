package kernels

import (
	"fmt"
	"strings"
)

// MatmulTile is the tile edge of the matmul kernels: launch blocks of
// MatmulTile×MatmulTile threads and a grid of ceil(N/tile)×ceil(M/tile).
const MatmulTile = 16

// matmulKernel computes C[M,N] = A[M,K] · B[K,N] with f32 accumulation.
// A and B are read through element strides (A(i,k) = A[i*sa0 + k*sa1]), so
// transposed operands need no copy; C is written contiguous (row stride N).
// Each block stages a MatmulTile² tile of A and of B in shared memory per
// step of K: the textbook tiled kernel, not a tuned GEMM.
//
// The batched variant (bmm_<t>) adds the batch index blockIdx.z: operand x
// of batch z starts at element z·sxb, and C has its own strides sc0, sc1.
type matmulKernel struct {
	t       DType
	batched bool
}

func (k matmulKernel) name() string {
	if k.batched {
		return "bmm_" + string(k.t)
	}
	return "matmul_" + string(k.t)
}

func (k matmulKernel) entry() Entry {
	if k.batched {
		return Entry{
			Name: k.name(),
			Doc: fmt.Sprintf("C[z*scb+i*sc0+j*sc1] = sum_k A[z*sab+i*sa0+k*sa1] * B[z*sbb+k*sb0+j*sb1] (%s, f32 accumulation), z = blockIdx.z",
				k.t),
			Params: []Param{
				{"c", Ptr}, {"a", Ptr}, {"b", Ptr},
				{"m", U64}, {"n", U64}, {"k", U64},
				{"sa0", U64}, {"sa1", U64}, {"sb0", U64}, {"sb1", U64},
				{"sc0", U64}, {"sc1", U64}, {"sab", U64}, {"sbb", U64}, {"scb", U64},
			},
		}
	}
	return Entry{
		Name: k.name(),
		Doc: fmt.Sprintf("C[i*N+j] = sum_k A[i*sa0+k*sa1] * B[k*sb0+j*sb1] (%s, f32 accumulation), %dx%d tiles",
			k.t, MatmulTile, MatmulTile),
		Params: []Param{
			{"c", Ptr}, {"a", Ptr}, {"b", Ptr},
			{"m", U64}, {"n", U64}, {"k", U64},
			{"sa0", U64}, {"sa1", U64}, {"sb0", U64}, {"sb1", U64},
		},
	}
}

func (k matmulKernel) body() string {
	e := k.entry()
	as, bs := k.name()+"_as", k.name()+"_bs"
	l := func(s string) string { return "$L_" + k.name() + "_" + s }
	tileBytes := 4 * MatmulTile * MatmulTile
	rowBytes := 4 * MatmulTile
	sh := k.t.shift()
	var b strings.Builder
	fmt.Fprintf(&b, ".shared .align 4 .b8 \t%s[%d];\n", as, tileBytes)
	fmt.Fprintf(&b, ".shared .align 4 .b8 \t%s[%d];\n", bs, tileBytes)
	b.WriteString(entryHeader(e))
	b.WriteString(scratchRegs)
	b.WriteString("\t.reg .pred \t%pq<8>;\n\t.reg .b64 \t%rd<32>;\n\t.reg .b32 \t%ri<16>;\n")
	b.WriteString("\t.reg .f32 \t%x<4>;\n\t.reg .f32 \t%acc;\n\n")
	// %rd4..6: c, a, b; %rd7..9: m, n, k; %rd10..13: sa0, sa1, sb0, sb1.
	for i, p := range []string{"c", "a", "b"} {
		r := fmt.Sprintf("%%rd%d", 4+i)
		b.WriteString(loadParam(e, p, r))
		fmt.Fprintf(&b, "\tcvta.to.global.u64 \t%s, %s;\n", r, r)
	}
	for i, p := range []string{"m", "n", "k", "sa0", "sa1", "sb0", "sb1"} {
		b.WriteString(loadParam(e, p, fmt.Sprintf("%%rd%d", 7+i)))
	}
	if k.batched {
		// %rd26, %rd27: C's strides; the batch offsets move c, a and b.
		b.WriteString(loadParam(e, "sc0", "%rd26"))
		b.WriteString(loadParam(e, "sc1", "%rd27"))
		b.WriteString("\tmov.u32 \t%ri12, %ctaid.z;\n\tcvt.u64.u32 \t%rd28, %ri12;\n")
		for i, p := range []string{"scb", "sab", "sbb"} {
			b.WriteString(loadParam(e, p, "%rd29"))
			fmt.Fprintf(&b, "\tmul.lo.u64 \t%%rd29, %%rd29, %%rd28;\n\tshl.b64 \t%%rd29, %%rd29, %d;\n\tadd.u64 \t%%rd%d, %%rd%d, %%rd29;\n", sh, 4+i, 4+i)
		}
	}
	// %rd14 = row = ctaid.y*T + tid.y; %rd15 = col = ctaid.x*T + tid.x.
	fmt.Fprintf(&b, "\tmov.u32 \t%%ri0, %%tid.x;\n\tmov.u32 \t%%ri1, %%tid.y;\n")
	fmt.Fprintf(&b, "\tmov.u32 \t%%ri2, %%ctaid.x;\n\tmov.u32 \t%%ri3, %%ctaid.y;\n")
	fmt.Fprintf(&b, "\tmul.wide.u32 \t%%rd14, %%ri3, %d;\n\tcvt.u64.u32 \t%%rd16, %%ri1;\n\tadd.u64 \t%%rd14, %%rd14, %%rd16;\n", MatmulTile)
	fmt.Fprintf(&b, "\tmul.wide.u32 \t%%rd15, %%ri2, %d;\n\tcvt.u64.u32 \t%%rd17, %%ri0;\n\tadd.u64 \t%%rd15, %%rd15, %%rd17;\n", MatmulTile)
	// Shared addresses: %ri4 = &as[ty][tx], %ri5 = &bs[ty][tx], %ri6 = &as[ty][0], %ri7 = &bs[0][tx].
	fmt.Fprintf(&b, "\tmov.u32 \t%%ri8, %s;\n\tmov.u32 \t%%ri9, %s;\n", as, bs)
	fmt.Fprintf(&b, "\tmul.lo.u32 \t%%ri10, %%ri1, %d;\n\tshl.b32 \t%%ri11, %%ri0, 2;\n", rowBytes)
	b.WriteString("\tadd.u32 \t%ri6, %ri8, %ri10;\n\tadd.u32 \t%ri4, %ri6, %ri11;\n")
	b.WriteString("\tadd.u32 \t%ri7, %ri9, %ri11;\n\tadd.u32 \t%ri5, %ri9, %ri10;\n\tadd.u32 \t%ri5, %ri5, %ri11;\n")
	// Row and column in range.
	b.WriteString("\tsetp.lt.u64 \t%pq1, %rd14, %rd7;\n\tsetp.lt.u64 \t%pq2, %rd15, %rd8;\n")
	// A row base: row*sa0; B column base: col*sb1.
	b.WriteString("\tmul.lo.u64 \t%rd18, %rd14, %rd10;\n\tmul.lo.u64 \t%rd19, %rd15, %rd13;\n")
	fmt.Fprintf(&b, "\tmov.f32 \t%%acc, %s;\n\tmov.u64 \t%%rd20, 0;\n", zero)
	fmt.Fprintf(&b, "%s:\n", l("tile"))
	fmt.Fprintf(&b, "\tsetp.ge.u64 \t%%pq0, %%rd20, %%rd9;\n\t@%%pq0 bra.uni \t%s;\n", l("store"))
	// as[ty][tx] = A(row, t+tx) if row < M and t+tx < K.
	b.WriteString("\tadd.u64 \t%rd21, %rd20, %rd17;\n")
	b.WriteString("\tsetp.lt.u64 \t%pq3, %rd21, %rd9;\n\tand.pred \t%pq3, %pq3, %pq1;\n")
	b.WriteString("\tmul.lo.u64 \t%rd22, %rd21, %rd11;\n\tadd.u64 \t%rd22, %rd22, %rd18;\n")
	fmt.Fprintf(&b, "\tshl.b64 \t%%rd22, %%rd22, %d;\n\tadd.u64 \t%%rd22, %%rd5, %%rd22;\n", sh)
	b.WriteString(k.t.loadF32("%x0", "%rd22", "%pq3"))
	b.WriteString("\tst.shared.f32 \t[%ri4], %x0;\n")
	// bs[ty][tx] = B(t+ty, col) if t+ty < K and col < N.
	b.WriteString("\tadd.u64 \t%rd23, %rd20, %rd16;\n")
	b.WriteString("\tsetp.lt.u64 \t%pq4, %rd23, %rd9;\n\tand.pred \t%pq4, %pq4, %pq2;\n")
	b.WriteString("\tmul.lo.u64 \t%rd24, %rd23, %rd12;\n\tadd.u64 \t%rd24, %rd24, %rd19;\n")
	fmt.Fprintf(&b, "\tshl.b64 \t%%rd24, %%rd24, %d;\n\tadd.u64 \t%%rd24, %%rd6, %%rd24;\n", sh)
	b.WriteString(k.t.loadF32("%x1", "%rd24", "%pq4"))
	b.WriteString("\tst.shared.f32 \t[%ri5], %x1;\n\tbar.sync \t0;\n")
	for j := 0; j < MatmulTile; j++ {
		fmt.Fprintf(&b, "\tld.shared.f32 \t%%x2, [%%ri6+%d];\n", 4*j)
		fmt.Fprintf(&b, "\tld.shared.f32 \t%%x3, [%%ri7+%d];\n", rowBytes*j)
		b.WriteString("\tfma.rn.f32 \t%acc, %x2, %x3, %acc;\n")
	}
	fmt.Fprintf(&b, "\tbar.sync \t0;\n\tadd.u64 \t%%rd20, %%rd20, %d;\n\tbra.uni \t%s;\n", MatmulTile, l("tile"))
	fmt.Fprintf(&b, "%s:\n", l("store"))
	fmt.Fprintf(&b, "\tand.pred \t%%pq5, %%pq1, %%pq2;\n\t@!%%pq5 bra \t%s;\n", l("done"))
	if k.batched {
		b.WriteString("\tmul.lo.u64 \t%rd25, %rd14, %rd26;\n\tmad.lo.u64 \t%rd25, %rd15, %rd27, %rd25;\n")
	} else {
		b.WriteString("\tmul.lo.u64 \t%rd25, %rd14, %rd8;\n\tadd.u64 \t%rd25, %rd25, %rd15;\n")
	}
	fmt.Fprintf(&b, "\tshl.b64 \t%%rd25, %%rd25, %d;\n\tadd.u64 \t%%rd25, %%rd4, %%rd25;\n", sh)
	b.WriteString(k.t.storeF32("%rd25", "%acc"))
	fmt.Fprintf(&b, "%s:\n\tret;\n}\n", l("done"))
	return b.String()
}

// matmulModule generates the matmul kernel for every dtype.
func matmulModule() moduleSpec {
	var ks []kernelSpec
	for _, t := range DTypes {
		ks = append(ks, matmulKernel{t: t})
	}
	for _, t := range DTypes {
		ks = append(ks, matmulKernel{t: t, batched: true})
	}
	return moduleSpec{name: "matmul", kernels: ks}
}
