package pybind

import (
	"math"

	"github.com/gpumem/playground/sim/py"
	"github.com/gpumem/playground/sim/torch"
)

// dimsArg reads an optional dim argument (int, tuple of ints or None).
func dimsArg(fn string, v py.Value) ([]int64, error) {
	if v == nil || v == py.None {
		return nil, nil
	}
	return intList(fn, "dim", v)
}

func init() {
	for _, name := range []string{"sum", "mean", "nansum", "nanmean"} {
		both(name, func(h *Host, it *py.Interp, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
			x, err := self(name, args)
			if err != nil {
				return nil, err
			}
			var dims []int64
			var keep bool
			var dtp *torch.DType
			dv := argOr(args, kwargs, 1, "dim")
			if d, ok, _ := dtypeArg(dv); ok {
				dtp, dv = &d, nil
			}
			if dims, err = dimsArg(name, dv); err != nil {
				return nil, err
			}
			if keep, err = boolOf(it, argOr(args, kwargs, 2, "keepdim"), false); err != nil {
				return nil, err
			}
			if d, ok, err := dtypeArg(argOr(nil, kwargs, -1, "dtype")); err != nil {
				return nil, err
			} else if ok {
				dtp = &d
			}
			if dv != nil && dv != py.None && len(dims) == 0 {
				dims = []int64{} // an empty dim list reduces everything too
			}
			if name == "sum" {
				// autocast's fp32_set_opt_dtype policy covers sum (not nansum)
				dtp = h.rt.AutocastOptDType(x.t, dtp)
			}
			if name == "sum" || name == "nansum" {
				return h.wrapResult(h.rt.Sum(x.t, dims, keep, dtp))
			}
			return h.wrapResult(h.rt.Mean(x.t, dims, keep, dtp))
		})
	}
	for _, name := range []string{"max", "min"} {
		both(name, func(h *Host, it *py.Interp, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
			x, err := self(name, args)
			if err != nil {
				return nil, err
			}
			dv := argOr(args, kwargs, 1, "dim")
			if dv == nil || dv == py.None {
				if x.t.Numel() == 0 {
					return nil, runtimeErr("%s(): Expected reduction dim to be specified for input.numel() == 0. Specify the reduction dim with the 'dim' argument.", name)
				}
				return h.wrapResult(h.rt.MaxAll(name, x.t))
			}
			if o, ok := tensorArg(dv); ok {
				op := "maximum"
				if name == "min" {
					op = "minimum"
				}
				return h.wrapResult(h.rt.BinaryNoGrad(op, x.t, o))
			}
			d, err := intOf(name, "dim", dv, 0)
			if err != nil {
				return nil, err
			}
			keep, err := boolOf(it, argOr(args, kwargs, 2, "keepdim"), false)
			if err != nil {
				return nil, err
			}
			v, i, err := h.rt.MaxDim(name, x.t, d, keep)
			if err != nil {
				return nil, pyErr(err)
			}
			return h.wrapReturnType(name, []string{"values", "indices"}, []*torch.Tensor{v, i}), nil
		})
	}
	for _, name := range []string{"amax", "amin"} {
		both(name, func(h *Host, it *py.Interp, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
			x, err := self(name, args)
			if err != nil {
				return nil, err
			}
			if d := argOr(args, kwargs, 1, "dim"); d != nil && d != py.None && !isEmptyDims(d) {
				dims, err := dimsArg(name, d)
				if err != nil {
					return nil, err
				}
				keep, err := boolOf(it, argOr(args, kwargs, 2, "keepdim"), false)
				if err != nil {
					return nil, err
				}
				return h.wrapResult(h.rt.AmaxDims(name, x.t, dims, keep)) // ops_reduce_more.go
			}
			return h.wrapResult(h.rt.MaxAll(name, x.t))
		})
	}
	for _, name := range []string{"argmax", "argmin"} {
		both(name, func(h *Host, it *py.Interp, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
			x, err := self(name, args)
			if err != nil {
				return nil, err
			}
			var dp *int64
			if dv := argOr(args, kwargs, 1, "dim"); (dv == nil || dv == py.None) && x.t.Numel() == 0 {
				return nil, py.NewException(py.IndexError, name+"(): Expected reduction dim to be specified for input.numel() == 0.") // q11
			}
			if dv := argOr(args, kwargs, 1, "dim"); dv != nil && dv != py.None {
				d, err := intOf(name, "dim", dv, 0)
				if err != nil {
					return nil, err
				}
				dp = &d
			}
			keep, err := boolOf(it, argOr(args, kwargs, 2, "keepdim"), false)
			if err != nil {
				return nil, err
			}
			return h.wrapResult(h.rt.Argmax(name, x.t, dp, keep))
		})
	}
	for _, name := range []string{"all", "any"} {
		both(name, func(h *Host, it *py.Interp, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
			x, err := self(name, args)
			if err != nil {
				return nil, err
			}
			return h.wrapResult(h.rt.AllAny(name, x.t))
		})
	}
	both("norm", func(h *Host, it *py.Interp, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
		x, err := self("norm", args)
		if err != nil {
			return nil, err
		}
		dims, err := dimsArg("norm", argOr(args, kwargs, 2, "dim"))
		if err != nil {
			return nil, err
		}
		keep, err := boolOf(it, argOr(args, kwargs, 3, "keepdim"), false)
		if err != nil {
			return nil, err
		}
		p, err := floatOf("norm", "p", argOr(args, kwargs, 1, "p"), 2)
		if err != nil {
			p = math.NaN() // p="fro", "nuc": the memory is the same; no values
		}
		return h.wrapResult(h.rt.NormP(x.t, p, dims, keep))
	})
	for _, name := range []string{"var", "std"} {
		both(name, func(h *Host, it *py.Interp, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
			x, err := self(name, args)
			if err != nil {
				return nil, err
			}
			dims, err := dimsArg(name, argOr(args, kwargs, 1, "dim"))
			if err != nil {
				return nil, err
			}
			keep, err := boolOf(it, argOr(nil, kwargs, -1, "keepdim"), false)
			if err != nil {
				return nil, err
			}
			corr := 1.0 // correction=, or unbiased= (positional after dim)
			if u := argOr(args, kwargs, 2, "unbiased"); u != nil && u != py.None {
				b, err := boolOf(it, u, true)
				if err != nil {
					return nil, err
				}
				if !b {
					corr = 0
				}
			}
			if c := argOr(nil, kwargs, -1, "correction"); c != nil && c != py.None {
				if corr, err = floatOf(name, "correction", c, 1); err != nil {
					return nil, err
				}
			}
			return h.wrapResult(h.rt.VarCorrection(name, x.t, dims, keep, corr))
		})
	}
}

