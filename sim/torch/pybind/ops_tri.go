package pybind

import (
	"github.com/gpumem/playground/sim/py"
	"github.com/gpumem/playground/sim/torch"
)

// torch.tril/triu(input, diagonal=0) and Tensor.tril/triu/tril_/triu_
// (sim/torch/tri.go); torch.masked_fill(input, mask, value),
// Tensor.masked_fill and masked_fill_ (sim/torch/tri_mask.go): the causal
// masks of attention code (nanoGPT's tril buffer, masked_fill(-inf)).
func init() {
	for _, upper := range []bool{false, true} {
		name := "tril"
		if upper {
			name = "triu"
		}
		both(name, func(h *Host, it *py.Interp, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
			x, k, err := triArgs(name, args, kwargs)
			if err != nil {
				return nil, err
			}
			return h.wrapResult(h.rt.Tri(x.t, upper, k))
		})
		method(name+"_", func(h *Host, it *py.Interp, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
			x, k, err := triArgs(name+"_", args, kwargs)
			if err != nil {
				return nil, err
			}
			return h.wrapResult(h.rt.TriInplace(x.t, upper, k))
		})
	}
	both("masked_fill", func(h *Host, it *py.Interp, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
		x, mask, v, vt, err := maskedFillArgs("masked_fill", args, kwargs)
		if err != nil {
			return nil, err
		}
		return h.wrapResult(h.rt.MaskedFill(x.t, mask, v, vt))
	})
	method("masked_fill_", func(h *Host, it *py.Interp, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
		x, mask, v, vt, err := maskedFillArgs("masked_fill_", args, kwargs)
		if err != nil {
			return nil, err
		}
		return h.wrapResult(h.rt.MaskedFillInplace(x.t, mask, v, vt))
	})
}

// triArgs reads (input, diagonal=0).
func triArgs(name string, args []py.Value, kwargs []py.Kwarg) (*Tensor, int64, error) {
	x, err := self(name, args)
	if err != nil {
		return nil, 0, err
	}
	if err := maxPositional(name, args, 1); err != nil {
		return nil, 0, err
	}
	k, err := intOf(name, "diagonal", argOr(args, kwargs, 1, "diagonal"), 0)
	return x, k, err
}

// maskedFillArgs reads (input, mask, value): value is a Python number or a
// 0-dim tensor.
func maskedFillArgs(name string, args []py.Value, kwargs []py.Kwarg) (*Tensor, *torch.Tensor, torch.Scalar, *torch.Tensor, error) {
	x, err := self(name, args)
	if err != nil {
		return nil, nil, torch.Scalar{}, nil, err
	}
	if err := maxPositional(name, args, 2); err != nil {
		return nil, nil, torch.Scalar{}, nil, err
	}
	mask, err := tensorOf(name, "mask", argOr(args, kwargs, 1, "mask"))
	if err != nil {
		return nil, nil, torch.Scalar{}, nil, err
	}
	v := argOr(args, kwargs, 2, "value")
	if v == nil {
		return nil, nil, torch.Scalar{}, nil, typeErr("%s() missing 1 required positional argument: \"value\"", name)
	}
	if s, ok := scalarArg(v); ok {
		return x, mask, s, nil, nil
	}
	if t, ok := tensorArg(v); ok {
		return x, mask, torch.Scalar{}, t, nil
	}
	return nil, nil, torch.Scalar{}, nil, typeErr("%s(): argument 'value' must be Number, not %s", name, typeName(v))
}
