package pybind

import (
	"github.com/gpumem/playground/sim/py"
	"github.com/gpumem/playground/sim/torch"
)

// torch.logsumexp(input, dim, keepdim=False) and torch.prod(input, *,
// dtype) / torch.prod(input, dim, keepdim=False, *, dtype)
// (sim/torch/ops_logsumexp.go, ops_prod.go); prod follows autocast's
// fp32_set_opt_dtype policy, as sum does.
func init() {
	lse := func(asFunction bool) opFunc {
		return func(h *Host, it *py.Interp, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
			x, err := self("logsumexp", args)
			if err != nil {
				return nil, err
			}
			dv := argOr(args, kwargs, 1, "dim")
			if dv == nil || dv == py.None {
				if asFunction {
					return nil, invalidCombination("logsumexp", args, kwargs,
						"(Tensor input, tuple of ints dim, bool keepdim = False, *, Tensor out = None)",
						"(Tensor input, tuple of names dim, bool keepdim = False, *, Tensor out = None)")
				}
				return nil, invalidCombination("logsumexp", args[1:], kwargs,
					"(tuple of ints dim, bool keepdim = False)",
					"(tuple of names dim, bool keepdim = False)")
			}
			if err := maxPositional("logsumexp", args, 3); err != nil {
				return nil, err
			}
			dims, err := intList("logsumexp", "dim", dv)
			if err != nil {
				return nil, err
			}
			keep, err := boolOf(it, argOr(args, kwargs, 2, "keepdim"), false)
			if err != nil {
				return nil, err
			}
			return h.wrapResult(h.rt.Logsumexp(x.t, dims, keep))
		}
	}
	bothApart("logsumexp", lse(false), lse(true))
	both("prod", func(h *Host, it *py.Interp, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
		x, err := self("prod", args)
		if err != nil {
			return nil, err
		}
		if err := maxPositional("prod", args, 3); err != nil {
			return nil, err
		}
		var dtp *torch.DType
		if d, ok, err := dtypeArg(argOr(nil, kwargs, -1, "dtype")); err != nil {
			return nil, err
		} else if ok {
			dtp = &d
		}
		dtp = h.rt.AutocastOptDType(x.t, dtp)
		dv := argOr(args, kwargs, 1, "dim")
		if dv == nil || dv == py.None {
			return h.wrapResult(h.rt.Prod(x.t, nil, false, dtp))
		}
		dim, err := intOf("prod", "dim", dv, 0)
		if err != nil {
			return nil, err
		}
		keep, err := boolOf(it, argOr(args, kwargs, 2, "keepdim"), false)
		if err != nil {
			return nil, err
		}
		return h.wrapResult(h.rt.Prod(x.t, []int64{dim}, keep, dtp))
	})
}
