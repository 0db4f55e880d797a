package pybind

import (
	"fmt"

	"github.com/gpumem/playground/sim/py"
	"github.com/gpumem/playground/sim/torch"
)

// Shape and creation ops of session 14 (sim/torch/ops_shape_more.go,
// ops_unfold.go, ops_block_diag.go, ops_create_more.go): tensor_split,
// column_stack, dstack, atleast_1d/2d/3d, meshgrid, cartesian_prod,
// block_diag, take_along_dim, Tensor.sum_to_size/unfold/type_as/squeeze_/
// unsqueeze_,
// empty_strided, tril_indices/triu_indices.
func init() {
	both("tensor_split", tensorSplit)
	for name, f := range map[string]func(*torch.Runtime, []*torch.Tensor) (*torch.Tensor, error){
		"column_stack": (*torch.Runtime).ColumnStack, "dstack": (*torch.Runtime).Dstack,
	} {
		def(name, false, true, func(h *Host, it *py.Interp, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
			ts, err := tensorTuple(name, "tensors", argOr(args, kwargs, 0, "tensors"))
			if err != nil {
				return nil, err
			}
			return h.wrapResult(f(h.rt, ts))
		})
	}
	for nd := 1; nd <= 3; nd++ {
		name := fmt.Sprintf("atleast_%dd", nd)
		def(name, false, true, func(h *Host, it *py.Interp, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
			ts, single, err := tensorVarargs(name, args)
			if err != nil {
				return nil, err
			}
			out := make([]*torch.Tensor, 0, len(ts))
			for _, t := range ts {
				r, err := h.rt.Atleast(t, nd)
				if err != nil {
					for _, o := range out {
						o.Release()
					}
					return nil, pyErr(err)
				}
				out = append(out, r)
			}
			if single {
				return h.wrap(out[0]), nil
			}
			return h.wrapTuple(out), nil
		})
	}
	def("meshgrid", false, true, func(h *Host, it *py.Interp, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
		ts, _, err := tensorVarargs("meshgrid", args)
		if err != nil {
			return nil, err
		}
		indexing, err := strOf("meshgrid", "indexing", argOr(nil, kwargs, -1, "indexing"), "ij")
		if err != nil {
			return nil, err
		}
		gs, err := h.rt.Meshgrid(ts, indexing)
		if err != nil {
			return nil, pyErr(err)
		}
		return h.wrapTuple(gs), nil
	})
	def("cartesian_prod", false, true, func(h *Host, it *py.Interp, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
		ts, _, err := tensorVarargs("cartesian_prod", args)
		if err != nil {
			return nil, err
		}
		return h.wrapResult(h.rt.CartesianProd(ts))
	})
	def("block_diag", false, true, func(h *Host, it *py.Interp, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
		ts := make([]*torch.Tensor, len(args))
		for i, a := range args {
			t, ok := tensorArg(a)
			if !ok {
				return nil, typeErr("expected Tensor as element %d in argument 0, but got %s", i, typeName(a))
			}
			ts[i] = t
		}
		return h.wrapResult(h.rt.BlockDiag(ts))
	})
	both("take_along_dim", func(h *Host, it *py.Interp, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
		x, err := self("take_along_dim", args)
		if err != nil {
			return nil, err
		}
		idx, err := tensorOf("take_along_dim", "indices", argOr(args, kwargs, 1, "indices"))
		if err != nil {
			return nil, err
		}
		var dim *int64
		if v := argOr(args, kwargs, 2, "dim"); v != nil && v != py.None {
			d, err := intOf("take_along_dim", "dim", v, 0)
			if err != nil {
				return nil, err
			}
			dim = &d
		}
		return h.wrapResult(h.rt.TakeAlongDim(x.t, idx, dim))
	})
	method("sum_to_size", func(h *Host, it *py.Interp, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
		x, err := self("sum_to_size", args)
		if err != nil {
			return nil, err
		}
		size, err := varInts("sum_to_size", "size", args, kwargs)
		if err != nil {
			return nil, err
		}
		return h.wrapResult(h.rt.SumToSize(x.t, size))
	})
	method("unfold", func(h *Host, it *py.Interp, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
		x, err := self("unfold", args)
		if err != nil {
			return nil, err
		}
		var v [3]int64
		for i, name := range []string{"dimension", "size", "step"} {
			a := argOr(args, kwargs, i+1, name)
			if a == nil {
				return nil, typeErr("unfold() missing 1 required positional argument: \"%s\"", name)
			}
			if v[i], err = intOf("unfold", name, a, 0); err != nil {
				return nil, err
			}
		}
		return h.wrapResult(h.rt.UnfoldView(x.t, v[0], v[1], v[2]))
	})
	method("squeeze_", func(h *Host, it *py.Interp, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
		x, err := self("squeeze_", args)
		if err != nil {
			return nil, err
		}
		v := argOr(args, kwargs, 1, "dim")
		if v == nil || v == py.None {
			return h.wrapResult(h.rt.SqueezeInplace(x.t, nil, false))
		}
		dims, err := intList("squeeze_", "dim", v)
		if err != nil {
			return nil, err
		}
		_, isInt := intArg(v)
		return h.wrapResult(h.rt.SqueezeInplace(x.t, dims, !isInt))
	})
	method("unsqueeze_", func(h *Host, it *py.Interp, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
		x, err := self("unsqueeze_", args)
		if err != nil {
			return nil, err
		}
		v := argOr(args, kwargs, 1, "dim")
		if v == nil {
			return nil, typeErr("unsqueeze_() missing 1 required positional argument: \"dim\"")
		}
		d, err := intOf("unsqueeze_", "dim", v, 0)
		if err != nil {
			return nil, err
		}
		return h.wrapResult(h.rt.UnsqueezeInplace(x.t, d))
	})
	method("type_as", func(h *Host, it *py.Interp, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
		x, err := self("type_as", args)
		if err != nil {
			return nil, err
		}
		o, err := tensorOf("type_as", "other", argOr(args, kwargs, 1, "other"))
		if err != nil {
			return nil, err
		}
		return h.wrapResult(h.rt.To(x.t, o.DType(), o.Device(), false))
	})
	def("empty_strided", false, true, func(h *Host, it *py.Interp, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
		sv, tv := argOr(args, kwargs, 0, "size"), argOr(args, kwargs, 1, "stride")
		if sv == nil || tv == nil {
			return nil, typeErr("empty_strided() missing required arguments: \"size\", \"stride\"")
		}
		size, err := intList("empty_strided", "size", sv)
		if err != nil {
			return nil, err
		}
		stride, err := intList("empty_strided", "stride", tv)
		if err != nil {
			return nil, err
		}
		o, err := h.factoryKw(it, kwargs)
		if err != nil {
			return nil, err
		}
		return h.wrapResult(h.rt.EmptyStrided(size, stride, o.dtype(torch.Float32), o.dev, o.rg))
	})
	for _, name := range []string{"tril_indices", "triu_indices"} {
		def(name, false, true, func(h *Host, it *py.Interp, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
			var v [3]int64
			for i, arg := range []string{"row", "col", "offset"} {
				a := argOr(args, kwargs, i, arg)
				if a == nil && i < 2 {
					return nil, typeErr("%s() missing 1 required positional argument: \"%s\"", name, arg)
				}
				var err error
				if v[i], err = intOf(name, arg, a, 0); err != nil {
					return nil, err
				}
			}
			o, err := h.factoryKw(it, kwargs)
			if err != nil {
				return nil, err
			}
			return h.wrapResult(h.rt.TriIndices(name == "triu_indices", v[0], v[1], v[2], o.dtype(torch.Int64), o.dev))
		})
	}
}

