package torch

// torch._weight_norm_interface (WeightNorm.cu of PyTorch 2.11), the fused
// kernel under torch._weight_norm (nn.utils.weight_norm and
// parametrizations.weight_norm) for dim 0 or the last dim on non-half
// tensors; the composite _weight_norm and norm_except_dim around it are
// written in the prelude (torch/nn/utils/_weight_norm_ops.py). The kernel
// allocates w = empty_like(v, contiguous), then norms = empty_strided like
// g (float32 when g is half). WeightNormInterfaceBackward0 saves v, g and
// norms (result1); its backward is grad.contiguous() (a copy when the
// incoming gradient is not contiguous), then grad_v = empty_like(v,
// contiguous) and grad_g = empty_like(g, contiguous), freed again where an
// input needs no gradient.

// WeightNormInterface is torch._weight_norm_interface(v, g, dim) -> (w, norms).
func (rt *Runtime) WeightNormInterface(v, g *Tensor, dim int64) ([]*Tensor, error) {
	if v.device != g.device {
		return nil, Errorf(RuntimeError, "Expected all tensors to be on the same device, but found at least two devices, %s and %s!", v.device, g.device)
	}
	nd := int64(v.Dim())
	if dim != 0 && dim != nd-1 {
		return nil, Errorf(RuntimeError, "_weight_norm_interface: dim must be 0 or the last dimension (%d), got %d", nd-1, dim)
	}
	w, err := rt.empty("_weight_norm_interface", v.shape, nil, v.dtype, v.device)
	if err != nil {
		return nil, err
	}
	acc := g.dtype
	if acc == Float16 {
		acc = Float32
	}
	norms, err := rt.empty("_weight_norm_interface", g.shape, cloneShape(g.strides), acc, g.device)
	if err != nil {
		w.Release()
		return nil, err
	}
	n := rt.record("WeightNormInterfaceBackward0", v, g)
	if n != nil {
		n.save(v, false)
		n.save(g, false)
		n.save(norms, true)
	}
	n.finish(func(n *Node, grads []*Tensor) ([]*Tensor, error) {
		return rt.weightNormBackward(n, grads[0])
	}, w, norms)
	return []*Tensor{w, norms}, nil
}

// weightNormBackward is _weight_norm_interface_backward(grad.contiguous(),
// v, g, norms, dim): grad_v then grad_g.
func (rt *Runtime) weightNormBackward(n *Node, grad *Tensor) ([]*Tensor, error) {
	res := make(gradSlot, 2)
	if grad == nil {
		return res, nil
	}
	var saved [3]*Tensor
	for i := range saved {
		t, err := n.unpack(i)
		if err != nil {
			releaseAll(saved[:])
			return res.fail(err)
		}
		saved[i] = t
	}
	defer releaseAll(saved[:])
	gc, err := rt.noGradView(func() (*Tensor, error) { return rt.Contiguous(grad) })
	if err != nil {
		return res.fail(err)
	}
	defer gc.Release()
	for i, s := range saved[:2] {
		t, err := rt.empty("_weight_norm_interface_backward", s.shape, nil, s.dtype, s.device)
		if err != nil {
			return res.fail(err)
		}
		res[i] = t
	}
	for i := range res {
		if !n.needsInput(i) {
			res[i].Release()
			res[i] = nil
		}
	}
	return res, nil
}
