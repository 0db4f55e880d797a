package kernels

import (
	"fmt"
	"strings"
)

// Float constants used by the elementwise bodies (IEEE-754 bits).
var (
	zero       = f32Hex(0x00000000) // 0
	one        = f32Hex(0x3F800000) // 1
	minusTwo   = f32Hex(0xC0000000) // -2
	log2e      = f32Hex(0x3FB8AA3B) // log2(e)
	minusLog2e = f32Hex(0xBFB8AA3B) // -log2(e)
	twiceLog2e = f32Hex(0x4038AA3B) // 2*log2(e)
)

// operand is a pointer parameter read or written element by element.
type operand struct {
	param string
	dtype DType
}

// elemKernel is a grid-stride loop over n elements:
//
//	for (i = blockIdx.x*blockDim.x + threadIdx.x; i < n; i += gridDim.x*blockDim.x)
//	    out[i] = f(ins[0][i], ins[1][i], ..., scalars...)
//
// Inputs arrive widened to f32 in %x0, %x1, ...; scalars in %s0, %s1, ...;
// the ops leave the result in %y and may use %t0..%t7 and %pq0..%pq3.
type elemKernel struct {
	name    string
	doc     string
	out     operand
	ins     []operand
	scalars []string
	ops     []string
}

func (k elemKernel) entry() Entry {
	e := Entry{Name: k.name, Doc: k.doc}
	e.Params = append(e.Params, Param{k.out.param, Ptr})
	for _, p := range k.pointers()[1:] {
		e.Params = append(e.Params, Param{p, Ptr})
	}
	for _, s := range k.scalars {
		e.Params = append(e.Params, Param{s, Scalar})
	}
	e.Params = append(e.Params, Param{"n", U64})
	return e
}

// pointers lists the distinct pointer parameters, the output first.
func (k elemKernel) pointers() []string {
	ps := []string{k.out.param}
	for _, in := range k.ins {
		seen := false
		for _, p := range ps {
			seen = seen || p == in.param
		}
		if !seen {
			ps = append(ps, in.param)
		}
	}
	return ps
}

func (k elemKernel) body() string {
	e := k.entry()
	ptrs := k.pointers()
	reg := func(param string) string {
		for i, p := range ptrs {
			if p == param {
				return fmt.Sprintf("%%rd%d", 4+i)
			}
		}
		return "%rd_unknown"
	}
	var b strings.Builder
	b.WriteString(entryHeader(e))
	b.WriteString(scratchRegs)
	b.WriteString("\t.reg .pred \t%pq<4>;\n\t.reg .b64 \t%rd<16>;\n")
	b.WriteString("\t.reg .f32 \t%x<4>;\n\t.reg .f32 \t%s<4>;\n\t.reg .f32 \t%t<8>;\n\t.reg .f32 \t%y;\n\n")
	for _, p := range ptrs {
		b.WriteString(loadParam(e, p, reg(p)))
		fmt.Fprintf(&b, "\tcvta.to.global.u64 \t%s, %s;\n", reg(p), reg(p))
	}
	for i, s := range k.scalars {
		b.WriteString(loadParam(e, s, fmt.Sprintf("%%s%d", i)))
	}
	b.WriteString(loadParam(e, "n", "%rd2"))
	b.WriteString(gridStrideStart)
	fmt.Fprintf(&b, "$L_%s_loop:\n", k.name)
	fmt.Fprintf(&b, "\tsetp.ge.u64 \t%%pq0, %%rd0, %%rd2;\n\t@%%pq0 bra \t$L_%s_done;\n", k.name)
	for i, in := range k.ins {
		fmt.Fprintf(&b, "\tshl.b64 \t%%rd3, %%rd0, %d;\n", in.dtype.shift())
		fmt.Fprintf(&b, "\tadd.u64 \t%%rd15, %s, %%rd3;\n", reg(in.param))
		b.WriteString(in.dtype.loadF32(fmt.Sprintf("%%x%d", i), "%rd15", ""))
	}
	for _, line := range k.ops {
		b.WriteString("\t" + line + "\n")
	}
	fmt.Fprintf(&b, "\tshl.b64 \t%%rd3, %%rd0, %d;\n", k.out.dtype.shift())
	fmt.Fprintf(&b, "\tadd.u64 \t%%rd15, %s, %%rd3;\n", reg(k.out.param))
	b.WriteString(k.out.dtype.storeF32("%rd15", "%y"))
	b.WriteString("\tadd.u64 \t%rd0, %rd0, %rd1;\n")
	fmt.Fprintf(&b, "\tbra.uni \t$L_%s_loop;\n$L_%s_done:\n\tret;\n}\n", k.name, k.name)
	return b.String()
}

// gridStrideStart sets %rd0 = blockIdx.x*blockDim.x + threadIdx.x and
// %rd1 = gridDim.x*blockDim.x, in 64 bits.
const gridStrideStart = "\tmov.u32 \t%r1, %ctaid.x;\n" +
	"\tmov.u32 \t%r2, %ntid.x;\n" +
	"\tmov.u32 \t%r3, %tid.x;\n" +
	"\tmul.wide.u32 \t%rd0, %r1, %r2;\n" +
	"\tcvt.u64.u32 \t%rd3, %r3;\n" +
	"\tadd.u64 \t%rd0, %rd0, %rd3;\n" +
	"\tmov.u32 \t%r1, %nctaid.x;\n" +
	"\tmul.wide.u32 \t%rd1, %r1, %r2;\n"

