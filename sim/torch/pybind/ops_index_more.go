package pybind

import (
	"github.com/gpumem/playground/sim/py"
	"github.com/gpumem/playground/sim/torch"
)

// Indexing ops of session 14 (sim/torch/ops_index_more.go,
// ops_masked_scatter.go, ops_scatter_reduce.go, ops_search.go):
// index_copy(_), index_fill(_), scatter_reduce(_), masked_scatter(_),
// searchsorted and bucketize.
func init() {
	for _, inplace := range []bool{false, true} {
		inplace := inplace
		reg, sfx := both, ""
		if inplace {
			reg, sfx = method, "_"
		}
		reg("index_copy"+sfx, func(h *Host, it *py.Interp, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
			name := "index_copy" + sfx
			x, err := self(name, args)
			if err != nil {
				return nil, err
			}
			d, err := intOf(name, "dim", argOr(args, kwargs, 1, "dim"), 0)
			if err != nil {
				return nil, err
			}
			idx, err := tensorOf(name, "index", argOr(args, kwargs, 2, "index"))
			if err != nil {
				return nil, err
			}
			src, err := tensorOf(name, "source", argOr(args, kwargs, 3, "source"))
			if err != nil {
				return nil, err
			}
			return h.wrapResult(h.rt.IndexCopy(x.t, d, idx, src, inplace))
		})
		reg("index_fill"+sfx, func(h *Host, it *py.Interp, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
			name := "index_fill" + sfx
			x, err := self(name, args)
			if err != nil {
				return nil, err
			}
			d, err := intOf(name, "dim", argOr(args, kwargs, 1, "dim"), 0)
			if err != nil {
				return nil, err
			}
			idx, err := tensorOf(name, "index", argOr(args, kwargs, 2, "index"))
			if err != nil {
				return nil, err
			}
			v := argOr(args, kwargs, 3, "value")
			var vt *torch.Tensor
			if t, ok := tensorArg(v); ok {
				vt = t
			} else if _, ok := scalarArg(v); !ok {
				return nil, typeErr("%s(): argument 'value' (position 3) must be Number, not %s", name, typeName(v))
			}
			return h.wrapResult(h.rt.IndexFill(x.t, d, idx, vt, inplace))
		})
		reg("scatter_reduce"+sfx, func(h *Host, it *py.Interp, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
			name := "scatter_reduce" + sfx
			x, err := self(name, args)
			if err != nil {
				return nil, err
			}
			d, err := intOf(name, "dim", argOr(args, kwargs, 1, "dim"), 0)
			if err != nil {
				return nil, err
			}
			idx, err := tensorOf(name, "index", argOr(args, kwargs, 2, "index"))
			if err != nil {
				return nil, err
			}
			src, err := tensorOf(name, "src", argOr(args, kwargs, 3, "src"))
			if err != nil {
				return nil, err
			}
			rv := argOr(args, kwargs, 4, "reduce")
			if rv == nil {
				return nil, typeErr("%s() missing 1 required positional argument: \"reduce\"", name)
			}
			red, err := strOf(name, "reduce", rv, "")
			if err != nil {
				return nil, err
			}
			inc, err := boolOf(it, argOr(nil, kwargs, -1, "include_self"), true)
			if err != nil {
				return nil, err
			}
			return h.wrapResult(h.rt.ScatterReduce(x.t, d, idx, src, red, inc, inplace))
		})
		reg("masked_scatter"+sfx, func(h *Host, it *py.Interp, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
			name := "masked_scatter" + sfx
			x, err := self(name, args)
			if err != nil {
				return nil, err
			}
			m, err := tensorOf(name, "mask", argOr(args, kwargs, 1, "mask"))
			if err != nil {
				return nil, err
			}
			src, err := tensorOf(name, "source", argOr(args, kwargs, 2, "source"))
			if err != nil {
				return nil, err
			}
			return h.wrapResult(h.rt.MaskedScatter(x.t, m, src, inplace))
		})
	}
	def("searchsorted", false, true, func(h *Host, it *py.Interp, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
		b, err := tensorOf("searchsorted", "sorted_sequence", argOr(args, kwargs, 0, "sorted_sequence"))
		if err != nil {
			return nil, err
		}
		var a torch.SearchsortedArgs
		if a.OutInt32, err = boolOf(it, argOr(nil, kwargs, -1, "out_int32"), false); err != nil {
			return nil, err
		}
		if a.Right, err = boolOf(it, argOr(nil, kwargs, -1, "right"), false); err != nil {
			return nil, err
		}
		if a.Side, err = strOf("searchsorted", "side", argOr(nil, kwargs, -1, "side"), ""); err != nil {
			return nil, err
		}
		if a.Sorter, err = optTensor("searchsorted", "sorter", argOr(nil, kwargs, -1, "sorter")); err != nil {
			return nil, err
		}
		v := argOr(args, kwargs, 1, "input")
		if s, ok := scalarArg(v); ok && !isTensor(v) {
			return h.wrapResult(h.rt.SearchsortedScalar(b, s, a))
		}
		t, err := tensorOf("searchsorted", "input", v)
		if err != nil {
			return nil, err
		}
		return h.wrapResult(h.rt.Searchsorted(b, t, a))
	})
	def("bucketize", false, true, func(h *Host, it *py.Interp, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
		b, err := tensorOf("bucketize", "boundaries", argOr(args, kwargs, 1, "boundaries"))
		if err != nil {
			return nil, err
		}
		i32, err := boolOf(it, argOr(nil, kwargs, -1, "out_int32"), false)
		if err != nil {
			return nil, err
		}
		right, err := boolOf(it, argOr(nil, kwargs, -1, "right"), false)
		if err != nil {
			return nil, err
		}
		v := argOr(args, kwargs, 0, "input")
		if s, ok := scalarArg(v); ok && !isTensor(v) {
			return h.wrapResult(h.rt.BucketizeScalar(s, b, i32, right))
		}
		t, err := tensorOf("bucketize", "input", v)
		if err != nil {
			return nil, err
		}
		return h.wrapResult(h.rt.Bucketize(t, b, i32, right))
	})
}
