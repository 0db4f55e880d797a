package pybind

import (
	"github.com/gpumem/playground/sim/py"
)

// torch.nonzero/argwhere and torch.masked_select (sim/torch/ops_nonzero.go:
// without values every element counts as selected); torch.unique raises,
// as its output size depends on the values.
func init() {
	both("nonzero", func(h *Host, it *py.Interp, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
		x, err := self("nonzero", args)
		if err != nil {
			return nil, err
		}
		if err := maxPositional("nonzero", args, 1); err != nil {
			return nil, err
		}
		tuple, err := boolOf(it, argOr(nil, kwargs, -1, "as_tuple"), false)
		if err != nil {
			return nil, err
		}
		if !tuple {
			return h.wrapResult(h.rt.Nonzero(x.t))
		}
		cols, err := h.rt.NonzeroTuple(x.t)
		if err != nil {
			return nil, pyErr(err)
		}
		return h.wrapTuple(cols), nil
	})
	both("argwhere", func(h *Host, it *py.Interp, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
		x, err := self("argwhere", args)
		if err != nil {
			return nil, err
		}
		return h.wrapResult(h.rt.Nonzero(x.t))
	})
	both("masked_select", func(h *Host, it *py.Interp, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
		x, err := self("masked_select", args)
		if err != nil {
			return nil, err
		}
		mask, err := tensorOf("masked_select", "mask", argOr(args, kwargs, 1, "mask"))
		if err != nil {
			return nil, err
		}
		return h.wrapResult(h.rt.MaskedSelect(x.t, mask))
	})
	both("unique", func(h *Host, it *py.Interp, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
		return nil, py.NewException(py.NotImplementedError, "torch.unique is not simulated: its output size depends on the values")
	})
}
