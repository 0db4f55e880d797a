package torch

// ExecKinds of the fused optimizers (values only). In holds the call's
// tensor lists one after the other, each of Ints[0] tensors, for the lists
// whose bit is set in Ints[1] (Adam: params, grads, exp_avgs, exp_avg_sqs,
// max_exp_avg_sqs, state_steps; SGD: params, grads, momentum_buffer_list),
// then grad_scale and found_inf when Ints[2] / Ints[3] is 1. Ints[4:8] are
// amsgrad, maximize, nesterov, is_first_step (0 or 1). Scalars are lr,
// beta1, beta2, weight_decay, eps (Adam) or lr, momentum, dampening,
// weight_decay (SGD). Out lists the tensors the kernel writes (params,
// the grads when grad_scale is given, the state lists). The executor reads
// In's tensors itself: SGD's first step reads no momentum buffer (fresh
// empty_like memory the kernel fills).
const (
	ExecFusedAdam  ExecKind = "fused_adam"
	ExecFusedAdamW ExecKind = "fused_adamw"
	ExecFusedSGD   ExecKind = "fused_sgd"
)

// computeFused hands one fused optimizer call to the executor.
func (rt *Runtime) computeFused(s FusedStep) {
	kind := map[string]ExecKind{"_fused_adam_": ExecFusedAdam, "_fused_adamw_": ExecFusedAdamW, "_fused_sgd_": ExecFusedSGD}[s.Op]
	if kind == "" {
		return
	}
	h := func(k string) float64 { return s.Hyper[k] }
	b := func(k string) int64 {
		if s.Flags[k] {
			return 1
		}
		return 0
	}
	var scalars []float64
	if kind == ExecFusedSGD {
		scalars = []float64{h("lr"), h("momentum"), h("dampening"), h("weight_decay")}
	} else {
		scalars = []float64{h("lr"), h("beta1"), h("beta2"), h("weight_decay"), h("eps")}
	}
	var ins, outs []*Tensor
	var mask int64
	for i, l := range s.Lists {
		if len(l) == 0 {
			continue
		}
		mask |= 1 << i
		ins = append(ins, l...)
		if i == 1 && s.GradScale == nil || i == len(s.Lists)-1 && kind != ExecFusedSGD {
			continue // grads are written only when unscaled; steps never
		}
		outs = append(outs, l...)
	}
	ints := []int64{int64(len(s.Lists[0])), mask, 0, 0, b("amsgrad"), b("maximize"), b("nesterov"), b("is_first_step")}
	if s.GradScale != nil {
		ins, ints[2] = append(ins, s.GradScale), 1
	}
	if s.FoundInf != nil {
		ins, ints[3] = append(ins, s.FoundInf), 1
	}
	rt.compute(kind, outs, ins, scalars, ints)
}
