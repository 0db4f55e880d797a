package pybind

import (
	"github.com/gpumem/playground/sim/py"
	"github.com/gpumem/playground/sim/torch"
)

// The fused optimizer kernels the prelude's Adam/AdamW/SGD call with
// fused=True (torch/optim/adam.py and sgd.py of PyTorch 2.11):
// torch._fused_adam_/_fused_adamw_(params, grads, exp_avgs, exp_avg_sqs,
// max_exp_avg_sqs, state_steps, *, lr, beta1, beta2, weight_decay, eps,
// amsgrad, maximize, grad_scale=None, found_inf=None) and
// torch._fused_sgd_(params, grads, momentum_buffer_list, *, weight_decay,
// momentum, lr, dampening, nesterov, maximize, is_first_step,
// grad_scale=None, found_inf=None). Both return None.
func init() {
	for _, name := range []string{"_fused_adam_", "_fused_adamw_"} {
		def(name, false, true, fusedOp(name, []string{"self", "grads", "exp_avgs", "exp_avg_sqs", "max_exp_avg_sqs", "state_steps"}, []int{0, 1, 2, 3, 4},
			[]string{"lr", "beta1", "beta2", "weight_decay", "eps"}))
	}
	def("_fused_sgd_", false, true, fusedOp("_fused_sgd_", []string{"self", "grads", "momentum_buffer_list"}, []int{0, 1, 2},
		[]string{"weight_decay", "momentum", "lr", "dampening"}))
}

// fusedOp reads the tensor lists (positional or by name), the required
// float keywords and the optional grad_scale/found_inf tensors.
func fusedOp(name string, lists []string, written []int, floats []string) opFunc {
	return func(h *Host, it *py.Interp, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
		if len(args) > len(lists) {
			return nil, typeErr("%s() takes %d positional arguments but %d were given", name, len(lists), len(args))
		}
		s := torch.FusedStep{Op: name, Written: written, Hyper: map[string]float64{}, Flags: map[string]bool{}}
		for i, l := range lists {
			v := argOr(args, kwargs, i, l)
			if v == nil {
				return nil, typeErr("%s() missing required argument '%s' (pos %d)", name, l, i+1)
			}
			ts, err := tensorSeq(name, l, v, false)
			if err != nil {
				return nil, err
			}
			s.Lists = append(s.Lists, ts)
		}
		for _, f := range floats {
			v, ok := kw(kwargs, f)
			if !ok {
				return nil, typeErr("%s() missing required argument '%s'", name, f)
			}
			x, err := floatOf(name, f, v, 0)
			if err != nil {
				return nil, err
			}
			s.Hyper[f] = x
		}
		for _, f := range []string{"amsgrad", "maximize", "nesterov", "is_first_step"} {
			if v, ok := kw(kwargs, f); ok {
				b, err := boolOf(it, v, false)
				if err != nil {
					return nil, err
				}
				s.Flags[f] = b
			}
		}
		var err error
		if s.GradScale, err = optTensor(name, "grad_scale", argOr(nil, kwargs, -1, "grad_scale")); err != nil {
			return nil, err
		}
		if s.FoundInf, err = optTensor(name, "found_inf", argOr(nil, kwargs, -1, "found_inf")); err != nil {
			return nil, err
		}
		return h.opDone(py.None, h.rt.FusedOptimizerStep(s))
	}
}
