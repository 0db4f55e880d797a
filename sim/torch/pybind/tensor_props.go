package pybind

import (
	"github.com/gpumem/playground/sim/py"
	"github.com/gpumem/playground/sim/torch"
)

// tget adapts a getter over the tensor.
func tget(f func(x *Tensor) (py.Value, error)) py.PropSpec {
	return py.PropSpec{Get: func(it *py.Interp, s py.Value) (py.Value, error) {
		x := s.(*Tensor)
		if x.t == nil {
			return nil, runtimeErr("internal: a released tensor was used")
		}
		return f(x)
	}}
}

func tensorProps() map[string]py.PropSpec {
	p := map[string]py.PropSpec{
		"shape":    tget(func(x *Tensor) (py.Value, error) { return newSizeValue(x.t.Shape()), nil }),
		"dtype":    tget(func(x *Tensor) (py.Value, error) { return x.h.dtype(x.t.DType()), nil }),
		"device":   tget(func(x *Tensor) (py.Value, error) { return &DeviceObj{d: x.t.Device()}, nil }),
		"is_cuda":  tget(func(x *Tensor) (py.Value, error) { return py.Bool(x.t.Device().IsCUDA()), nil }),
		"is_leaf":  tget(func(x *Tensor) (py.Value, error) { return py.Bool(x.t.IsLeaf()), nil }),
		"ndim":     tget(func(x *Tensor) (py.Value, error) { return py.Int(x.t.Dim()), nil }),
		"itemsize": tget(func(x *Tensor) (py.Value, error) { return py.Int(x.t.ElementSize()), nil }),
		"nbytes": tget(func(x *Tensor) (py.Value, error) {
			return py.Int(x.t.Numel() * x.t.ElementSize()), nil
		}),
		"is_sparse": tget(func(x *Tensor) (py.Value, error) { return py.False, nil }),
		"layout":    {Get: func(it *py.Interp, s py.Value) (py.Value, error) { return stridedLayout(it) }},
		"is_nested": tget(func(x *Tensor) (py.Value, error) { return py.False, nil }), // no nested tensors
		"_version":  tget(func(x *Tensor) (py.Value, error) { return py.Int(x.t.Version()), nil }),
		"grad_fn": tget(func(x *Tensor) (py.Value, error) {
			n := x.t.GradFn()
			if n == nil {
				return py.None, nil
			}
			return x.h.wrapNode(n.Retain()), nil
		}),
		"T": tget(func(x *Tensor) (py.Value, error) {
			dims := make([]int64, x.t.Dim())
			for i := range dims {
				dims[i] = int64(len(dims) - 1 - i)
			}
			return x.h.wrapResult(x.h.rt.Permute(x.t, dims))
		}),
		"mT": tget(func(x *Tensor) (py.Value, error) { return x.h.wrapResult(x.h.rt.Transpose(x.t, -2, -1)) }),
	}
	p["requires_grad"] = py.PropSpec{
		Get: tget(func(x *Tensor) (py.Value, error) { return py.Bool(x.t.RequiresGrad()), nil }).Get,
		Set: func(it *py.Interp, s, v py.Value) error {
			if v == nil {
				return py.NewException(py.AttributeError, "can't delete requires_grad")
			}
			b, err := it.Truth(v)
			if err != nil {
				return err
			}
			return pyErr(s.(*Tensor).t.SetRequiresGrad(b))
		},
	}
	p["grad"] = py.PropSpec{
		Get: tget(func(x *Tensor) (py.Value, error) { return x.h.wrapBorrowed(x.t.Grad()), nil }).Get,
		Set: func(it *py.Interp, s, v py.Value) error {
			x := s.(*Tensor)
			if v == nil || v == py.None {
				return pyErr(x.t.SetGrad(nil))
			}
			g, ok := tensorArg(v)
			if !ok {
				return typeErr("assigned grad expected to be a Tensor or None but got grad of type %s", typeName(v))
			}
			return pyErr(x.t.SetGrad(g))
		},
	}
	p["data"] = py.PropSpec{
		Get: tget(func(x *Tensor) (py.Value, error) { return x.h.wrap(x.h.rt.Data(x.t)), nil }).Get,
		Set: func(it *py.Interp, s, v py.Value) error {
			o, ok := tensorArg(v)
			if !ok {
				return typeErr("data must be a Tensor")
			}
			return pyErr(s.(*Tensor).h.rt.SetData(s.(*Tensor).t, o))
		},
	}
	return p
}

