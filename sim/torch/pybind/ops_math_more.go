package pybind

import (
	"github.com/gpumem/playground/sim/py"
	"github.com/gpumem/playground/sim/torch"
)

// The pointwise math family (sim/torch/ops_math_*.go) as torch functions
// and Tensor methods: unary ops and their in-place forms, the binary ops
// (hypot, atan2/arctan2, logaddexp, logaddexp2, xlogy), clamp_min/clamp_max
// with a number or a tensor, nan_to_num, sgn, isfinite & co., isclose and
// allclose.
func init() {
	aliases := map[string]string{"arcsin": "asin", "arccos": "acos", "arctan": "atan", "arcsinh": "asinh",
		"arccosh": "acosh", "arctanh": "atanh"}
	names := map[string]string{}
	for _, op := range []string{"log1p", "expm1", "erf", "erfc", "erfinv", "exp2", "sin", "cos", "tan", "asin",
		"acos", "atan", "sinh", "cosh", "asinh", "acosh", "atanh", "log2", "log10", "logit", "deg2rad", "lgamma",
		"digamma", "frac", "sinc"} {
		names[op] = op
	}
	for a, op := range aliases {
		names[a] = op
	}
	for name, op := range names {
		both(name, func(h *Host, it *py.Interp, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
			x, err := self(name, args)
			if err != nil {
				return nil, err
			}
			return h.wrapResult(h.rt.MathUnary(op, x.t))
		})
		both(name+"_", func(h *Host, it *py.Interp, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
			x, err := self(name+"_", args)
			if err != nil {
				return nil, err
			}
			return h.wrapResult(h.rt.MathUnaryInplace(op, x.t))
		})
	}
	both("fix", func(h *Host, it *py.Interp, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
		x, err := self("fix", args)
		if err != nil {
			return nil, err
		}
		return h.wrapResult(h.rt.RoundLike("trunc", x.t))
	})
	both("positive", func(h *Host, it *py.Interp, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
		x, err := self("positive", args)
		if err != nil {
			return nil, err
		}
		if x.t.DType() == torch.Bool {
			return nil, runtimeErr("The `+` operator, on a bool tensor is not supported.")
		}
		return py.IncRef(x), nil
	})
	both("sgn", func(h *Host, it *py.Interp, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
		x, err := self("sgn", args)
		if err != nil {
			return nil, err
		}
		return h.wrapResult(h.rt.Sgn(x.t))
	})
	method("sgn_", func(h *Host, it *py.Interp, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
		x, err := self("sgn_", args)
		if err != nil {
			return nil, err
		}
		return h.wrapResult(h.rt.SgnInplace(x.t))
	})
	both("isfinite", func(h *Host, it *py.Interp, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
		x, err := self("isfinite", args)
		if err != nil {
			return nil, err
		}
		return h.wrapResult(h.rt.Isfinite(x.t))
	})
	for _, name := range []string{"isneginf", "isposinf", "signbit", "isreal"} {
		both(name, func(h *Host, it *py.Interp, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
			x, err := self(name, args)
			if err != nil {
				return nil, err
			}
			return h.wrapResult(h.rt.BoolCheck(name, x.t))
		})
	}
	both("nan_to_num", func(h *Host, it *py.Interp, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
		x, err := self("nan_to_num", args)
		if err != nil {
			return nil, err
		}
		if err := nanToNumArgs(args, kwargs); err != nil {
			return nil, err
		}
		return h.wrapResult(h.rt.NanToNum(x.t))
	})
	both("nan_to_num_", func(h *Host, it *py.Interp, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
		x, err := self("nan_to_num_", args)
		if err != nil {
			return nil, err
		}
		if err := nanToNumArgs(args, kwargs); err != nil {
			return nil, err
		}
		return h.wrapResult(h.rt.NanToNumInplace(x.t))
	})
	for _, name := range []string{"clamp_min", "clamp_max"} {
		arg := name[len("clamp_"):]
		both(name, func(h *Host, it *py.Interp, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
			x, err := self(name, args)
			if err != nil {
				return nil, err
			}
			v := argOr(args, kwargs, 1, arg)
			if b, ok := tensorArg(v); ok {
				return h.wrapResult(h.rt.ClampTensorBound(name, x.t, b))
			}
			s, ok := scalarArg(v)
			if !ok {
				return nil, typeErr("%s(): argument '%s' (position 2) must be Number, not %s", name, arg, typeName(v))
			}
			if name == "clamp_min" {
				return h.wrapResult(h.rt.ClampMin(x.t, s.Value()))
			}
			return h.wrapResult(h.rt.ClampMax(x.t, s.Value()))
		})
		both(name+"_", func(h *Host, it *py.Interp, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
			x, err := self(name+"_", args)
			if err != nil {
				return nil, err
			}
			v := argOr(args, kwargs, 1, arg)
			if b, ok := tensorArg(v); ok {
				return h.wrapResult(h.rt.ClampTensorBoundInplace(name, x.t, b))
			}
			s, ok := scalarArg(v)
			if !ok {
				return nil, typeErr("%s_(): argument '%s' (position 1) must be Number, not %s", name, arg, typeName(v))
			}
			return h.wrapResult(h.rt.ClampBoundInplace(name, x.t, s.Value()))
		})
	}
	binary := map[string]string{"hypot": "hypot", "atan2": "atan2", "arctan2": "atan2", "logaddexp": "logaddexp",
		"logaddexp2": "logaddexp2", "copysign": "copysign", "fmax": "fmax", "fmin": "fmin"}
	for name, op := range binary {
		both(name, func(h *Host, it *py.Interp, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
			x, err := self(name, args)
			if err != nil {
				return nil, err
			}
			o := argOr(args, kwargs, 1, "other")
			b, ok := tensorArg(o)
			if !ok {
				return nil, typeErr("%s(): argument 'other' (position 2) must be Tensor, not %s", name, typeName(o))
			}
			return h.wrapResult(h.rt.MathBinary(op, x.t, b))
		})
		if name == "logaddexp" || name == "logaddexp2" || name == "fmax" || name == "fmin" {
			continue // no in-place forms
		}
		method(name+"_", func(h *Host, it *py.Interp, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
			x, err := self(name+"_", args)
			if err != nil {
				return nil, err
			}
			o := argOr(args, kwargs, 1, "other")
			b, ok := tensorArg(o)
			if !ok {
				return nil, typeErr("%s_(): argument 'other' (position 1) must be Tensor, not %s", name, typeName(o))
			}
			return h.wrapResult(h.rt.MathBinaryInplace(op, x.t, b))
		})
	}
	both("xlogy", xlogyOp)
	method("xlogy_", func(h *Host, it *py.Interp, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
		x, err := self("xlogy_", args)
		if err != nil {
			return nil, err
		}
		o := argOr(args, kwargs, 1, "other")
		b, ok := tensorArg(o)
		if !ok {
			return nil, py.NewException(py.NotImplementedError, "xlogy_ with a number is not simulated")
		}
		return h.wrapResult(h.rt.XlogyInplace(x.t, b))
	})
	both("isclose", func(h *Host, it *py.Interp, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
		a, b, rtol, atol, nan, err := closeArgs("isclose", it, args, kwargs)
		if err != nil {
			return nil, err
		}
		return h.wrapResult(h.rt.Isclose(a, b, rtol, atol, nan))
	})
	both("allclose", func(h *Host, it *py.Interp, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
		a, b, rtol, atol, nan, err := closeArgs("allclose", it, args, kwargs)
		if err != nil {
			return nil, err
		}
		v, err := h.rt.Allclose(a, b, rtol, atol, nan)
		if err != nil {
			return nil, pyErr(err)
		}
		return py.Bool(v), nil
	})
}

