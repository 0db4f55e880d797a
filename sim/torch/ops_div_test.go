package torch

import (
	"strings"
	"testing"
)

// TestIntegerKernelErrors checks PyTorch 2.11's CUDA errors for integer
// matrix products and softmax (recorded on an H200): the output is
// allocated and returned to the cache, nothing stays allocated.
func TestIntegerKernelErrors(t *testing.T) {
	rt, a := newTestRuntime(t)
	cuda := CUDA0
	m := must[*Tensor](t)(rt.Factory("zeros", []int64{2, 2}, Int64, cuda, false))
	v := must[*Tensor](t)(rt.Factory("zeros", []int64{2}, Int64, cuda, false))
	b3 := must[*Tensor](t)(rt.Factory("zeros", []int64{1, 2, 2}, Int32, cuda, false))
	cases := []struct {
		name string
		f    func() (*Tensor, error)
		want string
	}{
		{"mm", func() (*Tensor, error) { return rt.Matmul(m, m) }, `"addmm_cuda" not implemented for 'Long'`},
		{"mv", func() (*Tensor, error) { return rt.Matmul(m, v) }, `"addmv_impl_cuda" not implemented for 'Long'`},
		{"dot", func() (*Tensor, error) { return rt.Matmul(v, v) }, `"dot" not implemented for 'Long'`},
		{"bmm", func() (*Tensor, error) { return rt.Bmm(b3, b3) }, `"baddbmm_cuda" not implemented for 'Int'`},
		{"softmax", func() (*Tensor, error) { return rt.Softmax(m, 0, false, nil) }, `"host_softmax" not implemented for 'Long'`},
	}
	before := a.Stats().Allocated
	for _, c := range cases {
		r, err := c.f()
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want %q", c.name, err, c.want)
		}
		if r != nil {
			r.Release()
		}
		if got := a.Stats().Allocated; got != before {
			t.Errorf("%s: %d bytes allocated after the error, want %d", c.name, got, before)
		}
	}
}

// TestDivInplaceCast checks that an in-place division family op refuses a
// float result into an integer tensor (c10::canCast), as PyTorch does.
func TestDivInplaceCast(t *testing.T) {
	rt, _ := newTestRuntime(t)
	x := must[*Tensor](t)(rt.Factory("zeros", []int64{3}, Int64, CUDA0, false))
	_, err := rt.DivInplace("floor_divide", x, nil, Float(2.5))
	if err == nil || !strings.Contains(err.Error(), "result type Float can't be cast to the desired output type Long") {
		t.Errorf("x //= 2.5 on int64: error %v", err)
	}
	r, err := rt.DivInplace("remainder", x, nil, Int(3))
	if err != nil || r != x {
		t.Errorf("x %%= 3: %v, %v", r, err)
	}
}
