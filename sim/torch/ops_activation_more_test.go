package torch

import (
	"fmt"
	"testing"
)

// TestActivationMoreMemory checks the activations' allocations: out of
// place an output, the node saving self and one gradient in backward; in
// place nothing (elu_: the result saved) or a clone of self taken before
// the op (mish_, hardswish_, hardtanh_: original_self).
func TestActivationMoreMemory(t *testing.T) {
	cases := []struct {
		name     string
		op       func(rt *Runtime, x *Tensor) (*Tensor, error)
		node     string
		fwd, bwd []int64
	}{
		{"elu", func(rt *Runtime, x *Tensor) (*Tensor, error) { return rt.Elu(x, 1) }, "EluBackward0", []int64{400}, []int64{400}},
		{"softplus", func(rt *Runtime, x *Tensor) (*Tensor, error) { return rt.Softplus(x, 1, 20) }, "SoftplusBackward0", []int64{400}, []int64{400}},
		{"mish", (*Runtime).Mish, "MishBackward0", []int64{400}, []int64{400}},
		{"hardswish", (*Runtime).Hardswish, "HardswishBackward0", []int64{400}, []int64{400}},
		{"hardtanh", func(rt *Runtime, x *Tensor) (*Tensor, error) { return rt.Hardtanh(x, -1, 1) }, "HardtanhBackward0", []int64{400}, []int64{400}},
		{"logsigmoid", (*Runtime).LogSigmoid, "LogSigmoidBackward0", []int64{400}, []int64{400}},
		{"glu", func(rt *Runtime, x *Tensor) (*Tensor, error) { return rt.Glu(x, 0) }, "GluBackward0", []int64{200}, []int64{400}},
		{"elu_", func(rt *Runtime, x *Tensor) (*Tensor, error) { return rt.EluInplace(x, 1) }, "EluBackward1", nil, []int64{400}},
		{"hardtanh_", func(rt *Runtime, x *Tensor) (*Tensor, error) { return rt.HardtanhInplace(x, 0, 6) }, "HardtanhBackward0", []int64{400}, []int64{400, -400}},
		{"mish_", (*Runtime).MishInplace, "MishBackward0", []int64{400}, []int64{400, -400}},
		{"hardswish_", (*Runtime).HardswishInplace, "HardswishBackward0", []int64{400}, []int64{400, -400}},
		{"selu", (*Runtime).Selu, "EluBackward0", []int64{400}, []int64{400}},
		{"celu", func(rt *Runtime, x *Tensor) (*Tensor, error) { return rt.Celu(x, 1) }, "CeluBackward0", []int64{400}, []int64{400}},
		{"hardsigmoid", (*Runtime).Hardsigmoid, "HardsigmoidBackward0", []int64{400}, []int64{400}},
		{"softshrink", func(rt *Runtime, x *Tensor) (*Tensor, error) { return rt.Softshrink(x, 0.5) }, "SoftshrinkBackward0", []int64{400}, []int64{400}},
		{"hardshrink", func(rt *Runtime, x *Tensor) (*Tensor, error) { return rt.Hardshrink(x, 0.5) }, "HardshrinkBackward0", []int64{400}, []int64{400}},
		{"threshold", func(rt *Runtime, x *Tensor) (*Tensor, error) { return rt.Threshold(x, 0.1, 20) }, "ThresholdBackward0", []int64{400}, []int64{400}},
		{"softsign", (*Runtime).Softsign, "DivBackward0", []int64{400, 400, -400, 400}, nil},
		{"tanhshrink", (*Runtime).Tanhshrink, "SubBackward0", []int64{400, 400}, nil},
		{"selu_", (*Runtime).SeluInplace, "EluBackward1", nil, []int64{400}},
		{"celu_", func(rt *Runtime, x *Tensor) (*Tensor, error) { return rt.CeluInplace(x, 1) }, "CeluBackward1", nil, []int64{400}},
		{"hardsigmoid_", (*Runtime).HardsigmoidInplace, "HardsigmoidBackward0", []int64{400}, []int64{400, -400}},
		{"threshold_", func(rt *Runtime, x *Tensor) (*Tensor, error) { return rt.ThresholdInplace(x, 0.1, 20) }, "ThresholdBackward1", []int64{400}, []int64{400, -400}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			rt, m := newRecRuntime()
			x := must[*Tensor](t)(rt.Factory("empty", []int64{100}, Float32, CUDA0, true))
			in := x
			if c.name[len(c.name)-1] == '_' {
				in = must[*Tensor](t)(rt.Clone(x)) // CloneBackward0 passes the gradient through
			}
			m.log = nil
			y := must[*Tensor](t)(c.op(rt, in))
			compareLog(t, "forward", m.log, c.fwd)
			if y.gradFn == nil || y.gradFn.name != c.node {
				t.Fatalf("grad_fn %v, want %s", y.gradFn, c.node)
			}
			g := must[*Tensor](t)(rt.Factory("empty", y.shape, Float32, CUDA0, false))
			m.log = nil
			if err := rt.Backward([]*Tensor{y}, []*Tensor{g}, BackwardOptions{}); err != nil {
				t.Fatal(err)
			}
			// the gradient (stolen by x.grad), then a saved clone freed with the node
			if c.bwd != nil {
				compareLog(t, "backward", m.log, c.bwd)
			}
		})
	}
}

