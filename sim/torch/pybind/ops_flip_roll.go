package pybind

import (
	"github.com/gpumem/playground/sim/py"
)

// torch.flip/fliplr/flipud, torch.roll, Tensor.repeat and
// torch.repeat_interleave (sim/torch/ops_flip_roll.go, ops_repeat.go).
func init() {
	both("flip", func(h *Host, it *py.Interp, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
		x, err := self("flip", args)
		if err != nil {
			return nil, err
		}
		dims, err := varInts("flip", "dims", args, kwargs)
		if err != nil {
			return nil, err
		}
		return h.wrapResult(h.rt.Flip(x.t, dims))
	})
	for _, name := range []string{"fliplr", "flipud"} {
		both(name, func(h *Host, it *py.Interp, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
			x, err := self(name, args)
			if err != nil {
				return nil, err
			}
			if err := maxPositional(name, args, 1); err != nil {
				return nil, err
			}
			dim, need := int64(1), 2
			if name == "flipud" {
				dim, need = 0, 1
			}
			if x.t.Dim() < need {
				return nil, runtimeErr("Input must be >= %d-d.", need)
			}
			return h.wrapResult(h.rt.Flip(x.t, []int64{dim}))
		})
	}
	both("roll", func(h *Host, it *py.Interp, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
		x, err := self("roll", args)
		if err != nil {
			return nil, err
		}
		if err := maxPositional("roll", args, 3); err != nil {
			return nil, err
		}
		sv := argOr(args, kwargs, 1, "shifts")
		if sv == nil {
			return nil, typeErr("roll() missing 1 required positional argument: \"shifts\"")
		}
		shifts, err := intList("roll", "shifts", sv)
		if err != nil {
			return nil, err
		}
		var dims []int64
		if dv := argOr(args, kwargs, 2, "dims"); dv != nil && dv != py.None {
			if dims, err = intList("roll", "dims", dv); err != nil {
				return nil, err
			}
		}
		return h.wrapResult(h.rt.Roll(x.t, shifts, dims))
	})
	method("repeat", func(h *Host, it *py.Interp, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
		x, err := self("repeat", args)
		if err != nil {
			return nil, err
		}
		reps, err := varInts("repeat", "repeats", args, kwargs)
		if err != nil {
			return nil, err
		}
		return h.wrapResult(h.rt.Repeat(x.t, reps))
	})
	both("repeat_interleave", func(h *Host, it *py.Interp, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
		x, err := self("repeat_interleave", args)
		if err != nil {
			return nil, err
		}
		rv := argOr(args, kwargs, 1, "repeats")
		if rv == nil {
			// torch.repeat_interleave(repeats): the counts are the input
			return nil, py.NewException(py.NotImplementedError, "torch.repeat_interleave with tensor repeats is not simulated: its output size depends on the values")
		}
		if _, isT := rv.(*Tensor); isT {
			return nil, py.NewException(py.NotImplementedError, "torch.repeat_interleave with tensor repeats is not simulated: its output size depends on the values")
		}
		reps, err := intOf("repeat_interleave", "repeats", rv, 0)
		if err != nil {
			return nil, err
		}
		var dim, size *int64
		if dv := argOr(args, kwargs, 2, "dim"); dv != nil && dv != py.None {
			d, err := intOf("repeat_interleave", "dim", dv, 0)
			if err != nil {
				return nil, err
			}
			dim = &d
		}
		if sv, ok := kw(kwargs, "output_size"); ok && sv != py.None {
			s, err := intOf("repeat_interleave", "output_size", sv, 0)
			if err != nil {
				return nil, err
			}
			size = &s
		}
		return h.wrapResult(h.rt.RepeatInterleave(x.t, reps, dim, size))
	})
}

// varInts reads a list of ints given as varargs after self, as one
// sequence or int, or as the keyword name (x.flip(0, 1), x.flip((0, 1)),
// torch.flip(x, dims=[0]), x.repeat(2, 3)).
func varInts(fn, name string, args []py.Value, kwargs []py.Kwarg) ([]int64, error) {
	if v, ok := kw(kwargs, name); ok {
		return intList(fn, name, v)
	}
	if len(args) == 2 {
		return intList(fn, name, args[1])
	}
	if len(args) < 2 {
		return nil, typeErr("%s() missing 1 required positional argument: \"%s\"", fn, name)
	}
	return shapeArgs(fn, args[1:])
}
