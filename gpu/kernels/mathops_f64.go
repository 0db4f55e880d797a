package kernels

import (
	"fmt"
	"math"
)

// The float64 bodies of the map operators whose f32 bodies use .approx
// instructions (ex2, lg2) or an f32-only erf (session 12, issue 7): exp,
// log, pow, gelu (erf), the tanh-approximate gelu, silu and their
// backwards, binary cross entropy. PTX has no f64 transcendental
// instructions; these are built of expF64PTX, logAnyF64PTX and erfF64PTX,
// each within a few ulps of the correctly rounded value, with the
// formulas and operation order of ATen's CUDA kernels in double opmath.

// mathRegs declares the registers of the f64 helpers inside a map
// kernel's body: expF64PTX's and logF64PTX's (%fe, %re, %rde, %pe),
// logAnyF64PTX's (%fl, %pl) and erfF64PTX's (%fg, %pg).
var mathRegs = append(append([]string(nil), expRegs...),
	".reg .f64 \t%fl<4>;", ".reg .pred \t%pl<4>;", ".reg .f64 \t%fg<12>;", ".reg .pred \t%pg<4>;")

// logAnyF64PTX sets dst = log(src) for every double: NaN and negative
// inputs give NaN, ±0 gives −inf, +inf gives +inf, subnormals are scaled
// by 2^54 first (logF64PTX takes positive normal inputs). Uses %fl0..1,
// %pl0..2 and logF64PTX's registers; dst may be src.
func logAnyF64PTX(dst, src string) []string {
	return cat([]string{
		"setp.lt.f64 \t%pl0, " + src + ", " + f64c(0x1p-1022) + ";",
		"selp.f64 \t%fl1, " + f64c(-54) + ", " + f64c(0) + ", %pl0;",
		"mul.rn.f64 \t%fl0, " + src + ", " + f64c(0x1p54) + ";",
		"selp.f64 \t%fl0, %fl0, " + src + ", %pl0;",
		"setp.eq.f64 \t%pl1, " + src + ", " + f64c(0) + ";",
		"setp.lt.f64 \t%pl2, " + src + ", " + f64c(0) + ";",
	}, ptxLines(logF64PTX("%fl0", "%fl0")), []string{
		"fma.rn.f64 \t%fl0, %fl1, " + f64c(ln2Lo) + ", %fl0;",
		"fma.rn.f64 \t%fl0, %fl1, " + f64c(ln2Hi) + ", %fl0;",
		"selp.f64 \t%fl0, " + f64c(math.Inf(-1)) + ", %fl0, %pl1;",
		"selp.f64 \t" + dst + ", " + f64c(math.NaN()) + ", %fl0, %pl2;",
	})
}

// Go's math.Erf (FreeBSD's s_erf.c) coefficients: erf on [0, 0.84375]
// (pp/qq), on [0.84375, 1.25] (erx, pa/qa), erfc on [1.25, 1/0.35]
// (ra/sa) and [1/0.35, 6] (rb/sb); erf is ±1 beyond 6.
var (
	erfPP = []float64{1.28379167095512558561e-01, -3.25042107247001499370e-01, -2.84817495755985104766e-02, -5.77027029648944159157e-03, -2.37630166566501626084e-05}
	erfQQ = []float64{1, 3.97917223959155352819e-01, 6.50222499887672944485e-02, 5.08130628187576562776e-03, 1.32494738004321644526e-04, -3.96022827877536812320e-06}
	erfPA = []float64{-2.36211856075265944077e-03, 4.14856118683748331666e-01, -3.72207876035701323847e-01, 3.18346619901161753674e-01, -1.10894694282396677476e-01, 3.54783043256182359371e-02, -2.16637559486879084300e-03}
	erfQA = []float64{1, 1.06420880400844228286e-01, 5.40397917702171048937e-01, 7.18286544141962662868e-02, 1.26171219808761642112e-01, 1.36370839120290507362e-02, 1.19844998467991074170e-02}
	erfRA = []float64{-9.86494403484714822705e-03, -6.93858572707181764372e-01, -1.05586262253232909814e+01, -6.23753324503260060396e+01, -1.62396669462573470355e+02, -1.84605092906711035994e+02, -8.12874355063065934246e+01, -9.81432934416914548592e+00}
	erfSA = []float64{1, 1.96512716674392571292e+01, 1.37657754143519042600e+02, 4.34565877475229228821e+02, 6.45387271733267880336e+02, 4.29008140027567833386e+02, 1.08635005541779435134e+02, 6.57024977031928170135e+00, -6.04244152148580987438e-02}
	erfRB = []float64{-9.86494292470009928597e-03, -7.99283237680523006574e-01, -1.77579549177547519889e+01, -1.60636384855821916062e+02, -6.37566443368389627722e+02, -1.02509513161107724954e+03, -4.83519191608651397019e+02}
	erfSB = []float64{1, 3.03380607434824582924e+01, 3.25792512996573918826e+02, 1.53672958608443695994e+03, 3.19985821950859553908e+03, 2.55305040643316442583e+03, 4.74528541206955367215e+02, -2.24409524465858183362e+01}
)

