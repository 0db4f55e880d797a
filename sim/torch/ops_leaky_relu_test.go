package torch

import "testing"

// TestLeakyReluMemory checks F.leaky_relu's allocations: out of place an
// output and (backward) one gradient, self saved; in place nothing, the
// result saved.
func TestLeakyReluMemory(t *testing.T) {
	rt, m := newRecRuntime()
	x := must[*Tensor](t)(rt.Factory("empty", []int64{100}, Float32, CUDA0, true))
	m.log = nil
	y := must[*Tensor](t)(rt.LeakyRelu(x, 0.2))
	s := must[*Tensor](t)(rt.MulScalar(y, Float(2)))
	z := must[*Tensor](t)(rt.LeakyReluInplace(s, 0.2))
	compareLog(t, "forward", m.log, []int64{400, 400})
	if z.gradFn == nil || z.gradFn.name != "LeakyReluBackward1" || y.gradFn.name != "LeakyReluBackward0" {
		t.Fatalf("grad_fns %v %v", z.gradFn, y.gradFn)
	}
	g := must[*Tensor](t)(rt.Factory("empty", []int64{100}, Float32, CUDA0, false))
	m.log = nil
	if err := rt.Backward([]*Tensor{z}, []*Tensor{g}, BackwardOptions{}); err != nil {
		t.Fatal(err)
	}
	// LeakyReluBackward1's gradient, MulBackward0's (the first freed),
	// LeakyReluBackward0's (the second freed), stolen by x.grad
	compareLog(t, "backward", m.log, []int64{400, 400, -400, 400, -400})
	if _, err := rt.LeakyRelu(must[*Tensor](t)(rt.Factory("empty", []int64{3}, Int64, CUDA0, false)), 0.01); err == nil ||
		err.Error() != "\"leaky_relu_cuda\" not implemented for 'Long'" {
		t.Errorf("int64 input: %v", err)
	}
}
