package pybind

import "github.com/gpumem/playground/sim/py"

// Tensor.pin_memory() and Tensor.is_pinned(): page-locked host copies, as
// the data-loading snippets make them before .cuda(non_blocking=True).
func init() {
	method("pin_memory", func(h *Host, it *py.Interp, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
		x, err := self("pin_memory", args)
		if err != nil {
			return nil, err
		}
		return h.wrapResult(h.rt.PinMemory(x.t))
	})
	method("is_pinned", func(h *Host, it *py.Interp, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
		x, err := self("is_pinned", args)
		if err != nil {
			return nil, err
		}
		return py.Bool(x.t.IsPinned()), nil
	})
}
