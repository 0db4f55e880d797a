package pybind

import (
	"github.com/gpumem/playground/sim/py"
	"github.com/gpumem/playground/sim/torch"
)

// GradScaler's fused ops: torch._amp_foreach_non_finite_check_and_unscale_
// and torch._amp_update_scale_ (the prelude's torch/amp/grad_scaler.py
// calls them as PyTorch 2.11's GradScaler does).
func init() {
	const unscale = "_amp_foreach_non_finite_check_and_unscale_"
	def(unscale, false, true, func(h *Host, it *py.Interp, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
		grads, err := tensorSeq(unscale, "self", argOr(args, kwargs, 0, "self"), false)
		if err != nil {
			return nil, err
		}
		found, err := tensorOf(unscale, "found_inf", argOr(args, kwargs, 1, "found_inf"))
		if err != nil {
			return nil, err
		}
		inv, err := tensorOf(unscale, "inv_scale", argOr(args, kwargs, 2, "inv_scale"))
		if err != nil {
			return nil, err
		}
		return h.opDone(py.None, h.rt.AmpUnscale(grads, found, inv))
	})
	const update = "_amp_update_scale_"
	def(update, false, true, func(h *Host, it *py.Interp, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
		var ts [3]*torch.Tensor
		for i, name := range []string{"self", "growth_tracker", "found_inf"} {
			t, err := tensorOf(update, name, argOr(args, kwargs, i, name))
			if err != nil {
				return nil, err
			}
			ts[i] = t
		}
		growth, err := floatOf(update, "scale_growth_factor", argOr(args, kwargs, 3, "scale_growth_factor"), 2)
		if err != nil {
			return nil, err
		}
		backoff, err := floatOf(update, "scale_backoff_factor", argOr(args, kwargs, 4, "scale_backoff_factor"), 0.5)
		if err != nil {
			return nil, err
		}
		interval, err := intOf(update, "growth_interval", argOr(args, kwargs, 5, "growth_interval"), 2000)
		if err != nil {
			return nil, err
		}
		return h.opDone(h.wrapResult(h.rt.AmpUpdateScale(ts[0], ts[1], ts[2], growth, backoff, interval)))
	})
}
