package torch

// The fused optimizer kernels torch._fused_adam_, _fused_adamw_ and
// _fused_sgd_ (ATen's FusedAdamKernel.cu, FusedAdamWKernel.cu,
// FusedSgdKernel.cu over multi_tensor_apply). They update params, state and
// step tensors in place and allocate nothing: measured on an H200 with
// PyTorch 2.11 (oracle q041/q042: no allocator event inside the call, with
// and without GradScaler's grad_scale/found_inf). Their state lives where
// the prelude's optimizers put it (fused Adam keeps `step` as a 0-dim
// float32 tensor on the device; fused SGD's momentum buffers come from
// empty_like on the first step).
//
// Values: one ExecOp per call (fused_optim_exec.go), computed by the
// executor with PyTorch's fused formulas; memory is untouched by it.

// FusedStep describes one call of a fused optimizer kernel.
type FusedStep struct {
	Op      string      // "_fused_adam_", "_fused_adamw_", "_fused_sgd_"
	Lists   [][]*Tensor // params first, then grads and state lists (empty lists allowed)
	Written []int       // indices of the lists the kernel writes (params, state, steps)
	// GradScale and FoundInf are the optional 1-element float32 tensors of
	// GradScaler (nil: none).
	GradScale, FoundInf *Tensor
	// Hyper holds the float keywords (lr, beta1, beta2, weight_decay, eps;
	// SGD: weight_decay, momentum, lr, dampening) and Flags the bool ones
	// (amsgrad, maximize, nesterov, is_first_step): values only.
	Hyper map[string]float64
	Flags map[string]bool
}

// FusedOptimizerStep checks a fused optimizer call as ATen does (equal list
// lengths, CUDA floating-point tensors on one device, float32 scalars) and
// updates the written tensors in place: their versions are bumped, nothing
// is allocated.
func (rt *Runtime) FusedOptimizerStep(s FusedStep) error {
	if len(s.Lists) == 0 || len(s.Lists[0]) == 0 {
		return nil
	}
	params := s.Lists[0]
	dev := params[0].device
	for i, l := range s.Lists {
		if len(l) == 0 {
			continue
		}
		if len(l) != len(params) {
			return Errorf(RuntimeError, "%s: Tensor lists must have the same number of tensors, got %d and %d", s.Op, len(params), len(l))
		}
		for _, t := range l {
			if t == nil {
				return Errorf(RuntimeError, "%s: expected a tensor list without None (list %d)", s.Op, i)
			}
			if !t.device.IsCUDA() || t.device != dev {
				return Errorf(RuntimeError, "%s: all tensors must be on the same CUDA device, got %s and %s", s.Op, dev, t.device)
			}
			if !t.dtype.IsFloating() {
				return Errorf(RuntimeError, "%s: expected floating point tensors, got %s", s.Op, t.dtype)
			}
		}
	}
	for _, t := range []*Tensor{s.GradScale, s.FoundInf} {
		if t != nil && (numel(t.shape) != 1 || t.dtype != Float32 || t.device != dev) {
			return Errorf(RuntimeError, "%s: grad_scale and found_inf must be 1-element float32 tensors on %s", s.Op, dev)
		}
	}
	for _, i := range s.Written {
		if i >= len(s.Lists) {
			continue
		}
		for _, t := range s.Lists[i] {
			if err := rt.inplace(t); err != nil {
				return err
			}
		}
	}
	if rt.exec != nil {
		rt.computeFused(s)
	}
	return nil
}
