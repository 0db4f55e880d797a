package torch

// GradScaler's two fused ops (torch/amp/grad_scaler.py of PyTorch 2.11 calls
// them through torch._amp_*). Both work in place on their arguments and
// allocate nothing, as ATen's CUDA kernels (multi_tensor_apply passes its
// metadata as kernel arguments).

// ExecKinds of GradScaler's ops.
const (
	// ExecAmpUnscale is one tensor of _amp_foreach_non_finite_check_and_unscale_:
	// Out = [grad, found_inf], In = [grad, found_inf, inv_scale]; found_inf
	// becomes 1 if grad has an inf or NaN, grad is multiplied by inv_scale.
	ExecAmpUnscale ExecKind = "amp_unscale"
	// ExecAmpUpdateScale is _amp_update_scale_: Out = [scale, growth_tracker
	// (int32)], In = [scale, growth_tracker, found_inf], Scalars = [growth,
	// backoff], Ints[0] = growth_interval.
	ExecAmpUpdateScale ExecKind = "amp_update_scale"
)

// AmpUnscale is torch._amp_foreach_non_finite_check_and_unscale_(grads,
// found_inf, inv_scale): found_inf and inv_scale are 1-element float32
// tensors on the grads' device.
func (rt *Runtime) AmpUnscale(grads []*Tensor, found, inv *Tensor) error {
	for _, t := range []*Tensor{found, inv} {
		if numel(t.shape) != 1 || t.dtype != Float32 {
			return Errorf(RuntimeError, "found_inf and inv_scale must be 1-element float tensors")
		}
	}
	for _, g := range grads {
		if !g.dtype.IsFloating() {
			return Errorf(RuntimeError, "_amp_foreach_non_finite_check_and_unscale_: tensors must be floating point, got %s", g.dtype)
		}
		if g.device != found.device || g.device != inv.device {
			return Errorf(RuntimeError, "_amp_foreach_non_finite_check_and_unscale_: tensors must be on the device of found_inf and inv_scale")
		}
	}
	if err := rt.inplace(found); err != nil {
		return err
	}
	for _, g := range grads {
		if err := rt.inplace(g); err != nil {
			return err
		}
		if rt.exec != nil {
			rt.compute(ExecAmpUnscale, []*Tensor{g, found}, []*Tensor{g, found, inv}, nil, nil)
		}
	}
	return nil
}

// AmpUpdateScale is torch._amp_update_scale_(scale, growth_tracker,
// found_inf, growth_factor, backoff_factor, growth_interval): it updates
// scale (float32) and growth_tracker (int32) in place and returns scale.
func (rt *Runtime) AmpUpdateScale(scale, tracker, found *Tensor, growth, backoff float64, interval int64) (*Tensor, error) {
	switch {
	case numel(scale.shape) != 1 || scale.dtype != Float32:
		return nil, Errorf(RuntimeError, "current_scale must be a 1-element float tensor")
	case numel(tracker.shape) != 1 || tracker.dtype != Int32:
		return nil, Errorf(RuntimeError, "growth_tracker must be a 1-element int tensor")
	case numel(found.shape) != 1 || found.dtype != Float32:
		return nil, Errorf(RuntimeError, "found_inf must be a 1-element float tensor")
	}
	if err := rt.inplace(scale); err != nil {
		return nil, err
	}
	if err := rt.inplace(tracker); err != nil {
		return nil, err
	}
	if rt.exec != nil {
		rt.compute(ExecAmpUpdateScale, []*Tensor{scale, tracker}, []*Tensor{scale, tracker, found}, []float64{growth, backoff}, []int64{interval})
	}
	return scale.Retain(), nil
}
