package pybind

import (
	"github.com/gpumem/playground/sim/py"
	"github.com/gpumem/playground/sim/torch"
)

// The division family's bindings: torch.fmod / Tensor.fmod, the in-place
// floor_divide_, remainder_, fmod_, //= and %=, and torch.div's
// rounding_mode ("trunc", "floor").

func init() {
	both("fmod", func(h *Host, it *py.Interp, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
		x, err := self("fmod", args)
		if err != nil {
			return nil, err
		}
		return h.divOp("fmod", x.t, argOr(args, kwargs, 1, "other"))
	})
	for _, name := range []string{"floor_divide_", "remainder_", "fmod_"} {
		base := name[:len(name)-1]
		method(name, func(h *Host, it *py.Interp, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
			x, err := self(name, args)
			if err != nil {
				return nil, err
			}
			if _, err := h.inplaceDiv(x, base, argOr(args, kwargs, 1, "other")); err != nil {
				return nil, err
			}
			return py.IncRef(x), nil
		})
	}
}

// divOp is op(t, other) for a tensor or a Python number other.
func (h *Host) divOp(op string, t *torch.Tensor, other py.Value) (py.Value, error) {
	if b, ok := tensorArg(other); ok {
		return h.wrapResult(h.rt.DivTensor(op, t, b))
	}
	if s, ok := scalarArg(other); ok {
		return h.wrapResult(h.rt.DivScalarOp(op, t, s, false))
	}
	return nil, typeErr("%s(): argument 'other' (position 2) must be Tensor, not %s", op, typeName(other))
}

// inplaceDiv is t.op_(other) (//=, %=, floor_divide_, remainder_, fmod_,
// div_ with a rounding mode): x itself, a new reference.
func (h *Host) inplaceDiv(x *Tensor, op string, other py.Value) (py.Value, error) {
	var r *torch.Tensor
	var err error
	if b, ok := tensorArg(other); ok {
		r, err = h.rt.DivInplace(op, x.t, b, torch.Scalar{})
	} else if s, ok := scalarArg(other); ok {
		r, err = h.rt.DivInplace(op, x.t, nil, s)
	} else {
		return nil, typeErr("%s_(): argument 'other' (position 1) must be Tensor, not %s", op, typeName(other))
	}
	if err != nil {
		return nil, pyErr(err)
	}
	r.Release()
	return py.IncRef(x), nil
}

// roundingMode reads torch.div's rounding_mode: "" for None (true
// division), "div_trunc" or "floor_divide"; PyTorch's error for another
// string.
func roundingMode(kwargs []py.Kwarg) (string, error) {
	v := argOr(nil, kwargs, -1, "rounding_mode")
	if v == nil || v == py.None {
		return "", nil
	}
	s, ok := v.(py.Str)
	if !ok {
		return "", typeErr("div(): argument 'rounding_mode' must be str, not %s", typeName(v))
	}
	switch string(s) {
	case "trunc":
		return "div_trunc", nil
	case "floor":
		return "floor_divide", nil
	}
	return "", runtimeErr("div expected rounding_mode to be one of None, 'trunc', or 'floor' but found '%s'", string(s))
}

// intsList is tolist() of an integer tensor read exactly.
func (h *Host) intsList(shape []int64, ints []int64) py.Value {
	if len(shape) == 0 {
		return py.Int(ints[0])
	}
	vs := make([]py.Value, shape[0])
	step := len(ints) / max(int(shape[0]), 1)
	for i := range vs {
		vs[i] = h.intsList(shape[1:], ints[i*step:(i+1)*step])
	}
	return h.it.NewList(vs)
}

// flatInts is flatData for nested lists of Python integers only, exactly
// (beyond 2^53 too); ok is false for anything else.
func flatInts(v py.Value, out []int64) ([]int64, bool) {
	if i, ok := v.(py.Int); ok {
		return append(out, int64(i)), true
	}
	es, ok := elems(v)
	if !ok {
		return out, false
	}
	for _, e := range es {
		if out, ok = flatInts(e, out); !ok {
			return out, false
		}
	}
	return out, true
}

// makeInitExact is makeInit for an integer tensor filled from exact
// Python integers (torch.tensor of ints, torch.full with an int).
func (h *Host) makeInitExact(op string, shape []int64, o factoryOpts, def torch.DType, kind torch.ExecKind, ints []int64) (py.Value, error) {
	t, err := h.rt.Factory(op, shape, o.dtype(def), o.dev, o.rg)
	if err == nil {
		h.rt.InitExact(t, kind, ints)
	}
	return h.wrapResult(t, err)
}
