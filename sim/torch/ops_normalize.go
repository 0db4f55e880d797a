package torch

import "math"

// F.normalize (torch/nn/functional.py) and F.cosine_similarity (ATen's
// composite cosine_similarity), PyTorch 2.11, composed of the ops they
// call so their memory and grad_fns follow (measured in q18).

// ClampMin is Tensor.clamp_min(min) out of place (ClampMinBackward0 saves
// self). Its backward is where(self >= min, grad, zeros({})): a bool mask
// of self's shape, a 0-dim zero, the result; the two temporaries die
// after it.
func (rt *Runtime) ClampMin(a *Tensor, lo float64) (*Tensor, error) {
	out, err := rt.unaryOut("clamp_min", a, a.dtype)
	if err != nil {
		return nil, err
	}
	if rt.exec != nil {
		rt.compute1(ExecClamp, out, []*Tensor{a}, lo, math.Inf(1))
	}
	n := rt.record("ClampMinBackward0", a)
	if n != nil {
		n.save(a, false)
	}
	n.finish(func(n *Node, g []*Tensor) ([]*Tensor, error) {
		self, err := n.unpack(0)
		if err != nil {
			return nil, err
		}
		defer self.Release()
		// the 0-dim zero is allocated before the mask, which dies first
		zero, err := rt.empty("zeros", []int64{}, nil, g[0].dtype, g[0].device)
		if err != nil {
			return nil, err
		}
		defer zero.Release()
		mask, err := rt.pointwiseOut("ge", Bool, self)
		if err != nil {
			return nil, err
		}
		defer mask.Release()
		r, err := rt.pointwiseOut("where", g[0].dtype, mask, g[0])
		if err == nil && rt.exec != nil {
			rt.markNotComputed(r)
		}
		return []*Tensor{r}, err
	}, out)
	return out, nil
}

// Normalize is F.normalize(x, p, dim, eps): x / x.norm(p, dim,
// keepdim=True).clamp_min(eps).expand_as(x).
func (rt *Runtime) Normalize(x *Tensor, p float64, dim int64, eps float64) (*Tensor, error) {
	d, err := WrapDim(dim, max(len(x.shape), 1))
	if err != nil {
		return nil, err
	}
	// Python drops each temporary of the chain once the next call returns
	nrm, err := rt.NormP(x, p, []int64{d}, true)
	if err != nil {
		return nil, err
	}
	c, err := rt.ClampMin(nrm, eps)
	nrm.Release()
	if err != nil {
		return nil, err
	}
	e, err := rt.Expand(c, x.shape)
	c.Release()
	if err != nil {
		return nil, err
	}
	defer e.Release()
	return rt.Div(x, e)
}

// CosineSimilarity is F.cosine_similarity(x1, x2, dim, eps) as ATen 2.11
// computes it: both inputs expanded to the common shape, each norm
// (keepdim) cloned and clamped to eps in place without grad, then
// ((x1 / n1) * (x2 / n2)).sum(dim). A dtype-sized device scalar lives
// through the computation (measured, source not identified).
func (rt *Runtime) CosineSimilarity(x1, x2 *Tensor, dim int64, eps float64) (*Tensor, error) {
	dt := ResultType([]*Tensor{x1, x2}, nil)
	if !dt.IsFloating() {
		return nil, Errorf(RuntimeError, "expected common dtype to be floating point, yet common dtype is %s", dt.cppName())
	}
	shape, err := broadcastShapes(x1.shape, x2.shape)
	if err != nil {
		return nil, err
	}
	d, err := WrapDim(dim, max(len(shape), 1))
	if err != nil {
		return nil, err
	}
	var keep []*Tensor
	defer func() {
		// locals die in reverse order (the product before the scalar)
		for i := len(keep) - 1; i >= 0; i-- {
			keep[i].Release()
		}
	}()
	prep := func(t *Tensor) (*Tensor, error) {
		c := t.Retain()
		if t.dtype != dt {
			c.Release()
			if c, err = rt.To(t, dt, t.device, false); err != nil {
				return nil, err
			}
		}
		keep = append(keep, c)
		return rt.Expand(c, shape)
	}
	a, err := prep(x1)
	if err != nil {
		return nil, err
	}
	keep = append(keep, a)
	b, err := prep(x2)
	if err != nil {
		return nil, err
	}
	keep = append(keep, b)
	norms := make([]*Tensor, 2)
	for i, t := range []*Tensor{a, b} {
		// linalg_vector_norm(...).clone(): the norm lives on only where
		// its backward saved it (an input that requires grad)
		nr, err := rt.NormP(t, 2, []int64{d}, true)
		if err != nil {
			return nil, err
		}
		c, err := rt.Clone(nr)
		nr.Release()
		if err != nil {
			return nil, err
		}
		keep = append(keep, c)
		norms[i] = c
	}
	scalar, err := rt.empty("cosine_similarity", []int64{}, nil, dt, a.device)
	if err != nil {
		return nil, err
	}
	keep = append(keep, scalar)
	prev := rt.SetGradEnabled(false)
	for _, c := range norms {
		r, err := rt.ClampInplace(c, eps, math.Inf(1))
		if err != nil {
			rt.SetGradEnabled(prev)
			return nil, err
		}
		r.Release()
	}
	rt.SetGradEnabled(prev)
	// (*x1 / x1_norm) * (*x2 / x2_norm): GCC evaluates operator*'s right
	// operand first (q18: x1's DivBackward0 runs first in backward)
	q2, err := rt.Div(b, norms[1])
	if err != nil {
		return nil, err
	}
	keep = append(keep, q2)
	q1, err := rt.Div(a, norms[0])
	if err != nil {
		return nil, err
	}
	keep = append(keep, q1)
	m, err := rt.Mul(q1, q2)
	if err != nil {
		return nil, err
	}
	keep = append(keep, m)
	return rt.Sum(m, []int64{d}, false, nil)
}