const erx = 8.45062911510467529297e-01

// horner sets dst = Σ c[i]·x^i (Horner's rule with fused multiply-adds).
func horner(dst, x string, c []float64) []string {
	out := []string{"mov.f64 \t" + dst + ", " + f64c(c[len(c)-1]) + ";"}
	for i := len(c) - 2; i >= 0; i-- {
		out = append(out, fmt.Sprintf("fma.rn.f64 \t%s, %s, %s, %s;", dst, dst, x, f64c(c[i])))
	}
	return out
}

// erfF64PTX sets dst = erf(src) as Go's math.Erf (FreeBSD's rational
// approximations, exp by expF64PTX): the three ranges are computed
// without branches and selected. Uses %fg0..11, %pg0..2 and expF64PTX's
// registers; src is read at the start and the end, dst is written last.
func erfF64PTX(dst, src string) []string {
	b := []string{
		"abs.f64 \t%fg0, " + src + ";", // a = |x|
		// a < 0.84375: a + a·P(a²)/Q(a²)
		"mul.rn.f64 \t%fg1, %fg0, %fg0;",
	}
	b = append(b, horner("%fg2", "%fg1", erfPP)...)
	b = append(b, horner("%fg3", "%fg1", erfQQ)...)
	b = append(b, "div.rn.f64 \t%fg2, %fg2, %fg3;", "fma.rn.f64 \t%fg10, %fg0, %fg2, %fg0;")
	// a < 1.25: erx + P(a − 1)/Q(a − 1)
	b = append(b, "sub.rn.f64 \t%fg1, %fg0, "+f64c(1)+";")
	b = append(b, horner("%fg2", "%fg1", erfPA)...)
	b = append(b, horner("%fg3", "%fg1", erfQA)...)
	b = append(b, "div.rn.f64 \t%fg2, %fg2, %fg3;", "add.rn.f64 \t%fg11, %fg2, "+f64c(erx)+";",
		"setp.ge.f64 \t%pg0, %fg0, "+f64c(0.84375)+";", "selp.f64 \t%fg10, %fg11, %fg10, %pg0;")
	// a < 6: 1 − exp(−z² − 0.5625)·exp((z − a)(z + a) + R(s)/S(s))/a, s = 1/a², z = a with the low word cleared
	b = append(b, "mul.rn.f64 \t%fg1, %fg0, %fg0;", "rcp.rn.f64 \t%fg1, %fg1;")
	b = append(b, horner("%fg2", "%fg1", erfRA)...)
	b = append(b, horner("%fg3", "%fg1", erfSA)...)
	b = append(b, horner("%fg4", "%fg1", erfRB)...)
	b = append(b, horner("%fg5", "%fg1", erfSB)...)
	b = append(b, "setp.lt.f64 \t%pg1, %fg0, "+f64c(1/0.35)+";",
		"selp.f64 \t%fg2, %fg2, %fg4, %pg1;", "selp.f64 \t%fg3, %fg3, %fg5, %pg1;",
		"div.rn.f64 \t%fg2, %fg2, %fg3;",                                                                  // R/S
		"mov.b64 \t%rde2, %fg0;", "and.b64 \t%rde2, %rde2, 0xFFFFFFFF00000000;", "mov.b64 \t%fg4, %rde2;", // z
		"mul.rn.f64 \t%fg5, %fg4, %fg4;", "neg.f64 \t%fg5, %fg5;", "sub.rn.f64 \t%fg5, %fg5, "+f64c(0.5625)+";",
		"sub.rn.f64 \t%fg6, %fg4, %fg0;", "add.rn.f64 \t%fg7, %fg4, %fg0;", "mul.rn.f64 \t%fg6, %fg6, %fg7;",
		"add.rn.f64 \t%fg6, %fg6, %fg2;")
	b = append(b, ptxLines(expF64PTX("%fg5", "%fg5"))...)
	b = append(b, ptxLines(expF64PTX("%fg6", "%fg6"))...)
	b = append(b, "mul.rn.f64 \t%fg5, %fg5, %fg6;", "div.rn.f64 \t%fg5, %fg5, %fg0;", "sub.rn.f64 \t%fg11, "+f64c(1)+", %fg5;",
		"setp.ge.f64 \t%pg0, %fg0, "+f64c(1.25)+";", "selp.f64 \t%fg10, %fg11, %fg10, %pg0;",
		"setp.ge.f64 \t%pg0, %fg0, "+f64c(6)+";", "selp.f64 \t%fg10, "+f64c(1)+", %fg10, %pg0;",
		"setp.nan.f64 \t%pg2, "+src+", "+src+";",
		"copysign.f64 \t%fg10, "+src+", %fg10;",
		"selp.f64 \t"+dst+", "+src+", %fg10, %pg2;")
	return b
}

