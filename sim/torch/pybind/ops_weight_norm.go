package pybind

import (
	"github.com/gpumem/playground/sim/py"
)

// torch._weight_norm_interface(v, g, dim=0) -> (w, norms): the fused weight
// norm kernel (sim/torch/ops_weight_norm.go); torch._weight_norm and
// torch.norm_except_dim are composites in the prelude.
func init() {
	def("_weight_norm_interface", false, true, func(h *Host, it *py.Interp, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
		const fn = "_weight_norm_interface"
		v, err := tensorOf(fn, "v", argOr(args, kwargs, 0, "v"))
		if err != nil {
			return nil, err
		}
		g, err := tensorOf(fn, "g", argOr(args, kwargs, 1, "g"))
		if err != nil {
			return nil, err
		}
		dim, err := intOf(fn, "dim", argOr(args, kwargs, 2, "dim"), 0)
		if err != nil {
			return nil, err
		}
		res, err := h.rt.WeightNormInterface(v, g, dim)
		if err != nil {
			return nil, pyErr(err)
		}
		return h.wrapTuple(res), nil
	})
}
