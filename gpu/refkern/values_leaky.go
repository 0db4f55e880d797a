package refkern

import "github.com/gpumem/playground/gpu/kernels"

// leakyValue is the value of kernels' leakyMapOps (leaky_relu and its
// backward) at xs with slope s0, as the kernels compute it in float32; ok
// is false for the other operators.
func leakyValue(op kernels.MapOp, xs [3]float32, s0 float32) (float32, bool) {
	switch op {
	case "leaky_relu":
		if xs[0] > 0 {
			return xs[0], true
		}
		return xs[0] * s0, true
	case "leaky_relu_backward":
		if xs[1] > 0 {
			return xs[0], true
		}
		return xs[0] * s0, true
	}
	return 0, false
}