// xlogyOp is torch.xlogy(input, other): tensors or one number.
func xlogyOp(h *Host, it *py.Interp, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
	a := argOr(args, kwargs, 0, "input")
	if a == nil {
		a = argOr(nil, kwargs, -1, "self")
	}
	o := argOr(args, kwargs, 1, "other")
	at, aok := tensorArg(a)
	bt, bok := tensorArg(o)
	switch {
	case aok && bok:
		return h.wrapResult(h.rt.Xlogy(at, bt))
	case aok:
		if s, ok := scalarArg(o); ok {
			return h.wrapResult(h.rt.XlogyScalarOther(at, s))
		}
	case bok:
		if s, ok := scalarArg(a); ok {
			return h.wrapResult(h.rt.XlogyScalarSelf(s, bt))
		}
	}
	return nil, typeErr("xlogy() received an invalid combination of arguments - got (%s, %s)", typeName(a), typeName(o))
}

// nanToNumArgs checks nan/posinf/neginf are numbers or None (the values
// are not simulated).
func nanToNumArgs(args []py.Value, kwargs []py.Kwarg) error {
	for i, name := range []string{"nan", "posinf", "neginf"} {
		if _, err := floatOf("nan_to_num", name, argOr(args, kwargs, i+1, name), 0); err != nil {
			return err
		}
	}
	return nil
}

// closeArgs reads isclose/allclose's (input, other, rtol=1e-05,
// atol=1e-08, equal_nan=False).
func closeArgs(fn string, it *py.Interp, args []py.Value, kwargs []py.Kwarg) (*torch.Tensor, *torch.Tensor, float64, float64, bool, error) {
	x, err := self(fn, args)
	if err != nil {
		return nil, nil, 0, 0, false, err
	}
	o := argOr(args, kwargs, 1, "other")
	b, ok := tensorArg(o)
	if !ok {
		return nil, nil, 0, 0, false, typeErr("%s(): argument 'other' (position 2) must be Tensor, not %s", fn, typeName(o))
	}
	rtol, err := floatOf(fn, "rtol", argOr(args, kwargs, 2, "rtol"), 1e-05)
	if err != nil {
		return nil, nil, 0, 0, false, err
	}
	atol, err := floatOf(fn, "atol", argOr(args, kwargs, 3, "atol"), 1e-08)
	if err != nil {
		return nil, nil, 0, 0, false, err
	}
	nan, err := boolOf(it, argOr(args, kwargs, 4, "equal_nan"), false)
	if err != nil {
		return nil, nil, 0, 0, false, err
	}
	return x.t, b, rtol, atol, nan, nil
}

// clampTensorBounds returns clamp's min and max when at least one is a
// tensor (the other a tensor or None); ok is false for number bounds.
func clampTensorBounds(args []py.Value, kwargs []py.Kwarg) (*torch.Tensor, *torch.Tensor, bool) {
	var ts [2]*torch.Tensor
	found := false
	for i, name := range []string{"min", "max"} {
		v := argOr(args, kwargs, i+1, name)
		if t, ok := tensorArg(v); ok {
			ts[i], found = t, true
		} else if v != nil && v != py.None {
			return nil, nil, false // a number: clamp.Scalar
		}
	}
	return ts[0], ts[1], found
}
