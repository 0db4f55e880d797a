package pybind

import (
	"github.com/gpumem/playground/sim/py"
	"github.com/gpumem/playground/sim/torch"
)

// gather, scatter(_), scatter_add(_), index_add(_), index_put(_) as torch
// functions and Tensor methods.
func init() {
	both("gather", func(h *Host, it *py.Interp, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
		x, err := self("gather", args)
		if err != nil {
			return nil, err
		}
		d, err := intOf("gather", "dim", argOr(args, kwargs, 1, "dim"), 0)
		if err != nil {
			return nil, err
		}
		idx, err := tensorOf("gather", "index", argOr(args, kwargs, 2, "index"))
		if err != nil {
			return nil, err
		}
		if sg, _ := boolOf(it, argOr(args, kwargs, 3, "sparse_grad"), false); sg {
			return nil, py.NewException(py.NotImplementedError, "gather(sparse_grad=True) is not simulated")
		}
		return h.wrapResult(h.rt.Gather(x.t, d, idx))
	})
	for _, name := range []string{"scatter", "scatter_add", "index_add"} {
		for _, inplace := range []bool{false, true} {
			name, inplace := name, inplace
			full := name
			reg := both
			if inplace {
				full, reg = name+"_", method
			}
			reg(full, func(h *Host, it *py.Interp, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
				return scatterCall(h, full, name, inplace, args, kwargs)
			})
		}
	}
	for _, inplace := range []bool{false, true} {
		inplace := inplace
		full, reg := "index_put", both
		if inplace {
			full, reg = "index_put_", method
		}
		reg(full, func(h *Host, it *py.Interp, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
			x, err := self(full, args)
			if err != nil {
				return nil, err
			}
			items, ok := elems(argOr(args, kwargs, 1, "indices"))
			if !ok || len(items) == 0 {
				return nil, py.NewException(py.NotImplementedError, full+"() is simulated with index tensors only")
			}
			vals, err := tensorOf(full, "values", argOr(args, kwargs, 2, "values"))
			if err != nil {
				return nil, err
			}
			acc, err := boolOf(it, argOr(args, kwargs, 3, "accumulate"), false)
			if err != nil {
				return nil, err
			}
			if len(items) > 1 {
				return indexPutTuple(h, full, x.t, items, vals, acc, inplace)
			}
			idx, err := tensorOf(full, "indices", items[0])
			if err != nil {
				return nil, err
			}
			return h.wrapResult(h.rt.IndexPutOp(x.t, idx, vals, acc, inplace))
		})
	}
}

// scatterCall parses (dim, index, src|value, ...) of scatter, scatter_add
// and index_add (source=, alpha=) and runs the op.
func scatterCall(h *Host, full, name string, inplace bool, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
	x, err := self(full, args)
	if err != nil {
		return nil, err
	}
	d, err := intOf(full, "dim", argOr(args, kwargs, 1, "dim"), 0)
	if err != nil {
		return nil, err
	}
	idx, err := tensorOf(full, "index", argOr(args, kwargs, 2, "index"))
	if err != nil {
		return nil, err
	}
	if argOr(args, kwargs, 4, "reduce") != nil && name == "scatter" {
		return nil, py.NewException(py.NotImplementedError, "scatter(reduce=...) is not simulated")
	}
	mode := map[string]torch.ScatterMode{"scatter": torch.ScatterSrc, "scatter_add": torch.ScatterAdd, "index_add": torch.IndexAdd}[name]
	key := "src"
	if name == "index_add" {
		key = "source"
	}
	v := argOr(args, kwargs, 3, key)
	if v == nil && name == "scatter" {
		v = argOr(args, kwargs, 3, "value")
	}
	var src *torch.Tensor
	var value float64
	if t, ok := tensorArg(v); ok {
		src = t
	} else if s, ok := scalarArg(v); ok && name == "scatter" {
		mode, value = torch.ScatterValue, s.Value()
	} else {
		return nil, typeErr("%s(): argument '%s' must be Tensor, not %s", full, key, typeName(v))
	}
	alpha := 1.0
	if name == "index_add" {
		if s, ok := scalarArg(argOr(nil, kwargs, -1, "alpha")); ok {
			alpha = s.Value()
		}
	}
	return h.wrapResult(h.rt.Scatter(mode, x.t, d, idx, src, value, alpha, inplace))
}
