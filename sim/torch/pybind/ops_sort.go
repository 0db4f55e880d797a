package pybind

import (
	"github.com/gpumem/playground/sim/py"
	"github.com/gpumem/playground/sim/torch"
)

// torch.sort/argsort/msort, torch.topk, torch.kthvalue/median/mode
// (sim/torch/ops_sort.go, ops_topk.go, ops_kthvalue.go) as functions and
// Tensor methods; the pairs come back as torch.return_types.NAME
// (values, indices).
func init() {
	both("sort", func(h *Host, it *py.Interp, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
		x, err := self("sort", args)
		if err != nil {
			return nil, err
		}
		if err := maxPositional("sort", args, 2); err != nil {
			return nil, err
		}
		dim, err := intOf("sort", "dim", argOr(args, kwargs, 1, "dim"), -1)
		if err != nil {
			return nil, err
		}
		desc, err := boolOf(it, argOr(args, kwargs, 2, "descending"), false)
		if err != nil {
			return nil, err
		}
		stable, err := stableArg(it, kwargs)
		if err != nil {
			return nil, err
		}
		v, i, err := h.rt.Sort(x.t, dim, desc, stable)
		return h.pair("sort", v, i, err)
	})
	both("argsort", func(h *Host, it *py.Interp, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
		x, err := self("argsort", args)
		if err != nil {
			return nil, err
		}
		if err := maxPositional("argsort", args, 2); err != nil {
			return nil, err
		}
		dim, err := intOf("argsort", "dim", argOr(args, kwargs, 1, "dim"), -1)
		if err != nil {
			return nil, err
		}
		desc, err := boolOf(it, argOr(args, kwargs, 2, "descending"), false)
		if err != nil {
			return nil, err
		}
		stable, err := stableArg(it, kwargs)
		if err != nil {
			return nil, err
		}
		return h.wrapResult(h.rt.Argsort(x.t, dim, desc, stable))
	})
	both("msort", func(h *Host, it *py.Interp, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
		x, err := self("msort", args)
		if err != nil {
			return nil, err
		}
		return h.wrapResult(h.rt.Msort(x.t))
	})
	both("topk", func(h *Host, it *py.Interp, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
		x, err := self("topk", args)
		if err != nil {
			return nil, err
		}
		if err := maxPositional("topk", args, 5); err != nil {
			return nil, err
		}
		kv := argOr(args, kwargs, 1, "k")
		if kv == nil {
			return nil, typeErr("topk() missing 1 required positional argument: \"k\"")
		}
		k, err := intOf("topk", "k", kv, 0)
		if err != nil {
			return nil, err
		}
		dim, err := intOf("topk", "dim", argOr(args, kwargs, 2, "dim"), -1)
		if err != nil {
			return nil, err
		}
		largest, err := boolOf(it, argOr(args, kwargs, 3, "largest"), true)
		if err != nil {
			return nil, err
		}
		sorted, err := boolOf(it, argOr(args, kwargs, 4, "sorted"), true)
		if err != nil {
			return nil, err
		}
		v, i, err := h.rt.Topk(x.t, k, dim, largest, sorted)
		return h.pair("topk", v, i, err)
	})
	both("kthvalue", func(h *Host, it *py.Interp, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
		x, err := self("kthvalue", args)
		if err != nil {
			return nil, err
		}
		kv := argOr(args, kwargs, 1, "k")
		if kv == nil {
			return nil, typeErr("kthvalue() missing 1 required positional argument: \"k\"")
		}
		k, err := intOf("kthvalue", "k", kv, 0)
		if err != nil {
			return nil, err
		}
		dim, err := intOf("kthvalue", "dim", argOr(args, kwargs, 2, "dim"), -1)
		if err != nil {
			return nil, err
		}
		keep, err := boolOf(it, argOr(args, kwargs, 3, "keepdim"), false)
		if err != nil {
			return nil, err
		}
		v, i, err := h.rt.SelectDim("kthvalue", x.t, k, dim, keep)
		return h.pair("kthvalue", v, i, err)
	})
	both("median", func(h *Host, it *py.Interp, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
		x, err := self("median", args)
		if err != nil {
			return nil, err
		}
		dv := argOr(args, kwargs, 1, "dim")
		if dv == nil || dv == py.None {
			return h.wrapResult(h.rt.MedianAll(x.t))
		}
		dim, err := intOf("median", "dim", dv, -1)
		if err != nil {
			return nil, err
		}
		keep, err := boolOf(it, argOr(args, kwargs, 2, "keepdim"), false)
		if err != nil {
			return nil, err
		}
		v, i, err := h.rt.SelectDim("median", x.t, 0, dim, keep)
		return h.pair("median", v, i, err)
	})
	both("mode", func(h *Host, it *py.Interp, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
		x, err := self("mode", args)
		if err != nil {
			return nil, err
		}
		dim, err := intOf("mode", "dim", argOr(args, kwargs, 1, "dim"), -1)
		if err != nil {
			return nil, err
		}
		keep, err := boolOf(it, argOr(args, kwargs, 2, "keepdim"), false)
		if err != nil {
			return nil, err
		}
		v, i, err := h.rt.SelectDim("mode", x.t, 0, dim, keep)
		return h.pair("mode", v, i, err)
	})
}

// stableArg reads sort/argsort's keyword-only stable (nil: not given,
// which selects the overload without it).
func stableArg(it *py.Interp, kwargs []py.Kwarg) (*bool, error) {
	v, ok := kw(kwargs, "stable")
	if !ok || v == py.None {
		return nil, nil
	}
	b, err := it.Truth(v)
	if err != nil {
		return nil, err
	}
	return &b, nil
}

// pair wraps (values, indices) as torch.return_types.name.
func (h *Host) pair(name string, v, i *torch.Tensor, err error) (py.Value, error) {
	if err != nil {
		return nil, pyErr(err)
	}
	return h.wrapReturnType(name, []string{"values", "indices"}, []*torch.Tensor{v, i}), nil
}
