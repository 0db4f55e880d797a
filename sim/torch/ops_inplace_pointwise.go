package torch

// InplacePointwise is an in-place pointwise kernel with tensor operands
// that writes t and allocates nothing: t.lerp_(end, weight),
// t.addcmul_(t1, t2), t.addcdiv_(t1, t2), torch.maximum(t, o, out=t),
// t.reciprocal_(), t.sqrt_(). Optimizers and GradScaler run them under
// no_grad; autograd through them is not simulated (an error says so, rather
// than a silently missing gradient). It returns t (a new reference).
func (rt *Runtime) InplacePointwise(op string, t *Tensor, others ...*Tensor) (*Tensor, error) {
	return rt.inplacePointwise(op, t, others, nil)
}

// inplacePointwise is InplacePointwise with the op's numbers (see
// InplacePointwiseScalars), which only the values need.
func (rt *Runtime) inplacePointwise(op string, t *Tensor, others []*Tensor, scalars []float64) (*Tensor, error) {
	if rt.needsGrad(append([]*Tensor{t}, others...)...) {
		return nil, Errorf(NotImplementedError, "autograd through the in-place %s is not simulated", op)
	}
	if err := rt.inplace(t, others...); err != nil {
		return nil, err
	}
	if rt.exec != nil {
		rt.inplacePointwiseValues(op, t, others, scalars)
	}
	return t.Retain(), nil
}