// tensorSplit is torch.tensor_split(input, indices_or_sections, dim=0):
// an int (sections), a sequence of ints (indices) or a CPU int64 tensor
// (0-d: sections, 1-d: indices; its values must be known).
func tensorSplit(h *Host, it *py.Interp, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
	x, err := self("tensor_split", args)
	if err != nil {
		return nil, err
	}
	v := argOr(args, kwargs, 1, "indices_or_sections")
	for _, k := range []string{"sections", "indices", "tensor_indices_or_sections"} {
		if v == nil {
			v = argOr(nil, kwargs, -1, k)
		}
	}
	if v == nil {
		return nil, typeErr("tensor_split() missing 1 required positional argument: \"indices_or_sections\"")
	}
	d, err := intOf("tensor_split", "dim", argOr(args, kwargs, 2, "dim"), 0)
	if err != nil {
		return nil, err
	}
	var ts []*torch.Tensor
	switch {
	case isTensor(v):
		t, _ := tensorArg(v)
		if t.Dim() > 0 && x.t.Dim() == 0 {
			return nil, runtimeErr("tensor_split expected at least a 1-dimensional tensor, but got a tensor with 0 dims")
		}
		if t.Device().IsCUDA() {
			return nil, runtimeErr("tensor_split expected tensor_indices_or_sections to be on cpu, but it's on %s", t.Device())
		}
		if t.DType() != torch.Int64 {
			return nil, runtimeErr("tensor_split expected tensor_indices_or_sections to have dtype of long, but got %s", t.DType().CppName())
		}
		if t.Dim() > 1 {
			return nil, runtimeErr("tensor_split expected tensor_indices_or_sections to be a zero-dimensional or one-dimensional tensor, but got a tensor with %d dims", t.Dim())
		}
		vals, verr := t.IntValues()
		if verr != nil {
			return nil, py.NewException(py.NotImplementedError, "tensor_split with a tensor of indices is simulated only when its values are known (pass a list or an int)")
		}
		if t.Dim() == 0 {
			ts, err = h.rt.TensorSplitSections(x.t, vals[0], d)
		} else {
			ts, err = h.rt.TensorSplitIndices(x.t, vals, d)
		}
	default:
		if n, ok := intArg(v); ok {
			ts, err = h.rt.TensorSplitSections(x.t, n, d)
			break
		}
		idx, lerr := intList("tensor_split", "indices", v)
		if lerr != nil {
			return nil, lerr
		}
		ts, err = h.rt.TensorSplitIndices(x.t, idx, d)
	}
	if err != nil {
		return nil, pyErr(err)
	}
	return h.wrapTuple(ts), nil
}

