package kernels

import (
	"fmt"
	"math"
	"strings"
)

// Float64 kernels of the matmul, softmax and nll_loss families (module
// linalg_f64), computed in float64 as PyTorch computes double (cuBLAS
// DGEMM, the softmax kernels' accscalar_t double): the same entry names
// (bmm_f64, softmax_<mode>_f64, nll_loss[_backward]_f64) and parameters
// as the f32 kernels, so their launchers serve both. They favour
// simplicity over speed: one thread per output element of bmm, one thread
// per softmax row, one thread for nll_loss.

// f64Kernel is a hand-written kernel of module linalg_f64.
type f64Kernel struct {
	e    Entry
	main string // the PTX between the parameter loads and ret
}

func (k f64Kernel) entry() Entry { return k.e }

func (k f64Kernel) body() string {
	var b strings.Builder
	b.WriteString(entryHeader(k.e))
	b.WriteString("\t.reg .pred \t%p<8>;\n\t.reg .b32 \t%r<16>;\n\t.reg .b64 \t%rd<48>;\n\t.reg .f64 \t%fd<16>;\n")
	b.WriteString("\t.reg .f64 \t%fe<8>;\n\t.reg .b32 \t%re<4>;\n\t.reg .b64 \t%rde<4>;\n\t.reg .pred \t%pe<2>;\n\n")
	// parameter i in %rd(10+i), pointers converted to global.
	for i, p := range k.e.Params {
		r := fmt.Sprintf("%%rd%d", 10+i)
		b.WriteString(loadParam(k.e, p.Name, r))
		if p.Kind == Ptr {
			fmt.Fprintf(&b, "\tcvta.to.global.u64 \t%s, %s;\n", r, r)
		}
	}
	b.WriteString(strings.ReplaceAll(k.main, "$K", "$L_"+k.e.Name))
	b.WriteString("$L_" + k.e.Name + "_ret:\n\tret;\n}\n")
	return b.String()
}

// f64c is x as PTX's exact hexadecimal f64 form.
func f64c(x float64) string { return fmt.Sprintf("0d%016X", math.Float64bits(x)) }

// preg is the register of parameter name of e (see f64Kernel.body).
func preg(e Entry, name string) string {
	for i, p := range e.Params {
		if p.Name == name {
			return fmt.Sprintf("%%rd%d", 10+i)
		}
	}
	panic("kernels: no parameter " + name + " in " + e.Name)
}

// elemAddr sets dst to the address of f64 element off (a register) of
// the array at ptr.
func elemAddr(dst, ptr, off string) string {
	return fmt.Sprintf("\tshl.b64 \t%s, %s, 3;\n\tadd.u64 \t%s, %s, %s;\n", dst, off, dst, ptr, dst)
}

// bmmF64 is bmm_f64: C[z] = A[z]·B[z], one thread per element of C (the
// grid and block of the tiled f32 kernel: x columns, y rows, z batches),
// the dot product accumulated in order with fma.
func bmmF64() f64Kernel {
	e := matmulKernel{t: F64, batched: true}.entry()
	e.Doc = "C[z*scb+i*sc0+j*sc1] = sum_k A[z*sab+i*sa0+k*sa1] * B[z*sbb+k*sb0+j*sb1] (f64, fma in k order), z = blockIdx.z"
	r := func(n string) string { return preg(e, n) }
	var b strings.Builder
	b.WriteString("\tmov.u32 \t%r1, %ctaid.x;\n\tmov.u32 \t%r2, %ntid.x;\n\tmov.u32 \t%r3, %tid.x;\n\tmad.lo.u32 \t%r4, %r1, %r2, %r3;\n")
	b.WriteString("\tmov.u32 \t%r5, %ctaid.y;\n\tmov.u32 \t%r6, %ntid.y;\n\tmov.u32 \t%r7, %tid.y;\n\tmad.lo.u32 \t%r8, %r5, %r6, %r7;\n")
	b.WriteString("\tmov.u32 \t%r9, %ctaid.z;\n\tcvt.u64.u32 \t%rd1, %r4;\n\tcvt.u64.u32 \t%rd2, %r8;\n\tcvt.u64.u32 \t%rd3, %r9;\n")
	fmt.Fprintf(&b, "\tsetp.ge.u64 \t%%p1, %%rd2, %s;\n\tsetp.ge.u64 \t%%p2, %%rd1, %s;\n\tor.pred \t%%p1, %%p1, %%p2;\n\t@%%p1 bra \t$K_ret;\n", r("m"), r("n"))
	fmt.Fprintf(&b, "\tmul.lo.u64 \t%%rd4, %%rd3, %s;\n\tmad.lo.u64 \t%%rd4, %%rd2, %s, %%rd4;\n", r("sab"), r("sa0"))
	fmt.Fprintf(&b, "\tmul.lo.u64 \t%%rd5, %%rd3, %s;\n\tmad.lo.u64 \t%%rd5, %%rd1, %s, %%rd5;\n", r("sbb"), r("sb1"))
	b.WriteString("\tmov.f64 \t%fd1, 0d0000000000000000;\n\tmov.u64 \t%rd6, 0;\n$K_loop:\n")
	fmt.Fprintf(&b, "\tsetp.ge.u64 \t%%p3, %%rd6, %s;\n\t@%%p3 bra \t$K_end;\n", r("k"))
	b.WriteString(elemAddr("%rd7", r("a"), "%rd4") + "\tld.global.f64 \t%fd2, [%rd7];\n")
	b.WriteString(elemAddr("%rd8", r("b"), "%rd5") + "\tld.global.f64 \t%fd3, [%rd8];\n")
	b.WriteString("\tfma.rn.f64 \t%fd1, %fd2, %fd3, %fd1;\n")
	fmt.Fprintf(&b, "\tadd.u64 \t%%rd4, %%rd4, %s;\n\tadd.u64 \t%%rd5, %%rd5, %s;\n\tadd.u64 \t%%rd6, %%rd6, 1;\n\tbra.uni \t$K_loop;\n$K_end:\n", r("sa1"), r("sb0"))
	fmt.Fprintf(&b, "\tmul.lo.u64 \t%%rd9, %%rd3, %s;\n\tmad.lo.u64 \t%%rd9, %%rd2, %s, %%rd9;\n\tmad.lo.u64 \t%%rd9, %%rd1, %s, %%rd9;\n", r("scb"), r("sc0"), r("sc1"))
	b.WriteString(elemAddr("%rd7", r("c"), "%rd9") + "\tst.global.f64 \t[%rd7], %fd1;\n")
	return f64Kernel{e: e, main: b.String()}
}

// linalgF64Module is module linalg_f64.
func linalgF64Module() moduleSpec {
	m := moduleSpec{name: "linalg_f64", kernels: []kernelSpec{bmmF64()}}
	for _, mode := range []SoftmaxMode{SoftmaxFwd, LogSoftmaxFwd, SoftmaxBwd, LogSoftmaxBwd} {
		m.kernels = append(m.kernels, softmaxF64(mode))
	}
	return moduleSpec{name: m.name, kernels: append(m.kernels, nllF64(false), nllF64(true))}
}
