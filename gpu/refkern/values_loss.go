package refkern

import (
	"math"

	"github.com/gpumem/playground/gpu/kernels"
)

// lossValue is the value of a map operator of kernels' mapops_loss.go at
// xs with scalars s0, s1; ok is false for the other operators.
func lossValue(op kernels.MapOp, xs [3]float32, s0, s1 float32) (float32, bool) {
	x0, x1, x2 := xs[0], xs[1], xs[2]
	log := func(v float32) float32 { return float32(math.Log(float64(v))) }
	sigmoid := func(v float32) float32 { return 1 / (1 + float32(math.Exp(-float64(v)))) }
	logSigmoid := func(v float32) float32 {
		return min(v, 0) - float32(math.Log1p(math.Exp(-math.Abs(float64(v)))))
	}
	switch op {
	case "sgn":
		return b2f(x0 > 0) - b2f(x0 < 0), true
	case "bce":
		return (x1-1)*max(log(1-x0), -100) - x1*max(log(x0), -100), true
	case "bce_backward":
		return x0 * (x1 - x2) / max((1-x1)*x1, 1e-12), true
	case "bce_logits":
		return (1-x1)*x0 - logSigmoid(x0), true
	case "bce_logits_pw":
		return (1-x1)*x0 - logSigmoid(x0)*((x2-1)*x1+1), true
	case "bce_logits_backward":
		return sigmoid(x0) - x1, true
	case "bce_logits_backward_pw":
		t := x2 * x1
		return (t+1-x1)*sigmoid(x0) - t, true
	case "dropout": // (x·mask)·scale: -0 for a dropped negative, nan for a dropped inf
		m := float32(0)
		if x1 < s0 {
			m = 1
		}
		return x0 * m * s1, true
	case "masked_scale":
		m := float32(0)
		if x1 != 0 {
			m = 1
		}
		return x0 * m * s0, true
	}
	return 0, false
}
