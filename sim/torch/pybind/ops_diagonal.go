package pybind

import "github.com/gpumem/playground/sim/py"

// torch.diagonal / Tensor.diagonal(offset=0, dim1=0, dim2=1): a view, as in
// `x.diagonal().fill_(v)`.
func init() {
	both("diagonal", func(h *Host, it *py.Interp, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
		x, err := self("diagonal", args)
		if err != nil {
			return nil, err
		}
		off, err := intOf("diagonal", "offset", argOr(args, kwargs, 1, "offset"), 0)
		if err != nil {
			return nil, err
		}
		d1, err := intOf("diagonal", "dim1", argOr(args, kwargs, 2, "dim1"), 0)
		if err != nil {
			return nil, err
		}
		d2, err := intOf("diagonal", "dim2", argOr(args, kwargs, 3, "dim2"), 1)
		if err != nil {
			return nil, err
		}
		return h.wrapResult(h.rt.Diagonal(x.t, off, d1, d2))
	})
}
