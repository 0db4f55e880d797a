package torch

import (
	"math"
	"strconv"
)

// torch.isfinite, isclose, allclose, nan_to_num, sgn, clamp_min/clamp_max
// (number and tensor bounds), isneginf/isposinf/signbit/isreal, PyTorch
// 2.11. isfinite and isclose are composites (TensorCompare.cpp), so their
// memory is that of the ops they call; C++ temporaries die newest first at
// the end of their full expression, locals at the function's end in
// reverse order of declaration.

// Isfinite is torch.isfinite: ones_like(self, bool) for integral and bool
// inputs, else (self == self) * (self.abs() != inf) (the right operand
// first: abs, its comparison, then self == self, their product; the three
// temporaries die newest first).
func (rt *Runtime) Isfinite(a *Tensor) (*Tensor, error) {
	if !a.dtype.IsFloating() && !a.dtype.IsComplex() {
		return rt.FactoryLike("ones_like", a, Bool, a.device, false)
	}
	var c exprChain
	ab := c.then(func() (*Tensor, error) { return rt.unaryOut("abs", a, a.dtype) })
	ne := c.then(func() (*Tensor, error) { return rt.CompareNumber("ne", ab, Float(math.Inf(1))) })
	eq := c.then(func() (*Tensor, error) { return rt.Compare("eq", a, a) })
	c.then(func() (*Tensor, error) { return rt.pointwiseOut("mul", Bool, eq, ne) })
	return c.result()
}

// Isclose is torch.isclose(a, b, rtol, atol, equal_nan).
func (rt *Runtime) Isclose(a, b *Tensor, rtol, atol float64, equalNan bool) (*Tensor, error) {
	if a.dtype != b.dtype {
		return nil, Errorf(RuntimeError, "%s did not match %s", a.dtype.cppName(), b.dtype.cppName())
	}
	if a.dtype.IsComplex() && equalNan {
		return nil, Errorf(RuntimeError, "isclose with equal_nan=True is not supported for complex inputs.")
	}
	if rtol < 0 {
		return nil, Errorf(RuntimeError, "rtol must be greater than or equal to zero, but got %s", strconv.FormatFloat(rtol, 'g', -1, 64))
	}
	if atol < 0 {
		return nil, Errorf(RuntimeError, "atol must be greater than or equal to zero, but got %s", strconv.FormatFloat(atol, 'g', -1, 64))
	}
	closeT, err := rt.Compare("eq", a, b)
	if err != nil {
		return nil, err
	}
	fail := func(err error) (*Tensor, error) {
		closeT.Release()
		return nil, err
	}
	if equalNan && a.dtype.IsFloating() {
		// close.__ior__((self != self).__iand__(other != other))
		var c exprChain
		c.then(func() (*Tensor, error) { return rt.Compare("ne", a, a) })
		c.then(func() (*Tensor, error) { return rt.Compare("ne", b, b) })
		c.release()
		if c.err != nil {
			return fail(c.err)
		}
	}
	if rtol == 0 && atol == 0 {
		return closeT, nil
	}
	var locals exprChain // cast_self, cast_other, allowed_error, actual_error
	defer locals.release()
	castSelf, castOther := a, b
	if a.dtype == Bool {
		castSelf = locals.then(func() (*Tensor, error) { return rt.toDType(a, Float32) })
	}
	if a.dtype.IsIntegral(true) {
		castOther = locals.then(func() (*Tensor, error) { return rt.toDType(b, Float32) })
	}
	if locals.err != nil {
		return fail(locals.err)
	}
	// allowed_error = atol + (rtol * cast_other).abs()
	var c1 exprChain
	m := c1.then(func() (*Tensor, error) { return rt.MulScalar(castOther, Float(rtol)) })
	ab := c1.then(func() (*Tensor, error) { return rt.unaryOut("abs", m, m.dtype) })
	c1.then(func() (*Tensor, error) { return rt.AddScalar(ab, Float(atol)) })
	allowed, err := c1.result()
	if err != nil {
		return fail(err)
	}
	locals.ts = append(locals.ts, allowed)
	// actual_error = (cast_self - cast_other).abs()
	var c2 exprChain
	d := c2.then(func() (*Tensor, error) { return rt.Sub(castSelf, castOther, 1) })
	c2.then(func() (*Tensor, error) { return rt.unaryOut("abs", d, d.dtype) })
	actual, err := c2.result()
	if err != nil {
		return fail(err)
	}
	locals.ts = append(locals.ts, actual)
	// close.__ior__(at::isfinite(actual_error).__iand__(actual_error <= allowed_error))
	var c3 exprChain
	c3.then(func() (*Tensor, error) { return rt.Isfinite(actual) })
	c3.then(func() (*Tensor, error) { return rt.Compare("le", actual, allowed) })
	c3.release()
	if c3.err != nil {
		return fail(c3.err)
	}
	if rt.exec != nil {
		rt.markNotComputed(closeT)
	}
	return closeT, nil
}

