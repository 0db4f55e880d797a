package pybind

import (
	"github.com/gpumem/playground/sim/py"
	"github.com/gpumem/playground/sim/torch"
)

// F.group_norm, F.instance_norm and F.rms_norm with functional.py's own
// checks (dimension count, batch/spatial sizes) before the ATen op.
func init() {
	F := functionalOps
	// F.group_norm(input, num_groups, weight=None, bias=None, eps=1e-05)
	F["group_norm"] = func(h *Host, a *fnArgs) (*torch.Tensor, error) {
		x := a.tensor(0, "input")
		g := a.int(1, "num_groups", 0)
		w, b := a.optTensor(2, "weight"), a.optTensor(3, "bias")
		eps := a.float(4, "eps", 1e-5)
		if a.err != nil {
			return nil, a.err
		}
		sh := x.Shape()
		if len(sh) < 2 {
			return nil, runtimeErr("Expected at least 2 dimensions for input tensor but received %d", len(sh))
		}
		if g == 0 {
			return nil, py.NewException(py.ZeroDivisionError, "integer division or modulo by zero")
		}
		{
			// _verify_batch_size([N * C // num_groups, num_groups] + spatial)
			v := append([]int64{normFloorDiv(sh[0]*sh[1], g), g}, sh[2:]...)
			if err := normVerifyBatchSize(v); err != nil {
				return nil, err
			}
		}
		return h.rt.GroupNorm(x, g, w, b, eps)
	}
	// F.instance_norm(input, running_mean=None, running_var=None,
	// weight=None, bias=None, use_input_stats=True, momentum=0.1, eps=1e-05)
	F["instance_norm"] = func(h *Host, a *fnArgs) (*torch.Tensor, error) {
		x := a.tensor(0, "input")
		rm, rv := a.optTensor(1, "running_mean"), a.optTensor(2, "running_var")
		w, b := a.optTensor(3, "weight"), a.optTensor(4, "bias")
		use := a.bool(5, "use_input_stats", true)
		mom := a.float(6, "momentum", 0.1)
		eps := a.float(7, "eps", 1e-5)
		if a.err != nil {
			return nil, a.err
		}
		if use {
			sh := x.Shape()
			prod := int64(1)
			for _, s := range sh[min(2, len(sh)):] {
				prod *= s
			}
			if prod == 1 {
				return nil, py.NewException(py.ValueError, "Expected more than 1 spatial element when training, got input size "+normSizeRepr(sh))
			}
		}
		return h.rt.InstanceNorm(torch.InstanceNormArgs{X: x, RunningMean: rm, RunningVar: rv, Weight: w, Bias: b,
			UseInputStats: use, Momentum: mom, Eps: eps})
	}
	// F.rms_norm(input, normalized_shape, weight=None, eps=None)
	F["rms_norm"] = func(h *Host, a *fnArgs) (*torch.Tensor, error) {
		x := a.tensor(0, "input")
		var shape []int64
		if a.err == nil {
			shape, a.err = intList("rms_norm", "normalized_shape", a.v(1, "normalized_shape"))
		}
		w := a.optTensor(2, "weight")
		var eps *float64
		if ev := a.v(3, "eps"); ev != nil && ev != py.None {
			e := a.float(3, "eps", 0)
			eps = &e
		}
		if a.err != nil {
			return nil, a.err
		}
		return h.rt.RmsNorm(x, shape, w, eps)
	}
}

// normVerifyBatchSize is functional.py's _verify_batch_size on the list
// group_norm builds (printed as a list).
func normVerifyBatchSize(size []int64) error {
	prod := size[0]
	for _, s := range size[2:] {
		prod *= s
	}
	if prod == 1 {
		r := normSizeRepr(size)
		return py.NewException(py.ValueError, "Expected more than 1 value per channel when training, got input size "+r[len("torch.Size("):len(r)-1])
	}
	return nil
}

// normSizeRepr is repr(torch.Size(shape)).
func normSizeRepr(shape []int64) string {
	s := "torch.Size(["
	for i, d := range shape {
		if i > 0 {
			s += ", "
		}
		s += itoa(d)
	}
	return s + "])"
}

// normFloorDiv is Python's // on integers.
func normFloorDiv(a, b int64) int64 {
	q := a / b
	if (a%b != 0) && ((a < 0) != (b < 0)) {
		q--
	}
	return q
}