// sigmoidF64PTX sets dst = 1 / (1 + exp(−src)) (temporaries %fl2, %fl3).
func sigmoidF64PTX(dst, src string) []string {
	return cat([]string{"neg.f64 \t%fl2, " + src + ";"}, ptxLines(expF64PTX("%fl3", "%fl2")), []string{
		"add.rn.f64 \t%fl3, %fl3, " + f64c(1) + ";",
		"div.rn.f64 \t" + dst + ", " + f64c(1) + ", %fl3;",
	})
}

// mathF64Bodies are the f64 bodies of this file's operators (registered
// in f64Bodies).
var mathF64Bodies = map[MapOp]func() []string{
	"exp":        func() []string { return cat(mathRegs, ptxLines(expF64PTX("%y", "%x0"))) },
	"log":        func() []string { return cat(mathRegs, logAnyF64PTX("%y", "%x0")) },
	"pow":        func() []string { return cat(mathRegs, powF64PTX("%y", "%x0", "%s0")) },
	"pow_tensor": func() []string { return cat(mathRegs, powF64PTX("%y", "%x0", "%x1")) },
	// GeluCUDAKernelImpl: x·0.5·(1 + erf(x·√½))
	"gelu": func() []string {
		return cat(mathRegs, []string{"mul.rn.f64 \t%t0, %x0, " + f64c(1/math.Sqrt2) + ";"}, erfF64PTX("%t1", "%t0"), []string{
			"add.rn.f64 \t%t1, %t1, " + f64c(1) + ";",
			"mul.rn.f64 \t%t2, %x0, " + f64c(0.5) + ";",
			"mul.rn.f64 \t%y, %t2, %t1;",
		})
	},
	// GeluBackwardCUDAKernelImpl: dy·(cdf + x·pdf), cdf = 0.5·(1 + erf(x·√½)), pdf = exp(−0.5·x·x)·(2/√π·√½·0.5)
	"gelu_backward": func() []string {
		return cat(mathRegs, []string{"mul.rn.f64 \t%t0, %x1, " + f64c(1/math.Sqrt2) + ";"}, erfF64PTX("%t1", "%t0"), []string{
			"add.rn.f64 \t%t1, %t1, " + f64c(1) + ";",
			"mul.rn.f64 \t%t1, %t1, " + f64c(0.5) + ";",
			"mul.rn.f64 \t%t2, %x1, " + f64c(-0.5) + ";",
			"mul.rn.f64 \t%t2, %t2, %x1;",
		}, ptxLines(expF64PTX("%t2", "%t2")), []string{
			"mul.rn.f64 \t%t2, %t2, " + f64c(2/math.SqrtPi/math.Sqrt2*0.5) + ";",
			"fma.rn.f64 \t%t3, %x1, %t2, %t1;",
			"mul.rn.f64 \t%y, %x0, %t3;",
		})
	},
	// tanh approximation: 0.5·x·(1 + tanh(β·(x + κ·x³))), β = √2·(2/√π)·0.5
	"gelu_tanh": func() []string {
		return cat(mathRegs, []string{
			"mul.rn.f64 \t%t0, %x0, %x0;",
			"mul.rn.f64 \t%t0, %t0, %x0;",
			"fma.rn.f64 \t%t0, %t0, " + f64c(0.044715) + ", %x0;",
			"mul.rn.f64 \t%t0, %t0, " + f64c(math.Sqrt2*(2/math.SqrtPi)*0.5) + ";",
			"abs.f64 \t%t1, %t0;",
			"mul.rn.f64 \t%t1, %t1, " + f64c(-2) + ";",
		}, ptxLines(expF64PTX("%t1", "%t1")), []string{
			"sub.rn.f64 \t%t2, " + f64c(1) + ", %t1;",
			"add.rn.f64 \t%t3, %t1, " + f64c(1) + ";",
			"div.rn.f64 \t%t2, %t2, %t3;",
			"copysign.f64 \t%t2, %t0, %t2;",
			"add.rn.f64 \t%t2, %t2, " + f64c(1) + ";",
			"mul.rn.f64 \t%t3, %x0, " + f64c(0.5) + ";",
			"mul.rn.f64 \t%y, %t3, %t2;",
		})
	},
	// SiLU: x / (1 + exp(−x))
	"silu": func() []string {
		return cat(mathRegs, []string{"neg.f64 \t%t0, %x0;"}, ptxLines(expF64PTX("%t1", "%t0")), []string{
			"add.rn.f64 \t%t1, %t1, " + f64c(1) + ";",
			"div.rn.f64 \t%y, %x0, %t1;",
		})
	},
	// SiLU backward: dy·s·(1 + x·(1 − s)), s = sigmoid(x)
	"silu_backward": func() []string {
		return cat(mathRegs, sigmoidF64PTX("%t0", "%x1"), []string{
			"sub.rn.f64 \t%t1, " + f64c(1) + ", %t0;",
			"fma.rn.f64 \t%t1, %x1, %t1, " + f64c(1) + ";",
			"mul.rn.f64 \t%t2, %x0, %t0;",
			"mul.rn.f64 \t%y, %t2, %t1;",
		})
	},
	// binary_cross_entropy: (b − 1)·max(log(1 − a), −100) − b·max(log(a), −100)
	"bce": func() []string {
		return cat(mathRegs, logAnyF64PTX("%t0", "%x0"), []string{
			"max.f64 \t%t0, %t0, " + f64c(-100) + ";",
			"sub.rn.f64 \t%t1, " + f64c(1) + ", %x0;",
		}, logAnyF64PTX("%t1", "%t1"), []string{
			"max.f64 \t%t1, %t1, " + f64c(-100) + ";",
			"sub.rn.f64 \t%t2, %x1, " + f64c(1) + ";",
			"mul.rn.f64 \t%t2, %t2, %t1;",
			"mul.rn.f64 \t%t3, %x1, %t0;",
			"sub.rn.f64 \t%y, %t2, %t3;",
		})
	},
}