// unaryOps maps op name to (doc, body) for y = f(x).
var unaryOps = []struct {
	name, doc string
	body      []string
}{
	{"copy", "dst[i] = src[i]", []string{"mov.f32 \t%y, %x0;"}},
	{"relu", "dst[i] = src[i] <= 0 ? 0 : src[i] (NaN propagates)", []string{
		"setp.le.f32 \t%pq1, %x0, " + zero + ";",
		"selp.f32 \t%y, " + zero + ", %x0, %pq1;",
	}},
	{"exp", "dst[i] = exp(src[i]) (ex2.approx of x*log2(e), like __expf)", []string{
		"mul.f32 \t%t0, %x0, " + log2e + ";",
		"ex2.approx.ftz.f32 \t%y, %t0;",
	}},
	{"sigmoid", "dst[i] = 1 / (1 + exp(-src[i]))", []string{
		"mul.f32 \t%t0, %x0, " + minusLog2e + ";",
		"ex2.approx.ftz.f32 \t%t1, %t0;",
		"add.f32 \t%t2, %t1, " + one + ";",
		"rcp.rn.f32 \t%y, %t2;",
	}},
	{"tanh", "dst[i] = 1 - 2 / (exp(2*src[i]) + 1)", []string{
		"mul.f32 \t%t0, %x0, " + twiceLog2e + ";",
		"ex2.approx.ftz.f32 \t%t1, %t0;",
		"add.f32 \t%t2, %t1, " + one + ";",
		"rcp.rn.f32 \t%t3, %t2;",
		"fma.rn.f32 \t%y, %t3, " + minusTwo + ", " + one + ";",
	}},
}

// binaryOps maps op name to (doc, instruction) for y = a op b.
var binaryOps = []struct{ name, doc, instr string }{
	{"add", "dst[i] = a[i] + b[i]", "add.rn.f32"},
	{"sub", "dst[i] = a[i] - b[i]", "sub.rn.f32"},
	{"mul", "dst[i] = a[i] * b[i]", "mul.rn.f32"},
	{"div", "dst[i] = a[i] / b[i] (IEEE division)", "div.rn.f32"},
}

// elementwiseModule generates every elementwise kernel for every dtype.
func elementwiseModule() moduleSpec {
	var ks []kernelSpec
	for _, t := range DTypes {
		ks = append(ks, elemKernel{
			name: "fill_" + string(t), doc: "dst[i] = value",
			out: operand{"dst", t}, scalars: []string{"value"},
			ops: []string{"mov.f32 \t%y, %s0;"},
		})
		for _, op := range unaryOps {
			ks = append(ks, elemKernel{
				name: op.name + "_" + string(t), doc: op.doc,
				out: operand{"dst", t}, ins: []operand{{"src", t}}, ops: op.body,
			})
		}
		for _, op := range binaryOps {
			ks = append(ks, elemKernel{
				name: op.name + "_" + string(t), doc: op.doc,
				out: operand{"dst", t}, ins: []operand{{"a", t}, {"b", t}},
				ops: []string{op.instr + " \t%y, %x0, %x1;"},
			})
		}
		ks = append(ks,
			elemKernel{
				name: "relu_backward_" + string(t), doc: "dst[i] = input[i] <= 0 ? 0 : grad[i] (threshold_backward)",
				out: operand{"dst", t}, ins: []operand{{"grad", t}, {"input", t}},
				ops: []string{
					"setp.le.f32 \t%pq1, %x1, " + zero + ";",
					"selp.f32 \t%y, " + zero + ", %x0, %pq1;",
				},
			},
			elemKernel{
				name: "scale_" + string(t), doc: "dst[i] = alpha * src[i]",
				out: operand{"dst", t}, ins: []operand{{"src", t}}, scalars: []string{"alpha"},
				ops: []string{"mul.rn.f32 \t%y, %s0, %x0;"},
			},
			elemKernel{
				name: "axpy_" + string(t), doc: "y[i] = y[i] + alpha * x[i] (in place)",
				out: operand{"y", t}, ins: []operand{{"y", t}, {"x", t}}, scalars: []string{"alpha"},
				ops: []string{"fma.rn.f32 \t%y, %s0, %x1, %x0;"},
			},
		)
	}
	for _, from := range DTypes {
		for _, to := range DTypes {
			if from == to {
				continue
			}
			ks = append(ks, elemKernel{
				name: "cast_" + string(from) + "_" + string(to),
				doc:  fmt.Sprintf("dst[i] = (%s) src[i] (round to nearest even)", to),
				out:  operand{"dst", to}, ins: []operand{{"src", from}},
				ops: []string{"mov.f32 \t%y, %x0;"},
			})
		}
	}
	return moduleSpec{name: "elementwise", kernels: ks}
}