func init() {
	info := func(name string, f func(h *Host, x *Tensor) py.Value) {
		method(name, func(h *Host, it *py.Interp, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
			x, err := self(name, args)
			if err != nil {
				return nil, err
			}
			if metaNoArgs[name] {
				if err := noArgs(name, args, kwargs); err != nil {
					return nil, err
				}
			}
			return f(h, x), nil
		})
	}
	info("dim", func(h *Host, x *Tensor) py.Value { return py.Int(x.t.Dim()) })
	info("ndimension", func(h *Host, x *Tensor) py.Value { return py.Int(x.t.Dim()) })
	both("numel", func(h *Host, it *py.Interp, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
		x, err := self("numel", args)
		if err != nil {
			return nil, err
		}
		return py.Int(x.t.Numel()), nil
	})
	info("nelement", func(h *Host, x *Tensor) py.Value { return py.Int(x.t.Numel()) })
	info("element_size", func(h *Host, x *Tensor) py.Value { return py.Int(x.t.ElementSize()) })
	method("is_contiguous", func(h *Host, it *py.Interp, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
		x, err := self("is_contiguous", args)
		if err != nil {
			return nil, err
		}
		mf, ok, err := memoryFormatArg(argOr(args, kwargs, 1, "memory_format"))
		if err != nil {
			return nil, err
		}
		if !ok {
			mf = torch.ContiguousFormat
		}
		return py.Bool(x.t.IsContiguousIn(mf)), nil
	})
	info("storage_offset", func(h *Host, x *Tensor) py.Value { return py.Int(x.t.Offset()) })
	info("is_floating_point", func(h *Host, x *Tensor) py.Value { return py.Bool(x.t.DType().IsFloating()) })
	info("is_complex", func(h *Host, x *Tensor) py.Value { return py.Bool(x.t.DType().IsComplex()) })
	info("is_inference", func(h *Host, x *Tensor) py.Value { return py.Bool(x.t.IsInference()) })
	info("get_device", func(h *Host, x *Tensor) py.Value {
		if x.t.Device().IsCUDA() {
			return py.Int(x.t.Device().Index)
		}
		return py.Int(-1)
	})
	method("item", func(h *Host, it *py.Interp, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
		x, err := self("item", args)
		if err != nil {
			return nil, err
		}
		if len(args) > 1 || len(kwargs) > 0 {
			return nil, typeErr("item() takes no arguments (%d given)", len(args)-1+len(kwargs))
		}
		if n := x.t.Numel(); n != 1 {
			return nil, pyErr(torch.Errorf(torch.RuntimeError, "a Tensor with %d elements cannot be converted to Scalar", n))
		}
		return itemValue(x.t)
	})
	info("data_ptr", func(h *Host, x *Tensor) py.Value { return py.Int(int64(x.t.DataPtr(blockAddr))) })
	method("tolist", func(h *Host, it *py.Interp, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
		x, err := self("tolist", args)
		if err != nil {
			return nil, err
		}
		if x.t.DType().IsIntegral(false) {
			if ints, err := x.t.IntValues(); err == nil {
				return h.intsList(x.t.Shape(), ints), nil // exact beyond 2^53
			}
		}
		if vals, err := x.t.Values(); err == nil {
			return h.valuesList(x.t.DType(), x.t.Shape(), vals), nil
		}
		// Not computed: NaN for floats on a GPU run, an error for integers
		// and bools there (itemValue), zeros in the simulator.
		leaf, err := itemValue(x.t)
		if err != nil {
			return nil, err
		}
		return h.zerosList(leaf, x.t.Shape()), nil
	})
	method("size", func(h *Host, it *py.Interp, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
		x, err := self("size", args)
		if err != nil {
			return nil, err
		}
		shape := x.t.Shape()
		if d := argOr(args, kwargs, 1, "dim"); d != nil && d != py.None {
			i, err := intOf("size", "dim", d, 0)
			if err != nil {
				return nil, err
			}
			w, err := wrapIndex(i, len(shape))
			if err != nil {
				return nil, err
			}
			return py.Int(shape[w]), nil
		}
		return newSizeValue(shape), nil
	})
	method("stride", func(h *Host, it *py.Interp, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
		x, err := self("stride", args)
		if err != nil {
			return nil, err
		}
		st := x.t.Strides()
		if d := argOr(args, kwargs, 1, "dim"); d != nil && d != py.None {
			i, err := intOf("stride", "dim", d, 0)
			if err != nil {
				return nil, err
			}
			w, err := wrapIndex(i, len(st))
			if err != nil {
				return nil, err
			}
			return py.Int(st[w]), nil
		}
		vs := make([]py.Value, len(st))
		for i, s := range st {
			vs[i] = py.Int(s)
		}
		return it.NewTuple(vs), nil
	})
	method("requires_grad_", func(h *Host, it *py.Interp, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
		x, err := self("requires_grad_", args)
		if err != nil {
			return nil, err
		}
		b, err := boolOf(it, argOr(args, kwargs, 1, "requires_grad"), true)
		if err != nil {
			return nil, err
		}
		if err := x.t.SetRequiresGrad(b); err != nil {
			return nil, pyErr(err)
		}
		return py.IncRef(x), nil
	})
	method("retain_grad", func(h *Host, it *py.Interp, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
		x, err := self("retain_grad", args)
		if err != nil {
			return nil, err
		}
		return py.None, pyErr(h.rt.RetainGrad(x.t))
	})
	method("backward", func(h *Host, it *py.Interp, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
		x, err := self("backward", args)
		if err != nil {
			return nil, err
		}
		return h.backward([]py.Value{x}, argOr(args, kwargs, 1, "gradient"), argOr(args, kwargs, 2, "retain_graph"),
			argOr(args, kwargs, 3, "create_graph"), argOr(args, kwargs, 4, "inputs"))
	})
}

