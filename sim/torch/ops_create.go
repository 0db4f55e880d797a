package torch

// Factory is torch.empty/zeros/ones/full/randn/rand/randint/normal...: a
// new tensor of shape on dev. op names the factory (for labels). Only the
// storage is allocated (filling happens in place).
func (rt *Runtime) Factory(op string, shape []int64, dt DType, dev Device, requiresGrad bool) (*Tensor, error) {
	if requiresGrad && !dt.Differentiable() {
		return nil, Errorf(RuntimeError, "Only Tensors of floating point and complex dtype can require gradients")
	}
	t, err := rt.empty(op, shape, nil, dt, dev.Concrete())
	if err != nil {
		return nil, err
	}
	t.requiresGrad = requiresGrad
	return t, nil
}

// FactoryLike is torch.*_like(t, dtype=..., device=...): preserve_format.
func (rt *Runtime) FactoryLike(op string, t *Tensor, dt DType, dev Device, requiresGrad bool) (*Tensor, error) {
	var strides []int64
	if dev.Concrete() == t.device {
		strides = stridesLike(t.shape, t.strides)
	}
	out, err := rt.empty(op, t.shape, strides, dt, dev.Concrete())
	if err != nil {
		return nil, err
	}
	out.requiresGrad = requiresGrad && dt.Differentiable()
	return out, nil
}

// ZerosLike is torch.zeros_like(t).
func (rt *Runtime) ZerosLike(t *Tensor) (*Tensor, error) {
	out, err := rt.FactoryLike("zeros_like", t, t.dtype, t.device, false)
	if err == nil {
		rt.Init(out, ExecFill, 0)
	}
	return out, err
}

// OnesLike is torch.ones_like(t).
func (rt *Runtime) OnesLike(t *Tensor) (*Tensor, error) {
	out, err := rt.FactoryLike("ones_like", t, t.dtype, t.device, false)
	if err == nil {
		rt.Init(out, ExecFill, 1)
	}
	return out, err
}