// isTensor reports a tensor value.
func isTensor(v py.Value) bool {
	_, ok := tensorArg(v)
	return ok
}

// tensorTuple reads a tuple/list of tensors (argument name of fn).
func tensorTuple(fn, name string, seq py.Value) ([]*torch.Tensor, error) {
	es, ok := elems(seq)
	if !ok {
		return nil, typeErr("%s(): argument '%s' (position 1) must be tuple of Tensors, not %s", fn, name, typeName(seq))
	}
	ts := make([]*torch.Tensor, len(es))
	for i, e := range es {
		t, ok := tensorArg(e)
		if !ok {
			return nil, typeErr("expected Tensor as element %d in argument 0, but got %s", i, typeName(e))
		}
		ts[i] = t
	}
	return ts, nil
}

// tensorVarargs reads f(t1, t2, ...) or f([t1, t2]) (torch/functional.py's
// `if len(tensors) == 1 and isinstance(tensors[0], (list, tuple))`);
// single reports one tensor passed on its own.
func tensorVarargs(fn string, args []py.Value) ([]*torch.Tensor, bool, error) {
	if len(args) == 1 {
		if t, ok := tensorArg(args[0]); ok {
			return []*torch.Tensor{t}, true, nil
		}
		ts, err := tensorTuple(fn, "tensors", args[0])
		return ts, false, err
	}
	ts := make([]*torch.Tensor, len(args))
	for i, a := range args {
		t, ok := tensorArg(a)
		if !ok {
			return nil, false, typeErr("expected Tensor as element %d in argument 0, but got %s", i, typeName(a))
		}
		ts[i] = t
	}
	return ts, false, nil
}
