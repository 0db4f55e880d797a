package pybind

import (
	"github.com/gpumem/playground/sim/py"
	"github.com/gpumem/playground/sim/torch"
)

func init() {
	shapeOp := func(name string, f func(rt *torch.Runtime, t *torch.Tensor, shape []int64) (*torch.Tensor, error)) opFunc {
		return func(h *Host, it *py.Interp, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
			x, err := self(name, args)
			if err != nil {
				return nil, err
			}
			rest := args[1:]
			if v, ok := kw(kwargs, "shape"); ok && len(rest) == 0 {
				rest = []py.Value{v}
			} else if v, ok := kw(kwargs, "size"); ok && len(rest) == 0 {
				rest = []py.Value{v}
			}
			if name == "view" && len(rest) == 1 {
				if d, ok, _ := dtypeArg(rest[0]); ok {
					if d.Size() != x.t.DType().Size() {
						return nil, runtimeErr("view(dtype) between dtypes of different sizes is not simulated")
					}
					return h.wrapResult(h.rt.ViewDType(x.t, d))
				}
			}
			shape, err := shapeArgs(name, rest)
			if err != nil {
				return nil, err
			}
			return h.wrapResult(f(h.rt, x.t, shape))
		}
	}
	method("view", shapeOp("view", (*torch.Runtime).View))
	both("reshape", shapeOp("reshape", (*torch.Runtime).Reshape))
	method("expand", shapeOp("expand", (*torch.Runtime).Expand))
	both("permute", shapeOp("permute", (*torch.Runtime).Permute))
	asOp := func(name string, f func(rt *torch.Runtime, t *torch.Tensor, shape []int64) (*torch.Tensor, error)) opFunc {
		return func(h *Host, it *py.Interp, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
			x, err := self(name, args)
			if err != nil {
				return nil, err
			}
			o, err := tensorOf(name, "other", argOr(args, kwargs, 1, "other"))
			if err != nil {
				return nil, err
			}
			return h.wrapResult(f(h.rt, x.t, o.Shape()))
		}
	}
	method("view_as", asOp("view_as", (*torch.Runtime).View))
	method("reshape_as", asOp("reshape_as", (*torch.Runtime).Reshape))
	method("expand_as", asOp("expand_as", (*torch.Runtime).Expand))
	both("flatten", func(h *Host, it *py.Interp, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
		x, err := self("flatten", args)
		if err != nil {
			return nil, err
		}
		s, err := intOf("flatten", "start_dim", argOr(args, kwargs, 1, "start_dim"), 0)
		if err != nil {
			return nil, err
		}
		e, err := intOf("flatten", "end_dim", argOr(args, kwargs, 2, "end_dim"), -1)
		if err != nil {
			return nil, err
		}
		return h.wrapResult(h.rt.Flatten(x.t, s, e))
	})
	for _, name := range []string{"transpose", "swapaxes", "swapdims"} {
		both(name, func(h *Host, it *py.Interp, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
			x, err := self(name, args)
			if err != nil {
				return nil, err
			}
			if len(args) == 2 && len(kwargs) == 0 {
				return nil, typeErr("%s() received an invalid combination of arguments - got (%s), but expected one of:\n * (int dim0, int dim1)\n * (name dim0, name dim1)\n", name, typeName(args[1]))
			}
			d0, err := intOf(name, "dim0", argOr(args, kwargs, 1, "dim0"), 0)
			if err != nil {
				return nil, err
			}
			d1, err := intOf(name, "dim1", argOr(args, kwargs, 2, "dim1"), 1)
			if err != nil {
				return nil, err
			}
			return h.wrapResult(h.rt.Transpose(x.t, d0, d1))
		})
	}
	both("t", func(h *Host, it *py.Interp, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
		x, err := self("t", args)
		if err != nil {
			return nil, err
		}
		return h.wrapResult(h.rt.T(x.t))
	})
	both("unsqueeze", func(h *Host, it *py.Interp, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
		x, err := self("unsqueeze", args)
		if err != nil {
			return nil, err
		}
		d, err := intOf("unsqueeze", "dim", argOr(args, kwargs, 1, "dim"), 0)
		if err != nil {
			return nil, err
		}
		return h.wrapResult(h.rt.Unsqueeze(x.t, d))
	})
	both("squeeze", func(h *Host, it *py.Interp, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
		x, err := self("squeeze", args)
		if err != nil {
			return nil, err
		}
		var dims []int64
		if v := argOr(args, kwargs, 1, "dim"); v != nil && v != py.None {
			if dims, err = intList("squeeze", "dim", v); err != nil {
				return nil, err
			}
			if _, isInt := intArg(v); !isInt { // squeeze.dims: SqueezeBackward2
				return h.wrapResult(h.rt.SqueezeDims(x.t, dims))
			}
		}
		return h.wrapResult(h.rt.Squeeze(x.t, dims))
	})
	both("select", func(h *Host, it *py.Interp, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
		x, err := self("select", args)
		if err != nil {
			return nil, err
		}
		d, err := intOf("select", "dim", argOr(args, kwargs, 1, "dim"), 0)
		if err != nil {
			return nil, err
		}
		i, err := intOf("select", "index", argOr(args, kwargs, 2, "index"), 0)
		if err != nil {
			return nil, err
		}
		return h.wrapResult(h.rt.Select(x.t, d, i))
	})
	both("narrow", func(h *Host, it *py.Interp, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
		x, err := self("narrow", args)
		if err != nil {
			return nil, err
		}
		d, _ := intOf("narrow", "dim", argOr(args, kwargs, 1, "dim"), 0)
		s, _ := intOf("narrow", "start", argOr(args, kwargs, 2, "start"), 0)
		l, err := intOf("narrow", "length", argOr(args, kwargs, 3, "length"), 0)
		if err != nil {
			return nil, err
		}
		// at::narrow's checks: a start equal to the size is valid, other
		// starts wrap like dims
		if x.t.Dim() == 0 {
			return nil, runtimeErr("narrow() cannot be applied to a 0-dim tensor.")
		}
		if l < 0 {
			return nil, runtimeErr("narrow(): length must be non-negative.")
		}
		dd, err := torch.WrapDim(d, x.t.Dim())
		if err != nil {
			return nil, pyErr(err)
		}
		size := x.t.Shape()[int(dd)]
		if s != size {
			if s, err = torch.WrapDim(s, int(size)); err != nil {
				return nil, pyErr(err)
			}
		}
		if s > size-l {
			return nil, runtimeErr("start (%d) + length (%d) exceeds dimension size (%d).", s, l, size)
		}
		return h.wrapResult(h.rt.Slice(x.t, d, s, s+l, 1, true, true))
	})
	splitOp := func(name string) opFunc {
		return func(h *Host, it *py.Interp, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
			x, err := self(name, args)
			if err != nil {
				return nil, err
			}
			key := "split_size_or_sections"
			if name == "chunk" {
				key = "chunks"
			} else if v := argOr(args, kwargs, 1, key); v == py.None {
				// Tensor.split passes anything but an int to
				// split_with_sizes (question q12).
				return nil, typeErr("split_with_sizes(): argument 'split_sizes' (position 2) must be tuple of ints, not NoneType")
			}
			n, err := intOf(name, key, argOr(args, kwargs, 1, key), 1)
			if err != nil {
				if v := argOr(args, kwargs, 1, key); v != nil {
					if _, isSeq := elems(v); isSeq {
						return h.splitSections(x.t, v, argOr(args, kwargs, 2, "dim"))
					}
				}
				return nil, err
			}
			d, err := intOf(name, "dim", argOr(args, kwargs, 2, "dim"), 0)
			if err != nil {
				return nil, err
			}
			var ts []*torch.Tensor
			if name == "chunk" {
				ts, err = h.rt.Chunk(x.t, n, d)
			} else {
				ts, err = h.rt.Split(x.t, n, d)
			}
			if err != nil {
				return nil, pyErr(err)
			}
			return h.wrapTuple(ts), nil
		}
	}
	both("split", splitOp("split"))
	both("chunk", splitOp("chunk"))
	both("unbind", func(h *Host, it *py.Interp, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
		x, err := self("unbind", args)
		if err != nil {
			return nil, err
		}
		d, err := intOf("unbind", "dim", argOr(args, kwargs, 1, "dim"), 0)
		if err != nil {
			return nil, err
		}
		ts, err := h.rt.Unbind(x.t, d)
		if err != nil {
			return nil, pyErr(err)
		}
		return h.wrapTuple(ts), nil
	})
	for _, name := range []string{"cat", "concat", "concatenate", "stack"} {
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
			d, err := intOf(name, "dim", argOr(args, kwargs, 1, "dim"), 0)
			if err != nil {
				return nil, err
			}
			if name == "stack" {
				return h.wrapResult(h.rt.Stack(ts, d))
			}
			return h.wrapResult(h.rt.Cat(ts, d))
		})
	}
	both("contiguous", func(h *Host, it *py.Interp, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
		x, err := self("contiguous", args)
		if err != nil {
			return nil, err
		}
		mf, ok, err := memoryFormatArg(argOr(args, kwargs, 1, "memory_format"))
		if err != nil {
			return nil, err
		}
		if !ok {
			mf = torch.ContiguousFormat
		}
		return h.wrapResult(h.rt.ContiguousFormat(x.t, mf))
	})
	both("clone", func(h *Host, it *py.Interp, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
		x, err := self("clone", args)
		if err != nil {
			return nil, err
		}
		mf, _, err := memoryFormatArg(argOr(nil, kwargs, -1, "memory_format"))
		if err != nil {
			return nil, err
		}
		return h.wrapResult(h.rt.CloneFormat(x.t, mf))
	})
	both("detach", func(h *Host, it *py.Interp, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
		x, err := self("detach", args)
		if err != nil {
			return nil, err
		}
		if err := noArgs("detach", args, kwargs); err != nil { // METH_NOARGS (q11)
			return nil, err
		}
		return h.wrap(h.rt.Detach(x.t)), nil
	})
	method("detach_", func(h *Host, it *py.Interp, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
		x, err := self("detach_", args)
		if err != nil {
			return nil, err
		}
		return h.wrapResult(h.rt.DetachInplace(x.t))
	})
}

// splitSections is split with a list of section sizes.
func (h *Host) splitSections(t *torch.Tensor, v py.Value, dimv py.Value) (py.Value, error) {
	secs, err := intList("split", "split_size_or_sections", v)
	if err != nil {
		return nil, err
	}
	d, err := intOf("split", "dim", dimv, 0)
	if err != nil {
		return nil, err
	}
	ts, err := h.rt.SplitSizes(t, secs, d)
	if err != nil {
		return nil, pyErr(err)
	}
	return h.wrapTuple(ts), nil
}
