package pybind

import (
	"github.com/gpumem/playground/sim/py"
)

// Index selection by an index tensor: torch.index_select / Tensor.index_select.
func init() {
	both("index_select", func(h *Host, it *py.Interp, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
		x, err := self("index_select", args)
		if err != nil {
			return nil, err
		}
		d, err := intOf("index_select", "dim", argOr(args, kwargs, 1, "dim"), 0)
		if err != nil {
			return nil, err
		}
		idx, err := tensorOf("index_select", "index", argOr(args, kwargs, 2, "index"))
		if err != nil {
			return nil, err
		}
		return h.wrapResult(h.rt.IndexSelect(x.t, d, idx))
	})
}