// TestActivationMoreErrors checks PyTorch's messages for bad inputs.
func TestActivationMoreErrors(t *testing.T) {
	rt, _ := newRecRuntime()
	long := must[*Tensor](t)(rt.Factory("empty", []int64{4, 6}, Int64, CUDA0, false))
	boolT := must[*Tensor](t)(rt.Factory("empty", []int64{3}, Bool, CUDA0, false))
	odd := must[*Tensor](t)(rt.Factory("empty", []int64{4, 5}, Float32, CUDA0, false))
	scalar := must[*Tensor](t)(rt.Factory("empty", nil, Float32, CUDA0, false))
	cases := []struct {
		name string
		run  func() (*Tensor, error)
		want string
	}{
		{"elu long", func() (*Tensor, error) { return rt.Elu(long, 1) }, `"elu_cuda" not implemented for 'Long'`},
		{"mish_ long", func() (*Tensor, error) { return rt.MishInplace(long) }, `"mish_cuda" not implemented for 'Long'`},
		{"logsigmoid long", func() (*Tensor, error) { return rt.LogSigmoid(long) }, `"log_sigmoid_forward_cuda" not implemented for 'Long'`},
		{"hardtanh bool", func() (*Tensor, error) { return rt.Hardtanh(boolT, -1, 1) }, "Bool inputs not supported for hardtanh"},
		{"glu odd", func() (*Tensor, error) { return rt.Glu(odd, 1) }, "Halving dimension must be even, but dimension 1 is size 5"},
		{"glu dim", func() (*Tensor, error) { return rt.Glu(odd, 2) }, "Dimension out of range (expected to be in range of [-2, 1], but got 2)"},
		{"glu scalar", func() (*Tensor, error) { return rt.Glu(scalar, -1) }, "glu does not support scalars because halving size must be even"},
	}
	for _, c := range cases {
		if _, err := c.run(); err == nil || err.Error() != c.want {
			t.Errorf("%s: %v, want %q", c.name, err, c.want)
		}
	}
	// hardtanh runs clamp: integers are accepted
	if _, err := rt.Hardtanh(long, 0, 6); err != nil {
		t.Errorf("hardtanh long: %v", err)
	}
}

// TestGluLayout checks glu's output shape and strides: the input's
// dimension order, the halved dimension's size.
func TestGluLayout(t *testing.T) {
	rt, _ := newRecRuntime()
	a := must[*Tensor](t)(rt.Factory("empty", []int64{1000, 64}, Float32, CUDA0, false))
	at := must[*Tensor](t)(rt.T(a)) // [64, 1000], strides (1, 64)
	for _, c := range []struct {
		x       *Tensor
		dim     int64
		shape   string
		strides string
	}{
		{a, -1, "[1000 32]", "[32 1]"},
		{a, 0, "[500 64]", "[64 1]"},
		{at, 0, "[32 1000]", "[1 32]"},
	} {
		y := must[*Tensor](t)(rt.Glu(c.x, c.dim))
		if fmt.Sprint(y.shape) != c.shape || fmt.Sprint(y.strides) != c.strides {
			t.Errorf("glu(%v, %d): %v %v, want %s %s", c.x.shape, c.dim, y.shape, y.strides, c.shape, c.strides)
		}
	}
}

// TestFeatureDropoutMemory checks feature_dropout: the (N, C, 1, 1) noise
// (kept by MulBackward0) and the output; p = 1 multiplies by a zero-dim
// zeros tensor; p = 0 / eval return the input.
func TestFeatureDropoutMemory(t *testing.T) {
	for _, c := range []struct {
		name       string
		p          float64
		train, inp bool
		fwd, bwd   []int64
		node       string
	}{
		{"p0.5", 0.5, true, false, []int64{128, 3200}, []int64{3200}, "MulBackward0"},
		{"inplace", 0.5, true, true, []int64{128}, []int64{3200}, "MulBackward0"},
		{"p1", 1, true, false, []int64{4, 3200}, []int64{3200}, "MulBackward0"},
		{"eval", 0.5, false, false, nil, nil, "CloneBackward0"},
	} {
		t.Run(c.name, func(t *testing.T) {
			rt, m := newRecRuntime()
			x := must[*Tensor](t)(rt.Factory("empty", []int64{4, 8, 5, 5}, Float32, CUDA0, true))
			in := must[*Tensor](t)(rt.Clone(x))
			m.log = nil
			y := must[*Tensor](t)(rt.FeatureDropout(in, c.p, c.train, c.inp))
			compareLog(t, "forward", m.log, c.fwd)
			if y.gradFn == nil || y.gradFn.name != c.node {
				t.Fatalf("grad_fn %v, want %s", y.gradFn, c.node)
			}
			g := must[*Tensor](t)(rt.Factory("empty", y.shape, Float32, CUDA0, false))
			m.log = nil
			if err := rt.Backward([]*Tensor{y}, []*Tensor{g}, BackwardOptions{}); err != nil {
				t.Fatal(err)
			}
			if c.bwd != nil {
				compareLog(t, "backward", m.log[:len(c.bwd)], c.bwd)
			}
		})
	}
}
