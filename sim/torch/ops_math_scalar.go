package torch

import "math"

// Number operands of the pointwise math family, PyTorch 2.11:
// xlogy(self, number) (XlogyBackward2: other > 0 ? xlogy(grad, other) :
// xlogy(grad, other).masked_fill(self == 0., 0.)), xlogy(number, other)
// (XlogyBackward1: grad * self / other), and the in-place clamp_min_/
// clamp_max_ with a number, whose formula needs self: under autograd the
// node saves original_self = self.clone() taken before the op.

// XlogyScalarOther is torch.xlogy(a, s).
func (rt *Runtime) XlogyScalarOther(a *Tensor, s Scalar) (*Tensor, error) {
	dt := scalarResult(a, s)
	if !dt.IsFloating() {
		dt = Float32
	}
	out, err := rt.unaryOut("xlogy", a, dt)
	if err != nil {
		return nil, err
	}
	n := rt.record("XlogyBackward2", a)
	if n != nil && s.Value() <= 0 {
		n.save(a, false)
	}
	n.finish(func(n *Node, g []*Tensor) ([]*Tensor, error) {
		var c exprChain
		x := c.then(func() (*Tensor, error) { return rt.unaryOut("xlogy", g[0], g[0].dtype) })
		if s.Value() <= 0 {
			self, err := n.unpack(0)
			if err != nil {
				c.release()
				return nil, err
			}
			defer self.Release()
			m := c.then(func() (*Tensor, error) { return rt.CompareNumber("eq", self, Float(0)) })
			c.then(func() (*Tensor, error) { return rt.MaskedFill(x, m, Float(0), nil) })
		}
		r, err := c.result()
		return []*Tensor{r}, err
	}, out)
	return out, nil
}

// XlogyScalarSelf is torch.xlogy(s, b).
func (rt *Runtime) XlogyScalarSelf(s Scalar, b *Tensor) (*Tensor, error) {
	dt := scalarResult(b, s)
	if !dt.IsFloating() {
		dt = Float32
	}
	out, err := rt.unaryOut("xlogy", b, dt)
	if err != nil {
		return nil, err
	}
	n := rt.record("XlogyBackward1", b)
	if n != nil {
		n.save(b, false)
	}
	n.finish(func(n *Node, g []*Tensor) ([]*Tensor, error) {
		other, err := n.unpack(0)
		if err != nil {
			return nil, err
		}
		defer other.Release()
		var c exprChain
		m := c.then(func() (*Tensor, error) { return rt.MulScalar(g[0], s) })
		c.then(func() (*Tensor, error) { return rt.Div(m, other) })
		r, err := c.result()
		return []*Tensor{r}, err
	}, out)
	return out, nil
}

// ClampBoundInplace is Tensor.clamp_min_(lo) (op "clamp_min") or
// clamp_max_(hi) with a number bound.
func (rt *Runtime) ClampBoundInplace(op string, t *Tensor, bound float64) (*Tensor, error) {
	node, cmp := "ClampMinBackward0", "ge"
	if op == "clamp_max" {
		node, cmp = "ClampMaxBackward0", "le"
	}
	if err := rt.checkInplace(t); err != nil {
		return nil, err
	}
	var orig *Tensor
	if rt.needsGrad(t) {
		c, err := rt.empty("clone", t.shape, stridesLike(t.shape, t.strides), t.dtype, t.device)
		if err != nil {
			return nil, err
		}
		orig = c
	}
	if err := rt.inplace(t); err != nil {
		releaseAll([]*Tensor{orig})
		return nil, err
	}
	if rt.exec != nil {
		lo, hi := bound, math.Inf(1)
		if op == "clamp_max" {
			lo, hi = math.Inf(-1), bound
		}
		rt.compute1(ExecClamp, t, []*Tensor{t}, lo, hi)
	}
	n := rt.record(node, t)
	if n != nil {
		n.save(orig, false)
		n.rebase(func(n *Node, g []*Tensor) ([]*Tensor, error) {
			self, err := n.unpack(0)
			if err != nil {
				return nil, err
			}
			defer self.Release()
			r, err := rt.clampWhereGrad(g[0], self, nil, cmp)
			return []*Tensor{r}, err
		}, t)
	}
	releaseAll([]*Tensor{orig})
	return t.Retain(), nil
}

// XlogyInplace is Tensor.xlogy_(other): under autograd XlogyBackward0
// saves original_self = self.clone() taken before the op and other, and
// runs xlogy's backward (other's gradient grad * self / other, then
// self's, as Xlogy).
func (rt *Runtime) XlogyInplace(t, b *Tensor) (*Tensor, error) {
	dt := ResultType([]*Tensor{t, b}, nil)
	if !dt.IsFloating() {
		dt = Float32
	}
	if dt != t.dtype {
		return nil, Errorf(RuntimeError, "result type %s can't be cast to the desired output type %s", dt.cppName(), t.dtype.cppName())
	}
	if err := rt.checkInplace(t); err != nil {
		return nil, err
	}
	var orig *Tensor
	if rt.needsGrad(t, b) {
		c, err := rt.empty("clone", t.shape, stridesLike(t.shape, t.strides), t.dtype, t.device)
		if err != nil {
			return nil, err
		}
		orig = c
	}
	if err := rt.inplace(t, b); err != nil {
		releaseAll([]*Tensor{orig})
		return nil, err
	}
	if rt.exec != nil {
		rt.markNotComputed(t)
	}
	n := rt.record("XlogyBackward0", t, b)
	if n != nil {
		n.save(orig, false)
		n.save(b, false)
		n.rebase(func(n *Node, g []*Tensor) ([]*Tensor, error) {
			res := make(gradSlot, 2)
			self, err := n.unpack(0)
			if err != nil {
				return res.fail(err)
			}
			defer self.Release()
			other, err := n.unpack(1)
			if err != nil {
				return res.fail(err)
			}
			defer other.Release()
			if n.needsInput(1) {
				var c exprChain
				m := c.then(func() (*Tensor, error) { return rt.Mul(g[0], self) })
				c.then(func() (*Tensor, error) { return rt.Div(m, other) })
				if res[1], err = c.result(); err != nil {
					return res.fail(err)
				}
			}
			if n.needsInput(0) {
				if res[0], err = rt.xlogySelfGrad(g[0], self, other); err != nil {
					return res.fail(err)
				}
			}
			return res, nil
		}, t)
	}
	releaseAll([]*Tensor{orig})
	return t.Retain(), nil
}