// powF64PTX sets dst = x^p as exp(p·log|x|), with C's pow rules for the
// sign: a negative x gives NaN unless p is an integer, and the negative
// result for an odd p. Uses %t4..%t7 and the helpers' registers.
func powF64PTX(dst, x, p string) []string {
	return cat([]string{"abs.f64 \t%t4, " + x + ";"}, logAnyF64PTX("%t4", "%t4"), []string{
		"mul.rn.f64 \t%t4, %t4, " + p + ";",
		// p·log|x| is NaN for p = 0 and |x| = 0 or inf (C: 1), and for |x| = 1, p = ±inf (C: 1)
		"setp.nan.f64 \t%pg3, %t4, %t4;",
		"setp.num.f64 \t%pg2, " + x + ", " + p + ";",
		"and.pred \t%pg3, %pg3, %pg2;",
	}, ptxLines(expF64PTX("%t5", "%t4")), []string{
		"selp.f64 \t%t5, " + f64c(1) + ", %t5, %pg3;",
		"setp.eq.f64 \t%pg3, " + p + ", " + f64c(0) + ";",
		"selp.f64 \t%t5, " + f64c(1) + ", %t5, %pg3;",
		// x < 0: p integer (odd: −r), else NaN
		"cvt.rni.f64.f64 \t%t6, " + p + ";",
		"setp.neu.f64 \t%pg0, %t6, " + p + ";",
		"mul.rn.f64 \t%t7, " + p + ", " + f64c(0.5) + ";",
		"cvt.rni.f64.f64 \t%t6, %t7;",
		"setp.neu.f64 \t%pg1, %t6, %t7;",
		"neg.f64 \t%t6, %t5;",
		"selp.f64 \t%t6, %t6, %t5, %pg1;",
		"selp.f64 \t%t6, " + f64c(math.NaN()) + ", %t6, %pg0;",
		"setp.lt.f64 \t%pg2, " + x + ", " + f64c(0) + ";",
		"selp.f64 \t" + dst + ", %t6, %t5, %pg2;",
	})
}
