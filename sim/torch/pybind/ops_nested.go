package pybind

import (
	"github.com/gpumem/playground/sim/py"
)

// torch._nested_tensor_from_mask_left_aligned(t, mask): the check
// nn.TransformerEncoder runs before its nested-tensor fast path.
func init() {
	def("_nested_tensor_from_mask_left_aligned", false, true, func(h *Host, it *py.Interp, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
		const name = "_nested_tensor_from_mask_left_aligned"
		t, err := tensorOf(name, "t", argOr(args, kwargs, 0, "t"))
		if err != nil {
			return nil, err
		}
		m, err := tensorOf(name, "mask", argOr(args, kwargs, 1, "mask"))
		if err != nil {
			return nil, err
		}
		ok, err := h.rt.NestedMaskLeftAligned(t, m)
		if err != nil {
			return nil, pyErr(err)
		}
		return py.Bool(ok), nil
	})
}
