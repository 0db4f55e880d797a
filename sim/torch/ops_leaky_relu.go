package torch

// F.leaky_relu (the DCGAN discriminator's activation). Memory as PyTorch
// 2.11: the out-of-place op allocates its output and LeakyReluBackward0
// saves self; the in-place op (inplace=True) allocates nothing and
// LeakyReluBackward1 saves the result; both backwards allocate one
// gradient-sized tensor (leaky_relu_backward). GPU values: ExecLeakyRelu
// and ExecLeakyReluBack with the slope in Scalars[0].

// ExecKinds of F.leaky_relu: Out = In[0] > 0 ? In[0] : In[0]·Scalars[0];
// the backward's Out = In[1] > 0 ? In[0] : In[0]·Scalars[0] (In[0] the
// gradient, In[1] the input or, in place, the result).
const (
	ExecLeakyRelu     ExecKind = "leaky_relu"
	ExecLeakyReluBack ExecKind = "leaky_relu_backward"
)

// LeakyRelu is F.leaky_relu(a, negative_slope) out of place.
func (rt *Runtime) LeakyRelu(a *Tensor, slope float64) (*Tensor, error) {
	if !a.dtype.IsFloating() {
		return nil, Errorf(NotImplementedError, "\"leaky_relu_cuda\" not implemented for '%s'", a.dtype.cppName())
	}
	out, err := rt.unaryOut("leaky_relu", a, a.dtype)
	if err != nil {
		return nil, err
	}
	if rt.exec != nil {
		rt.compute1(ExecLeakyRelu, out, []*Tensor{a}, slope)
	}
	n := rt.record("LeakyReluBackward0", a)
	if n != nil {
		n.save(a, false)
	}
	n.finish(func(n *Node, g []*Tensor) ([]*Tensor, error) {
		s, err := n.unpack(0)
		if err != nil {
			return nil, err
		}
		defer s.Release()
		r, err := rt.leakyReluBackward(g[0], s, slope)
		return []*Tensor{r}, err
	}, out)
	return out, nil
}

// LeakyReluInplace is F.leaky_relu(t, negative_slope, inplace=True).
func (rt *Runtime) LeakyReluInplace(t *Tensor, slope float64) (*Tensor, error) {
	if !t.dtype.IsFloating() {
		return nil, Errorf(NotImplementedError, "\"leaky_relu_cuda\" not implemented for '%s'", t.dtype.cppName())
	}
	if err := rt.inplace(t); err != nil {
		return nil, err
	}
	if rt.exec != nil {
		rt.compute1(ExecLeakyRelu, t, []*Tensor{t}, slope)
	}
	n := rt.record("LeakyReluBackward1", t)
	if n != nil {
		n.save(t, true)
		n.rebase(func(n *Node, g []*Tensor) ([]*Tensor, error) {
			r, err := n.unpack(0)
			if err != nil {
				return nil, err
			}
			defer r.Release()
			o, err := rt.leakyReluBackward(g[0], r, slope)
			return []*Tensor{o}, err
		}, t)
	}
	return t.Retain(), nil
}

// leakyReluBackward is leaky_relu_backward(grad, self or result, slope):
// one gradient-sized allocation and its values.
func (rt *Runtime) leakyReluBackward(g, s *Tensor, slope float64) (*Tensor, error) {
	r, err := rt.pointwiseOut("leaky_relu_backward", g.dtype, g, s)
	if err == nil && rt.exec != nil {
		rt.compute1(ExecLeakyReluBack, r, []*Tensor{g, s}, slope)
	}
	return r, err
}
