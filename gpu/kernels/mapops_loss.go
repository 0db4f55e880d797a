package kernels

import "math"

// The map operators of the losses and dropout (issue 7): binary cross
// entropy (with logits) and their backwards, sgn (abs's backward), and
// dropout's masking. Formulas are ATen's CUDA kernels in f32 opmath; log
// is lg2.approx·ln2 as the core log, log1p(z) of log_sigmoid is
// log(1+z)·z/((1+z)−1) (exact where 1+z rounds to 1).

var (
	ln2      = fc(math.Ln2)
	minus100 = fc(-100)
	bceEps   = fc(1e-12)
)

// logPTX sets dst = log(src) (uses nothing else).
func logPTX(dst, src string) []string {
	return []string{"lg2.approx.f32 \t" + dst + ", " + src + ";", "mul.rn.f32 \t" + dst + ", " + dst + ", " + ln2 + ";"}
}

// logSigmoidPTX sets %t4 = log_sigmoid(%x0) = min(x, 0) − log1p(exp(−|x|)),
// using %t0..%t3 and %pq1.
func logSigmoidPTX() []string {
	return cat([]string{
		"abs.f32 \t%t0, %x0;",
		"mul.f32 \t%t0, %t0, " + minusLog2e + ";",
		"ex2.approx.ftz.f32 \t%t0, %t0;",
		"add.rn.f32 \t%t1, %t0, " + one + ";",
	}, logPTX("%t2", "%t1"), []string{
		"sub.rn.f32 \t%t3, %t1, " + one + ";",
		"setp.eq.f32 \t%pq1, %t3, " + zero + ";",
		"mul.rn.f32 \t%t2, %t2, %t0;",
		"div.rn.f32 \t%t2, %t2, %t3;",
		"selp.f32 \t%t2, %t0, %t2, %pq1;",
		"min.f32 \t%t4, %x0, " + zero + ";",
		"sub.rn.f32 \t%t4, %t4, %t2;",
	})
}

// sigmoidPTX sets dst = 1 / (1 + exp(−%x0)) as the core sigmoid.
func sigmoidPTX(dst string) []string {
	return []string{
		"mul.f32 \t%t6, %x0, " + minusLog2e + ";",
		"ex2.approx.ftz.f32 \t%t6, %t6;",
		"add.f32 \t%t6, %t6, " + one + ";",
		"rcp.rn.f32 \t" + dst + ", %t6;",
	}
}

var lossMapOps = []MapOpInfo{
	{Op: "sgn", Ins: 1, Doc: "out = (x > 0) - (x < 0)", body: []string{
		"setp.gt.f32 \t%pq1, %x0, " + zero + ";",
		"selp.f32 \t%t0, " + one + ", " + zero + ", %pq1;",
		"setp.lt.f32 \t%pq2, %x0, " + zero + ";",
		"selp.f32 \t%t1, " + one + ", " + zero + ", %pq2;",
		"sub.rn.f32 \t%y, %t0, %t1;",
	}},
	{Op: "bce", Ins: 2, Doc: "out = (b - 1)·max(log(1 - a), -100) - b·max(log(a), -100) (a input, b target)", body: cat(
		logPTX("%t0", "%x0"),
		[]string{"max.f32 \t%t0, %t0, " + minus100 + ";", "sub.rn.f32 \t%t1, " + one + ", %x0;"},
		logPTX("%t1", "%t1"),
		[]string{
			"max.f32 \t%t1, %t1, " + minus100 + ";",
			"sub.rn.f32 \t%t2, %x1, " + one + ";",
			"mul.rn.f32 \t%t2, %t2, %t1;",
			"mul.rn.f32 \t%t3, %x1, %t0;",
			"sub.rn.f32 \t%y, %t2, %t3;",
		})},
	{Op: "bce_backward", Ins: 3, Doc: "out = a·(b - c) / max((1 - b)·b, 1e-12) (a grad, b input, c target)", body: []string{
		"sub.rn.f32 \t%t0, %x1, %x2;",
		"sub.rn.f32 \t%t1, " + one + ", %x1;",
		"mul.rn.f32 \t%t1, %t1, %x1;",
		"max.f32 \t%t1, %t1, " + bceEps + ";",
		"mul.rn.f32 \t%t0, %x0, %t0;",
		"div.rn.f32 \t%y, %t0, %t1;",
	}},
	{Op: "bce_logits", Ins: 2, Doc: "out = (1 - b)·a - log_sigmoid(a) (a input, b target)", body: cat(logSigmoidPTX(), []string{
		"sub.rn.f32 \t%t5, " + one + ", %x1;",
		"mul.rn.f32 \t%t5, %t5, %x0;",
		"sub.rn.f32 \t%y, %t5, %t4;",
	})},
	{Op: "bce_logits_pw", Ins: 3, Doc: "out = (1 - b)·a - log_sigmoid(a)·((c - 1)·b + 1) (c pos_weight)", body: cat(logSigmoidPTX(), []string{
		"sub.rn.f32 \t%t5, %x2, " + one + ";",
		"mul.rn.f32 \t%t5, %t5, %x1;",
		"add.rn.f32 \t%t5, %t5, " + one + ";",
		"mul.rn.f32 \t%t4, %t4, %t5;",
		"sub.rn.f32 \t%t5, " + one + ", %x1;",
		"mul.rn.f32 \t%t5, %t5, %x0;",
		"sub.rn.f32 \t%y, %t5, %t4;",
	})},
	{Op: "bce_logits_backward", Ins: 2, Doc: "out = sigmoid(a) - b (a input, b target)", body: cat(sigmoidPTX("%t0"), []string{
		"sub.rn.f32 \t%y, %t0, %x1;",
	})},
	{Op: "bce_logits_backward_pw", Ins: 3, Doc: "t = c·b; out = (t + 1 - b)·sigmoid(a) - t (c pos_weight)", body: cat(sigmoidPTX("%t0"), []string{
		"mul.rn.f32 \t%t1, %x2, %x1;",
		"add.rn.f32 \t%t2, %t1, " + one + ";",
		"sub.rn.f32 \t%t2, %t2, %x1;",
		"mul.rn.f32 \t%t2, %t2, %t0;",
		"sub.rn.f32 \t%y, %t2, %t1;",
	})},
	// Dropout.cu multiplies by the mask (1 or 0) and then the scale: a
	// dropped negative gives -0 and a dropped inf or nan gives nan.
	{Op: "dropout", Ins: 2, Doc: "out = (a·m)·s1 with m = b < s0 ? 1 : 0 (b uniform f32, s0 = 1 - p, s1 = 1/(1 - p))", Fixed: map[int]DType{1: F32}, body: []string{
		"setp.lt.f32 \t%pq1, %x1, %s0;",
		"selp.f32 \t%t0, " + one + ", " + zero + ", %pq1;",
		"mul.rn.f32 \t%t0, %x0, %t0;",
		"mul.rn.f32 \t%y, %t0, %s1;",
	}},
	{Op: "masked_scale", Ins: 2, Doc: "out = (a·m)·s0 with m = b ? 1 : 0 (b bool): dropout's backward (-0 and nan as the forward)", Fixed: map[int]DType{1: B8}, body: []string{
		"setp.neu.f32 \t%pq1, %x1, " + zero + ";",
		"selp.f32 \t%t0, " + one + ", " + zero + ", %pq1;",
		"mul.rn.f32 \t%t0, %x0, %t0;",
		"mul.rn.f32 \t%y, %t0, %s0;",
	}},
}
