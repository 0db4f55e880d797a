package pybind

import (
	"github.com/gpumem/playground/sim/py"
	"github.com/gpumem/playground/sim/torch"
)

// tensordot, outer/ger, dot/vdot, movedim/moveaxis, broadcast_to,
// tile, diag/diag_embed, hstack/vstack: the torch functions and
// Tensor methods of PyTorch 2.11 over the Go ops of the same names.
func init() {
	def("tensordot", false, true, func(h *Host, it *py.Interp, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
		a, err := tensorOf("tensordot", "a", argOr(args, kwargs, 0, "a"))
		if err != nil {
			return nil, err
		}
		b, err := tensorOf("tensordot", "b", argOr(args, kwargs, 1, "b"))
		if err != nil {
			return nil, err
		}
		da, db, err := tensordotDims(argOr(args, kwargs, 2, "dims"))
		if err != nil {
			return nil, err
		}
		return h.wrapResult(h.rt.Tensordot(a, b, da, db))
	})
	pair := func(name, k1, k2 string, f func(rt *torch.Runtime, a, b *torch.Tensor) (*torch.Tensor, error)) opFunc {
		return func(h *Host, it *py.Interp, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
			x, err := self(name, args)
			if err != nil {
				return nil, err
			}
			o, err := tensorOf(name, k2, argOr(args, kwargs, 1, k2))
			if err != nil {
				return nil, err
			}
			return h.wrapResult(f(h.rt, x.t, o))
		}
	}
	both("outer", pair("outer", "input", "vec2", (*torch.Runtime).Outer))
	both("ger", pair("ger", "input", "vec2", (*torch.Runtime).Outer))
	for _, name := range []string{"dot", "vdot"} {
		op := name
		both(name, pair(name, "input", "tensor", func(rt *torch.Runtime, a, b *torch.Tensor) (*torch.Tensor, error) {
			return rt.Dot(op, a, b)
		}))
	}
	for _, name := range []string{"movedim", "moveaxis"} {
		both(name, func(h *Host, it *py.Interp, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
			x, err := self(name, args)
			if err != nil {
				return nil, err
			}
			src, err := intList(name, "source", argOr(args, kwargs, 1, "source"))
			if err != nil {
				return nil, err
			}
			dst, err := intList(name, "destination", argOr(args, kwargs, 2, "destination"))
			if err != nil {
				return nil, err
			}
			return h.wrapResult(h.rt.Movedim(x.t, src, dst))
		})
	}
	sizesOp := func(name, key string, f func(h *Host, t *torch.Tensor, s []int64) (*torch.Tensor, error)) opFunc {
		return func(h *Host, it *py.Interp, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
			x, err := self(name, args)
			if err != nil {
				return nil, err
			}
			rest := args[1:]
			if v, ok := kw(kwargs, key); ok && len(rest) == 0 {
				rest = []py.Value{v}
			}
			s, err := shapeArgs(name, rest)
			if err != nil {
				return nil, err
			}
			return h.wrapResult(f(h, x.t, s))
		}
	}
	both("broadcast_to", sizesOp("broadcast_to", "size", func(h *Host, t *torch.Tensor, s []int64) (*torch.Tensor, error) {
		return h.rt.Expand(t, s)
	}))
	both("tile", sizesOp("tile", "dims", func(h *Host, t *torch.Tensor, s []int64) (*torch.Tensor, error) {
		return h.rt.Tile(t, s)
	}))
	both("diag", func(h *Host, it *py.Interp, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
		x, err := self("diag", args)
		if err != nil {
			return nil, err
		}
		d, err := intOf("diag", "diagonal", argOr(args, kwargs, 1, "diagonal"), 0)
		if err != nil {
			return nil, err
		}
		return h.wrapResult(h.rt.Diag(x.t, d))
	})
	both("diag_embed", func(h *Host, it *py.Interp, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
		x, err := self("diag_embed", args)
		if err != nil {
			return nil, err
		}
		o, err := intOf("diag_embed", "offset", argOr(args, kwargs, 1, "offset"), 0)
		if err != nil {
			return nil, err
		}
		d1, err := intOf("diag_embed", "dim1", argOr(args, kwargs, 2, "dim1"), -2)
		if err != nil {
			return nil, err
		}
		d2, err := intOf("diag_embed", "dim2", argOr(args, kwargs, 3, "dim2"), -1)
		if err != nil {
			return nil, err
		}
		return h.wrapResult(h.rt.DiagEmbed(x.t, o, d1, d2))
	})
	for _, name := range []string{"hstack", "vstack", "row_stack"} {
		def(name, false, true, func(h *Host, it *py.Interp, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
			seq := argOr(args, kwargs, 0, "tensors")
			es, ok := elems(seq)
			if !ok {
				return nil, typeErr("%s(): argument 'tensors' (position 1) must be tuple of Tensors, not %s", name, typeName(seq))
			}
			ts := make([]*torch.Tensor, len(es))
			for i, e := range es {
				t, ok := tensorArg(e)
				if !ok {
					return nil, typeErr("expected Tensor as element %d in argument 0, but got %s", i, typeName(e))
				}
				ts[i] = t
			}
			if name == "hstack" {
				return h.wrapResult(h.rt.Hstack(ts))
			}
			return h.wrapResult(h.rt.Vstack(ts))
		})
	}
}

// tensordotDims reads tensordot's dims as torch/functional.py does: an int
// n (the last n dims of a with the first n of b), or two lists.
func tensordotDims(v py.Value) ([]int64, []int64, error) {
	if v == nil {
		v = py.Int(2)
	}
	if n, ok := intArg(v); ok {
		if n < 0 {
			return nil, nil, runtimeErr("tensordot expects dims >= 0, but got dims=%d", n)
		}
		da, db := make([]int64, n), make([]int64, n)
		for i := int64(0); i < n; i++ {
			da[i] = i - n
			db[i] = i
		}
		return da, db, nil
	}
	es, ok := elems(v)
	if !ok || len(es) != 2 {
		return nil, nil, runtimeErr("tensordot expects dims to be int or Tuple[List[int], List[int]] or List[List[int]] containing two lists, but got dims=%s", typeName(v))
	}
	da, err := intList("tensordot", "dims_a", es[0])
	if err != nil {
		return nil, nil, err
	}
	db, err := intList("tensordot", "dims_b", es[1])
	if err != nil {
		return nil, nil, err
	}
	return da, db, nil
}
