package pybind

import (
	"github.com/gpumem/playground/sim/py"
	"github.com/gpumem/playground/sim/torch"
)

// Reductions, scans and small products of sim/torch/ops_reduce_more.go,
// ops_scan_more.go, ops_products*.go and ops_cdist.go as torch functions
// and Tensor methods.
func init() {
	both("count_nonzero", func(h *Host, it *py.Interp, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
		x, err := self("count_nonzero", args)
		if err != nil {
			return nil, err
		}
		dims, err := dimsArg("count_nonzero", argOr(args, kwargs, 1, "dim"))
		if err != nil {
			return nil, err
		}
		return h.wrapResult(h.rt.CountNonzero(x.t, dims))
	})
	both("aminmax", func(h *Host, it *py.Interp, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
		x, err := self("aminmax", args)
		if err != nil {
			return nil, err
		}
		if err := maxPositional("aminmax", args, 1); err != nil {
			return nil, err
		}
		var dim *int64
		if dv := argOr(nil, kwargs, -1, "dim"); dv != nil && dv != py.None {
			d, err := intOf("aminmax", "dim", dv, 0)
			if err != nil {
				return nil, err
			}
			dim = &d
		}
		keep, err := boolOf(it, argOr(nil, kwargs, -1, "keepdim"), false)
		if err != nil {
			return nil, err
		}
		lo, hi, err := h.rt.Aminmax(x.t, dim, keep)
		if err != nil {
			return nil, pyErr(err)
		}
		return h.wrapReturnType("aminmax", []string{"min", "max"}, []*torch.Tensor{lo, hi}), nil
	})
	for _, name := range []string{"std_mean", "var_mean"} {
		op := name[:3]
		both(name, func(h *Host, it *py.Interp, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
			x, err := self(name, args)
			if err != nil {
				return nil, err
			}
			dims, err := dimsArg(name, argOr(args, kwargs, 1, "dim"))
			if err != nil {
				return nil, err
			}
			corr := 1.0
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
			keep, err := boolOf(it, argOr(args, kwargs, 3, "keepdim"), false)
			if err != nil {
				return nil, err
			}
			if !x.t.DType().IsFloating() && !x.t.DType().IsComplex() {
				return nil, runtimeErr("%s only support floating point and complex dtypes", name)
			}
			a, b, err := h.rt.StdVarMean(op, x.t, dims, corr, keep)
			if err != nil {
				return nil, pyErr(err)
			}
			return h.wrapTuple([]*torch.Tensor{a, b}), nil
		})
	}
	for _, name := range []string{"cummax", "cummin"} {
		both(name, func(h *Host, it *py.Interp, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
			x, err := self(name, args)
			if err != nil {
				return nil, err
			}
			dv := argOr(args, kwargs, 1, "dim")
			if dv == nil {
				return nil, typeErr("%s() missing 1 required positional arguments: \"dim\"", name)
			}
			dim, err := intOf(name, "dim", dv, 0)
			if err != nil {
				return nil, err
			}
			v, i, err := h.rt.CumMaxMin(name, x.t, dim)
			if err != nil {
				return nil, pyErr(err)
			}
			return h.wrapReturnType(name, []string{"values", "indices"}, []*torch.Tensor{v, i}), nil
		})
	}
	both("logcumsumexp", func(h *Host, it *py.Interp, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
		x, err := self("logcumsumexp", args)
		if err != nil {
			return nil, err
		}
		dv := argOr(args, kwargs, 1, "dim")
		if dv == nil {
			return nil, typeErr("logcumsumexp() missing 1 required positional arguments: \"dim\"")
		}
		dim, err := intOf("logcumsumexp", "dim", dv, 0)
		if err != nil {
			return nil, err
		}
		return h.wrapResult(h.rt.Logcumsumexp(x.t, dim))
	})
	both("diff", func(h *Host, it *py.Interp, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
		x, err := self("diff", args)
		if err != nil {
			return nil, err
		}
		n, err := intOf("diff", "n", argOr(args, kwargs, 1, "n"), 1)
		if err != nil {
			return nil, err
		}
		dim, err := intOf("diff", "dim", argOr(args, kwargs, 2, "dim"), -1)
		if err != nil {
			return nil, err
		}
		pre, err := optTensor("diff", "prepend", argOr(args, kwargs, 3, "prepend"))
		if err != nil {
			return nil, err
		}
		app, err := optTensor("diff", "append", argOr(args, kwargs, 4, "append"))
		if err != nil {
			return nil, err
		}
		return h.wrapResult(h.rt.Diff(x.t, n, dim, pre, app))
	})
	both("trace", func(h *Host, it *py.Interp, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
		x, err := self("trace", args)
		if err != nil {
			return nil, err
		}
		return h.wrapResult(h.rt.Trace(x.t))
	})
	both("dist", func(h *Host, it *py.Interp, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
		x, err := self("dist", args)
		if err != nil {
			return nil, err
		}
		o, err := tensorOf("dist", "other", argOr(args, kwargs, 1, "other"))
		if err != nil {
			return nil, err
		}
		p, err := floatOf("dist", "p", argOr(args, kwargs, 2, "p"), 2)
		if err != nil {
			return nil, err
		}
		return h.wrapResult(h.rt.Dist(x.t, o, p))
	})
	both("inner", func(h *Host, it *py.Interp, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
		x, err := self("inner", args)
		if err != nil {
			return nil, err
		}
		o, err := tensorOf("inner", "other", argOr(args, kwargs, 1, "other"))
		if err != nil {
			return nil, err
		}
		return h.wrapResult(h.rt.Inner(x.t, o))
	})
	both("mv", func(h *Host, it *py.Interp, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
		x, err := self("mv", args)
		if err != nil {
			return nil, err
		}
		v, err := tensorOf("mv", "vec", argOr(args, kwargs, 1, "vec"))
		if err != nil {
			return nil, err
		}
		return h.wrapResult(h.rt.Mv(x.t, v))
	})
	for _, name := range []string{"addmv", "addmv_"} {
		def(name, true, name == "addmv", func(h *Host, it *py.Interp, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
			x, err := self(name, args)
			if err != nil {
				return nil, err
			}
			m, err := tensorOf(name, "mat", argOr(args, kwargs, 1, "mat"))
			if err != nil {
				return nil, err
			}
			v, err := tensorOf(name, "vec", argOr(args, kwargs, 2, "vec"))
			if err != nil {
				return nil, err
			}
			beta, alpha, err := betaAlpha(name, kwargs)
			if err != nil {
				return nil, err
			}
			if name == "addmv_" {
				return h.wrapResult(h.rt.AddmvInplace(x.t, m, v, beta, alpha))
			}
			return h.wrapResult(h.rt.Addmv(x.t, m, v, beta, alpha))
		})
	}
	for _, name := range []string{"addbmm", "addbmm_"} {
		def(name, true, name == "addbmm", func(h *Host, it *py.Interp, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
			x, err := self(name, args)
			if err != nil {
				return nil, err
			}
			b1, err := tensorOf(name, "batch1", argOr(args, kwargs, 1, "batch1"))
			if err != nil {
				return nil, err
			}
			b2, err := tensorOf(name, "batch2", argOr(args, kwargs, 2, "batch2"))
			if err != nil {
				return nil, err
			}
			beta, alpha, err := betaAlpha(name, kwargs)
			if err != nil {
				return nil, err
			}
			return h.wrapResult(h.rt.Addbmm(x.t, b1, b2, beta, alpha, name == "addbmm_"))
		})
	}
	both("kron", func(h *Host, it *py.Interp, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
		x, err := self("kron", args)
		if err != nil {
			return nil, err
		}
		o, err := tensorOf("kron", "other", argOr(args, kwargs, 1, "other"))
		if err != nil {
			return nil, err
		}
		return h.wrapResult(h.rt.Kron(x.t, o))
	})
	both("cross", func(h *Host, it *py.Interp, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
		x, err := self("cross", args)
		if err != nil {
			return nil, err
		}
		o, err := tensorOf("cross", "other", argOr(args, kwargs, 1, "other"))
		if err != nil {
			return nil, err
		}
		dv := argOr(args, kwargs, 2, "dim")
		var dim int64
		if dv == nil || dv == py.None {
			// deprecated: the first dim of size 3 (PyTorch also warns)
			if dim, err = torch.DefaultCrossDim(x.t, o); err != nil {
				return nil, pyErr(err)
			}
		} else if dim, err = intOf("cross", "dim", dv, -1); err != nil {
			return nil, err
		}
		return h.wrapResult(h.rt.LinalgCross(x.t, o, dim))
	})
	both("cdist", func(h *Host, it *py.Interp, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
		x, err := self("cdist", args)
		if err != nil {
			return nil, err
		}
		o, err := tensorOf("cdist", "x2", argOr(args, kwargs, 1, "x2"))
		if err != nil {
			return nil, err
		}
		p, err := floatOf("cdist", "p", argOr(args, kwargs, 2, "p"), 2)
		if err != nil {
			return nil, err
		}
		mode, err := strOf("cdist", "compute_mode", argOr(args, kwargs, 3, "compute_mode"), "use_mm_for_euclid_dist_if_necessary")
		if err != nil {
			return nil, err
		}
		m, ok := torch.CdistModes[mode]
		if !ok {
			return nil, py.NewException(py.ValueError, mode+" is not a valid value for compute_mode")
		}
		return h.wrapResult(h.rt.Cdist(x.t, o, p, m))
	})
}

// betaAlpha reads the keyword-only beta=1, alpha=1 of addmv/addbmm.
func betaAlpha(fn string, kwargs []py.Kwarg) (float64, float64, error) {
	beta, err := floatOf(fn, "beta", argOr(nil, kwargs, -1, "beta"), 1)
	if err != nil {
		return 0, 0, err
	}
	alpha, err := floatOf(fn, "alpha", argOr(nil, kwargs, -1, "alpha"), 1)
	return beta, alpha, err
}

// linalgCross is torch.linalg.cross(input, other, *, dim=-1).
func linalgCross(h *Host, it *py.Interp, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
	x, err := self("linalg.cross", args)
	if err != nil {
		return nil, err
	}
	o, err := tensorOf("linalg.cross", "other", argOr(args, kwargs, 1, "other"))
	if err != nil {
		return nil, err
	}
	dim, err := intOf("linalg.cross", "dim", argOr(nil, kwargs, -1, "dim"), -1)
	if err != nil {
		return nil, err
	}
	return h.wrapResult(h.rt.LinalgCross(x.t, o, dim))
}