func init() {
	for _, name := range []string{"softmax", "log_softmax"} {
		softmax := func(asFunction bool) opFunc {
			return func(h *Host, it *py.Interp, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
				if dv := argOr(args, kwargs, 1, "dim"); dv == nil || dv == py.None {
					// dim is required (F.softmax alone picks one implicitly)
					if asFunction {
						return nil, invalidCombination(name, args, kwargs,
							"(Tensor input, int dim, torch.dtype dtype = None, *, Tensor out = None)",
							"(Tensor input, name dim, *, torch.dtype dtype = None)")
					}
					return nil, invalidCombination(name, args[1:], kwargs,
						"(int dim, torch.dtype dtype = None)",
						"(name dim, *, torch.dtype dtype = None)")
				}
				return softmaxOp(name, h, args, kwargs)
			}
		}
		bothApart(name, softmax(false), softmax(true))
	}
}

// softmaxOp is torch.softmax/log_softmax and the Tensor methods once dim is
// known to be given.
func softmaxOp(name string, h *Host, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
	x, err := self(name, args)
	if err != nil {
		return nil, err
	}
	d, err := intOf(name, "dim", argOr(args, kwargs, 1, "dim"), -1)
	if err != nil {
		return nil, err
	}
	var dtp *torch.DType
	if dt, ok, err := dtypeArg(argOr(args, kwargs, 2, "dtype")); err != nil {
		return nil, err
	} else if ok {
		dtp = &dt
	}
	return h.wrapResult(h.rt.Softmax(x.t, d, name == "log_softmax", dtp))
}

// isEmptyDims reports whether a dim argument is an empty tuple or list
// (amax(x, ()) reduces over every dimension, as no dim does).
func isEmptyDims(v py.Value) bool {
	switch d := v.(type) {
	case *py.Tuple:
		return d.Len() == 0
	case *py.List:
		return len(d.Elems()) == 0
	}
	return false
}