// wrapIndex wraps a possibly negative dim into [0, n).
func wrapIndex(i int64, n int) (int, error) {
	if i < -int64(n) || i >= int64(n) {
		lo, hi := -n, n-1
		if n == 0 {
			lo, hi = -1, 0
		}
		return 0, py.Errorf(py.IndexError, "Dimension out of range (expected to be in range of [%d, %d], but got %d)", lo, hi, i)
	}
	if i < 0 {
		i += int64(n)
	}
	return int(i), nil
}

// zerosList is tolist(): nested lists of the (unsimulated) zero value.
// valuesList is tolist() of computed values (row-major), typed as
// item() types them.
func (h *Host) valuesList(dt torch.DType, shape []int64, vals []float64) py.Value {
	if len(shape) == 0 {
		switch {
		case dt == torch.Bool:
			return py.Bool(vals[0] != 0)
		case dt.IsIntegral(false):
			return py.Int(int64(vals[0]))
		}
		return py.Float(vals[0])
	}
	vs := make([]py.Value, shape[0])
	step := len(vals) / max(int(shape[0]), 1)
	for i := range vs {
		vs[i] = h.valuesList(dt, shape[1:], vals[i*step:(i+1)*step])
	}
	return h.it.NewList(vs)
}

func (h *Host) zerosList(leaf py.Value, shape []int64) py.Value {
	if len(shape) == 0 {
		return leaf
	}
	vs := make([]py.Value, shape[0])
	for i := range vs {
		vs[i] = h.zerosList(leaf, shape[1:])
	}
	return h.it.NewList(vs)
}