// Allclose is torch.allclose: isclose(...).all() read on the host. The
// value is not simulated: it answers true, so that the common
// `assert torch.allclose(a, b)` of pasted snippets goes on.
func (rt *Runtime) Allclose(a, b *Tensor, rtol, atol float64, equalNan bool) (bool, error) {
	c, err := rt.Isclose(a, b, rtol, atol, equalNan)
	if err != nil {
		return false, err
	}
	all, err := rt.AllAny("all", c)
	if err == nil {
		all.Release() // the 0-dim result dies before close
	}
	c.Release()
	return err == nil, err
}

// NanToNum is torch.nan_to_num: one output like self (integral inputs:
// self.clone()); NanToNumBackward0 saves self and computes
// grad * at::isfinite(self) (isfinite first, its result dies after the
// product).
func (rt *Runtime) NanToNum(a *Tensor) (*Tensor, error) {
	out, err := rt.unaryOut("nan_to_num", a, a.dtype)
	if err != nil {
		return nil, err
	}
	n := rt.record("NanToNumBackward0", a)
	if n != nil {
		n.save(a, false)
	}
	n.finish(func(n *Node, g []*Tensor) ([]*Tensor, error) {
		r, err := rt.nanToNumGrad(n, g[0])
		return []*Tensor{r}, err
	}, out)
	return out, nil
}

// nanToNumGrad is grad * isfinite(self) with self saved at 0.
func (rt *Runtime) nanToNumGrad(n *Node, g *Tensor) (*Tensor, error) {
	self, err := n.unpack(0)
	if err != nil {
		return nil, err
	}
	defer self.Release()
	var c exprChain
	f := c.then(func() (*Tensor, error) { return rt.Isfinite(self) })
	c.then(func() (*Tensor, error) { return rt.Mul(g, f) })
	return c.result()
}

// NanToNumInplace is Tensor.nan_to_num_(): under autograd the node saves
// original_self = self.clone() taken before the op.
func (rt *Runtime) NanToNumInplace(t *Tensor) (*Tensor, error) {
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
		rt.markNotComputed(t)
	}
	n := rt.record("NanToNumBackward0", t)
	if n != nil {
		n.save(orig, false)
		n.rebase(func(n *Node, g []*Tensor) ([]*Tensor, error) {
			r, err := rt.nanToNumGrad(n, g[0])
			return []*Tensor{r}, err
		}, t)
	}
	releaseAll([]*Tensor{orig})
	return t.Retain(), nil
}

// Sgn is torch.sgn for real tensors: an output like self (sign's kernel);
// SgnBackward0 saves self and the result, and sgn_backward of a real
// input is at::_efficientzerotensor: no memory, and nothing reaches the
// inputs' .grad in the model (q20 measured no allocation at all).
func (rt *Runtime) Sgn(a *Tensor) (*Tensor, error) {
	if a.dtype == Bool {
		return nil, Errorf(RuntimeError, "Boolean inputs not supported for sgn")
	}
	out, err := rt.unaryOut("sgn", a, a.dtype)
	if err != nil {
		return nil, err
	}
	n := rt.record("SgnBackward0", a)
	if n != nil {
		n.save(a, false)
		n.save(out, true)
	}
	n.finish(func(n *Node, g []*Tensor) ([]*Tensor, error) {
		return []*Tensor{nil}, nil
	}, out)
	return out, nil
}

// SgnInplace is Tensor.sgn_(): under autograd the node saves
// original_self = self.clone() taken before the op (measured), and the
// backward allocates nothing.
func (rt *Runtime) SgnInplace(t *Tensor) (*Tensor, error) {
	if t.dtype == Bool {
		return nil, Errorf(RuntimeError, "Boolean inputs not supported for sgn")
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
		rt.markNotComputed(t)
	}
	n := rt.record("SgnBackward0", t)
	if n != nil {
		n.save(orig, false)
		n.save(t, true)
		n.rebase(func(n *Node, g []*Tensor) ([]*Tensor, error) {
			return []*Tensor{nil}, nil
		}, t)
	}
	releaseAll([]*Tensor{orig})
	return t.Retain(), nil
}

// ClampNumberBound is clamp_min(a, s) / clamp_max(a, s) with a number: an
// integral a with a float bound gives a float result, computed on a
// converted copy of a made first (it dies after the output exists).
func (rt *Runtime) ClampNumberBound(op string, a *Tensor, s Scalar) (*Tensor, error) {
	f := rt.ClampMin
	if op == "clamp_max" {
		f = rt.ClampMax
	}
	dt := scalarResult(a, s)
	if dt == a.dtype {
		return f(a, s.Value())
	}
	c, err := rt.toDType(a, dt)
	if err != nil {
		return nil, err
	}
	defer c.Release()
	return f(c, s.Value())
}

// ClampMax is Tensor.clamp_max(max) out of place (ClampMaxBackward0 saves
// self): the backward mirrors ClampMin's (a 0-dim zero, the self <= max
// mask, the where; the temporaries die mask first).
func (rt *Runtime) ClampMax(a *Tensor, hi float64) (*Tensor, error) {
	out, err := rt.unaryOut("clamp_max", a, a.dtype)
	if err != nil {
		return nil, err
	}
	if rt.exec != nil {
		rt.compute1(ExecClamp, out, []*Tensor{a}, math.Inf(-1), hi)
	}
	n := rt.record("ClampMaxBackward0", a)
	if n != nil {
		n.save(a, false)
	}
	n.finish(func(n *Node, g []*Tensor) ([]*Tensor, error) {
		self, err := n.unpack(0)
		if err != nil {
			return nil, err
		}
		defer self.Release()
		r, err := rt.clampWhereGrad(g[0], self, nil, "le")
		return []*Tensor{r}, err
	}, out)
	return out, nil
}

// clampWhereGrad is where(self OP bound, grad, at::scalar_tensor(0.)):
// the 0-dim zero first (GCC evaluates the arguments right to left), the
// mask, the result; the mask dies first.
func (rt *Runtime) clampWhereGrad(g, self, bound *Tensor, op string) (*Tensor, error) {
	var c exprChain
	c.then(func() (*Tensor, error) { return rt.empty("scalar_tensor", []int64{}, nil, g.dtype, g.device) })
	mask := c.then(func() (*Tensor, error) {
		if bound == nil {
			return rt.pointwiseOut(op, Bool, self)
		}
		return rt.Compare(op, self, bound)
	})
	c.then(func() (*Tensor, error) { return rt.pointwiseOut("where", g.dtype, mask, g) })
	r, err := c.result()
	if err == nil && rt.exec != nil {
		rt.markNotComputed(r)
	}
	return r, err
}

// ClampTensorBound is torch.clamp_min(self, min) / clamp_max(self, max)
// with a tensor bound (ClampMinBackward1 / ClampMaxBackward1 save self and
// the bound): self's gradient where(self >= min, grad, 0), the bound's
// where(self < min, grad, 0) (max: <= and >), the bound's first.
func (rt *Runtime) ClampTensorBound(op string, a, bound *Tensor) (*Tensor, error) {
	node, selfOp, boundOp := "ClampMinBackward1", "ge", "lt"
	if op == "clamp_max" {
		node, selfOp, boundOp = "ClampMaxBackward1", "le", "gt"
	}
	out, err := rt.pointwiseOut(op, ResultType([]*Tensor{a, bound}, nil), a, bound)
	if err != nil {
		return nil, err
	}
	n := rt.record(node, a, bound)
	if n != nil {
		n.save(a, false)
		n.save(bound, false)
	}
	n.finish(clampBoundBackward(rt, selfOp, boundOp), out)
	return out, nil
}

// ClampTensorBoundInplace is Tensor.clamp_min_(min) / clamp_max_(max) with
// a tensor bound: under autograd the node saves original_self =
// self.clone() taken before the op, and the bound.
func (rt *Runtime) ClampTensorBoundInplace(op string, t, bound *Tensor) (*Tensor, error) {
	node, selfOp, boundOp := "ClampMinBackward1", "ge", "lt"
	if op == "clamp_max" {
		node, selfOp, boundOp = "ClampMaxBackward1", "le", "gt"
	}
	if err := rt.checkInplace(t); err != nil {
		return nil, err
	}
	var orig *Tensor
	if rt.needsGrad(t, bound) {
		c, err := rt.empty("clone", t.shape, stridesLike(t.shape, t.strides), t.dtype, t.device)
		if err != nil {
			return nil, err
		}
		orig = c
	}
	if err := rt.inplace(t, bound); err != nil {
		releaseAll([]*Tensor{orig})
		return nil, err
	}
	if rt.exec != nil {
		rt.markNotComputed(t)
	}
	n := rt.record(node, t, bound)
	if n != nil {
		n.save(orig, false)
		n.save(bound, false)
		n.rebase(clampBoundBackward(rt, selfOp, boundOp), t)
	}
	releaseAll([]*Tensor{orig})
	return t.Retain(), nil
}

// clampBoundBackward is ClampMin/MaxBackward1's gradients with self and
// the bound saved at 0 and 1: the bound's first.
func clampBoundBackward(rt *Runtime, selfOp, boundOp string) backwardFunc {
	return func(n *Node, g []*Tensor) ([]*Tensor, error) {
		res := make(gradSlot, 2)
		self, err := n.unpack(0)
		if err != nil {
			return res.fail(err)
		}
		defer self.Release()
		b, err := n.unpack(1)
		if err != nil {
			return res.fail(err)
		}
		defer b.Release()
		if n.needsInput(1) {
			if res[1], err = rt.clampWhereGrad(g[0], self, b, boundOp); err != nil {
				return res.fail(err)
			}
		}
		if n.needsInput(0) {
			if res[0], err = rt.clampWhereGrad(g[0], self, b, selfOp); err != nil {
				return res.fail(err)
			}
		}
		return res, nil
	}
}

// BoolCheck is torch.isneginf/isposinf/signbit (one bool output like
// self) and isreal (ones_like(self, bool) for real inputs).
func (rt *Runtime) BoolCheck(op string, a *Tensor) (*Tensor, error) {
	if op == "isreal" {
		return rt.FactoryLike("ones_like", a, Bool, a.device, false)
	}
	out, err := rt.unaryOut(op, a, Bool)
	if err == nil && rt.exec != nil {
		rt.markNotComputed(out)
	}
	return out, err
}
