package torch

import "math"

// Unary pointwise math of PyTorch 2.11 beyond the basic set (log1p, expm1,
// erf, erfc, erfinv, exp2, frac, the trigonometric and hyperbolic functions,
// log2/log10, logit, deg2rad, lgamma/digamma): each is a TensorIterator
// kernel with one output like the input (integral inputs give float32),
// and its node saves self or the result as derivatives.yaml's formula
// needs. The backward is the formula itself, evaluated as C++ does: the
// operands of an overloaded binary operator right first (GCC), every
// temporary alive until the full expression ends, then freed newest first
// (exprChain). Values are not computed by the executor.

// mathUnarySpec describes one unary op.
type mathUnarySpec struct {
	node string   // backward node
	save saveKind // what the node keeps
	// keepDT: the result keeps the input's dtype (integral inputs too);
	// otherwise integral inputs give float32
	keepDT bool
	// floatOnly: the CUDA kernel has no integral case (dispatch error)
	floatOnly bool
	// noInplace: derivatives.yaml marks the in-place form not_implemented
	noInplace bool
	// bw is the gradient: g the incoming gradient, s self, r the result
	// (nil unless saved); temporaries go in c, the last step is the result.
	bw func(rt *Runtime, c *exprChain, g, s, r *Tensor)
}

// sqrtPi is sqrt(M_PI) as C++ computes it.
var sqrtPi = math.Sqrt(math.Pi)

// mathUnaryOps are the ops by ATen name.
var mathUnaryOps = map[string]mathUnarySpec{
	// log1p_backward: grad / (self + 1)
	"log1p": {node: "Log1PBackward0", save: saveSelf, bw: func(rt *Runtime, c *exprChain, g, s, _ *Tensor) {
		p := c.then(func() (*Tensor, error) { return rt.AddScalar(s, Int(1)) })
		c.then(func() (*Tensor, error) { return rt.Div(g, p) })
	}},
	// grad * (result + 1)
	"expm1": {node: "Expm1Backward0", save: saveResult, bw: func(rt *Runtime, c *exprChain, g, _, r *Tensor) {
		p := c.then(func() (*Tensor, error) { return rt.AddScalar(r, Int(1)) })
		c.then(func() (*Tensor, error) { return rt.Mul(g, p) })
	}},
	// 2.0 / sqrt(M_PI) * exp(-(self.pow(2))) * grad
	"erf": {node: "ErfBackward0", save: saveSelf, bw: func(rt *Runtime, c *exprChain, g, s, _ *Tensor) {
		erfGrad(rt, c, g, s, 2/sqrtPi)
	}},
	"erfc": {node: "ErfcBackward0", save: saveSelf, bw: func(rt *Runtime, c *exprChain, g, s, _ *Tensor) {
		erfGrad(rt, c, g, s, -2/sqrtPi)
	}},
	// 0.5 * sqrt(M_PI) * exp(self.erfinv().pow(2)) * grad
	"erfinv": {node: "ErfinvBackward0", save: saveSelf, bw: func(rt *Runtime, c *exprChain, g, s, _ *Tensor) {
		e := c.then(func() (*Tensor, error) { return rt.unaryOut("erfinv", s, s.dtype) })
		p := c.then(func() (*Tensor, error) { return rt.PowScalar(e, Int(2)) })
		x := c.then(func() (*Tensor, error) { return rt.Exp(p) })
		m := c.then(func() (*Tensor, error) { return rt.MulScalar(x, Float(0.5*sqrtPi)) })
		c.then(func() (*Tensor, error) { return rt.Mul(m, g) })
	}},
	// grad * result * M_LN2
	"exp2": {node: "Exp2Backward0", save: saveResult, bw: func(rt *Runtime, c *exprChain, g, _, r *Tensor) {
		m := c.then(func() (*Tensor, error) { return rt.Mul(g, r) })
		c.then(func() (*Tensor, error) { return rt.MulScalar(m, Float(math.Ln2)) })
	}},
	// grad * self.cos()
	"sin": {node: "SinBackward0", save: saveSelf, bw: func(rt *Runtime, c *exprChain, g, s, _ *Tensor) {
		t := c.then(func() (*Tensor, error) { return rt.unaryOut("cos", s, s.dtype) })
		c.then(func() (*Tensor, error) { return rt.Mul(g, t) })
	}},
	// grad * -self.sin()
	"cos": {node: "CosBackward0", save: saveSelf, bw: func(rt *Runtime, c *exprChain, g, s, _ *Tensor) {
		t := c.then(func() (*Tensor, error) { return rt.unaryOut("sin", s, s.dtype) })
		n := c.then(func() (*Tensor, error) { return rt.Neg(t) })
		c.then(func() (*Tensor, error) { return rt.Mul(g, n) })
	}},
	// grad * (1 + result.pow(2))
	"tan": {node: "TanBackward0", save: saveResult, bw: func(rt *Runtime, c *exprChain, g, _, r *Tensor) {
		p := c.then(func() (*Tensor, error) { return rt.PowScalar(r, Int(2)) })
		a := c.then(func() (*Tensor, error) { return rt.AddScalar(p, Int(1)) })
		c.then(func() (*Tensor, error) { return rt.Mul(g, a) })
	}},
	// grad * (-self * self + 1).rsqrt()
	"asin": {node: "AsinBackward0", save: saveSelf, bw: func(rt *Runtime, c *exprChain, g, s, _ *Tensor) {
		q := oneMinusSquareRsqrt(rt, c, s)
		c.then(func() (*Tensor, error) { return rt.Mul(g, q) })
	}},
	// grad * -((-self * self + 1).rsqrt())
	"acos": {node: "AcosBackward0", save: saveSelf, bw: func(rt *Runtime, c *exprChain, g, s, _ *Tensor) {
		q := oneMinusSquareRsqrt(rt, c, s)
		n := c.then(func() (*Tensor, error) { return rt.Neg(q) })
		c.then(func() (*Tensor, error) { return rt.Mul(g, n) })
	}},
	// grad / (self * self + 1)
	"atan": {node: "AtanBackward0", save: saveSelf, bw: func(rt *Runtime, c *exprChain, g, s, _ *Tensor) {
		sq := c.then(func() (*Tensor, error) { return rt.Mul(s, s) })
		a := c.then(func() (*Tensor, error) { return rt.AddScalar(sq, Int(1)) })
		c.then(func() (*Tensor, error) { return rt.Div(g, a) })
	}},
	// grad * self.cosh()
	"sinh": {node: "SinhBackward0", save: saveSelf, bw: func(rt *Runtime, c *exprChain, g, s, _ *Tensor) {
		t := c.then(func() (*Tensor, error) { return rt.unaryOut("cosh", s, s.dtype) })
		c.then(func() (*Tensor, error) { return rt.Mul(g, t) })
	}},
	// grad * self.sinh()
	"cosh": {node: "CoshBackward0", save: saveSelf, bw: func(rt *Runtime, c *exprChain, g, s, _ *Tensor) {
		t := c.then(func() (*Tensor, error) { return rt.unaryOut("sinh", s, s.dtype) })
		c.then(func() (*Tensor, error) { return rt.Mul(g, t) })
	}},
	// grad * (self.pow(2) + 1).rsqrt()
	"asinh": {node: "AsinhBackward0", save: saveSelf, noInplace: true, bw: func(rt *Runtime, c *exprChain, g, s, _ *Tensor) {
		p := c.then(func() (*Tensor, error) { return rt.PowScalar(s, Int(2)) })
		a := c.then(func() (*Tensor, error) { return rt.AddScalar(p, Int(1)) })
		q := c.then(func() (*Tensor, error) { return rt.Rsqrt(a) })
		c.then(func() (*Tensor, error) { return rt.Mul(g, q) })
	}},
	// grad * (self * self - 1).rsqrt()
	"acosh": {node: "AcoshBackward0", save: saveSelf, noInplace: true, bw: func(rt *Runtime, c *exprChain, g, s, _ *Tensor) {
		sq := c.then(func() (*Tensor, error) { return rt.Mul(s, s) })
		a := c.then(func() (*Tensor, error) { return rt.SubScalar(sq, Int(1)) })
		q := c.then(func() (*Tensor, error) { return rt.Rsqrt(a) })
		c.then(func() (*Tensor, error) { return rt.Mul(g, q) })
	}},
	// grad * 1 / (1 - self.pow(2)): (grad * 1) / (...), the divisor first
	"atanh": {node: "AtanhBackward0", save: saveSelf, noInplace: true, bw: func(rt *Runtime, c *exprChain, g, s, _ *Tensor) {
		p := c.then(func() (*Tensor, error) { return rt.PowScalar(s, Int(2)) })
		d := c.then(func() (*Tensor, error) { return rt.RSubScalar(p, Int(1)) })
		m := c.then(func() (*Tensor, error) { return rt.MulScalar(g, Int(1)) })
		c.then(func() (*Tensor, error) { return rt.Div(m, d) })
	}},
	// grad / (self * ln(2))
	"log2": {node: "Log2Backward0", save: saveSelf, bw: func(rt *Runtime, c *exprChain, g, s, _ *Tensor) {
		m := c.then(func() (*Tensor, error) { return rt.MulScalar(s, Float(0.6931471805599453)) })
		c.then(func() (*Tensor, error) { return rt.Div(g, m) })
	}},
	// grad / (self * ln(10))
	"log10": {node: "Log10Backward0", save: saveSelf, bw: func(rt *Runtime, c *exprChain, g, s, _ *Tensor) {
		m := c.then(func() (*Tensor, error) { return rt.MulScalar(s, Float(2.3025850929940456)) })
		c.then(func() (*Tensor, error) { return rt.Div(g, m) })
	}},
	// logit_backward (grad mode is off in backward): one kernel
	"logit": {node: "LogitBackward0", save: saveSelf, bw: func(rt *Runtime, c *exprChain, g, s, _ *Tensor) {
		c.then(func() (*Tensor, error) { return rt.pointwiseOut("logit_backward", g.dtype, g, s) })
	}},
	// deg2rad_backward: grad * (pi / 180)
	"deg2rad": {node: "Deg2RadBackward0", save: saveNone, bw: func(rt *Runtime, c *exprChain, g, _, _ *Tensor) {
		c.then(func() (*Tensor, error) { return rt.MulScalar(g, Float(math.Pi/180)) })
	}},
	// grad * digamma(self)
	"lgamma": {node: "LgammaBackward0", save: saveSelf, bw: func(rt *Runtime, c *exprChain, g, s, _ *Tensor) {
		d := c.then(func() (*Tensor, error) { return rt.unaryOut("digamma", s, s.dtype) })
		c.then(func() (*Tensor, error) { return rt.Mul(g, d) })
	}},
	// grad * polygamma(1, self)
	"digamma": {node: "DigammaBackward0", save: saveSelf, bw: func(rt *Runtime, c *exprChain, g, s, _ *Tensor) {
		d := c.then(func() (*Tensor, error) { return rt.unaryOut("polygamma", s, s.dtype) })
		c.then(func() (*Tensor, error) { return rt.Mul(g, d) })
	}},
	// sinc_backward: self_pi = self * pi, self_squared_pi = self * self * pi,
	// out = grad * ((self_pi * self_pi.cos()) - self_pi.sin()) /
	// self_squared_pi, then where(self_squared_pi == 0, zeros({}), out)
	"sinc": {node: "SincBackward0", save: saveSelf, bw: func(rt *Runtime, c *exprChain, g, s, _ *Tensor) {
		var locals exprChain // self_pi, self_squared_pi, out
		defer locals.release()
		spi := locals.then(func() (*Tensor, error) { return rt.MulScalar(s, Float(math.Pi)) })
		sq := locals.then(func() (*Tensor, error) {
			var e exprChain
			ss := e.then(func() (*Tensor, error) { return rt.Mul(s, s) })
			e.then(func() (*Tensor, error) { return rt.MulScalar(ss, Float(math.Pi)) })
			return e.result()
		})
		out := locals.then(func() (*Tensor, error) {
			var e exprChain
			sn := e.then(func() (*Tensor, error) { return rt.unaryOut("sin", spi, spi.dtype) })
			cs := e.then(func() (*Tensor, error) { return rt.unaryOut("cos", spi, spi.dtype) })
			m := e.then(func() (*Tensor, error) { return rt.Mul(spi, cs) })
			d := e.then(func() (*Tensor, error) { return rt.Sub(m, sn, 1) })
			gm := e.then(func() (*Tensor, error) { return rt.Mul(g, d) })
			e.then(func() (*Tensor, error) { return rt.Div(gm, sq) })
			return e.result()
		})
		if locals.err != nil {
			c.err = locals.err
			return
		}
		// the return statement's temporaries die before the locals
		var e exprChain
		z := e.then(func() (*Tensor, error) { return rt.empty("zeros", []int64{}, nil, g.dtype, g.device) })
		m := e.then(func() (*Tensor, error) { return rt.CompareNumber("eq", sq, Float(0)) })
		e.then(func() (*Tensor, error) { return rt.pointwiseOut("where", g.dtype, m, z, out) })
		r, err := e.result()
		locals.release()
		c.then(func() (*Tensor, error) { return r, err })
	}},
	// frac: grad passes through (a new reference, no memory)
	"frac": {node: "FracBackward0", save: saveNone, keepDT: true, floatOnly: true, bw: func(rt *Runtime, c *exprChain, g, _, _ *Tensor) {
		c.then(func() (*Tensor, error) { return g.Retain(), nil })
	}},
}

// erfGrad is k * exp(-(self.pow(2))) * grad.
func erfGrad(rt *Runtime, c *exprChain, g, s *Tensor, k float64) {
	p := c.then(func() (*Tensor, error) { return rt.PowScalar(s, Int(2)) })
	n := c.then(func() (*Tensor, error) { return rt.Neg(p) })
	e := c.then(func() (*Tensor, error) { return rt.Exp(n) })
	m := c.then(func() (*Tensor, error) { return rt.MulScalar(e, Float(k)) })
	c.then(func() (*Tensor, error) { return rt.Mul(m, g) })
}

// oneMinusSquareRsqrt is (-self * self + 1).rsqrt() (asin/acos).
func oneMinusSquareRsqrt(rt *Runtime, c *exprChain, s *Tensor) *Tensor {
	n := c.then(func() (*Tensor, error) { return rt.Neg(s) })
	m := c.then(func() (*Tensor, error) { return rt.Mul(n, s) })
	a := c.then(func() (*Tensor, error) { return rt.AddScalar(m, Int(1)) })
	return c.then(func() (*Tensor, error) { return rt.Rsqrt(a) })
}

// IsMathUnary reports whether MathUnary knows op.
func IsMathUnary(op string) bool {
	_, ok := mathUnaryOps[op]
	return ok
}

// mathUnaryDType is op's result dtype for an input of dtype dt.
func mathUnaryDType(op string, s mathUnarySpec, dt DType) (DType, error) {
	if s.floatOnly && !dt.IsFloating() && !dt.IsComplex() {
		return 0, Errorf(NotImplementedError, "\"%s_cuda\" not implemented for '%s'", op, dt.cppName())
	}
	if s.keepDT || dt.IsFloating() || dt.IsComplex() {
		return dt, nil
	}
	return Float32, nil
}

// MathUnary is torch.op(a) for an op of mathUnaryOps.
func (rt *Runtime) MathUnary(op string, a *Tensor) (*Tensor, error) {
	s, ok := mathUnaryOps[op]
	if !ok {
		return nil, Errorf(RuntimeError, "internal: %s is not a unary math op", op)
	}
	dt, err := mathUnaryDType(op, s, a.dtype)
	if err != nil {
		return nil, err
	}
	out, err := rt.unaryOut(op, a, dt)
	if err != nil {
		return nil, err
	}
	n := rt.record(s.node, a)
	if n != nil {
		switch s.save {
		case saveSelf:
			n.save(a, false)
		case saveResult:
			n.save(out, true)
		}
	}
	n.finish(func(n *Node, g []*Tensor) ([]*Tensor, error) {
		r, err := rt.mathUnaryBackward(n, s, g[0], 0)
		return []*Tensor{r}, err
	}, out)
	return out, nil
}

// mathUnaryBackward evaluates s's gradient with the node's saved tensor
// at index ix.
func (rt *Runtime) mathUnaryBackward(n *Node, s mathUnarySpec, g *Tensor, ix int) (*Tensor, error) {
	var self, result *Tensor
	if s.save != saveNone {
		t, err := n.unpack(ix)
		if err != nil {
			return nil, err
		}
		defer t.Release()
		if s.save == saveSelf {
			self = t
		} else {
			result = t
		}
	}
	var c exprChain
	s.bw(rt, &c, g, self, result)
	return c.result()
}

// MathUnaryInplace is Tensor.op_() for an op of mathUnaryOps: no new
// output; under autograd a formula that needs self saves
// original_self = self.clone() taken before the op (the generated kernel's
// copy), one that needs the result saves t after it.
func (rt *Runtime) MathUnaryInplace(op string, t *Tensor) (*Tensor, error) {
	s, ok := mathUnaryOps[op]
	if !ok {
		return nil, Errorf(RuntimeError, "internal: %s is not a unary math op", op)
	}
	dt, err := mathUnaryDType(op, s, t.dtype)
	if err != nil {
		return nil, err
	}
	if dt != t.dtype {
		return nil, Errorf(RuntimeError, "result type %s can't be cast to the desired output type %s", dt.cppName(), t.dtype.cppName())
	}
	if err := rt.checkInplace(t); err != nil {
		return nil, err
	}
	grad := rt.needsGrad(t)
	var orig *Tensor
	if grad && s.save == saveSelf && !s.noInplace {
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
	n := rt.record(s.node, t)
	if n != nil {
		switch {
		case orig != nil:
			n.save(orig, false)
		case s.save == saveResult:
			n.save(t, true)
		}
		n.rebase(func(n *Node, g []*Tensor) ([]*Tensor, error) {
			if s.noInplace { // not_implemented("inplace version of op")
				return nil, Errorf(RuntimeError, "the derivative for 'inplace version of %s' is not implemented.", op)
			}
			r, err := rt.mathUnaryBackward(n, s, g[0], 0)
			return []*Tensor{r}, err
		}, t)
	}
	releaseAll([]*Tensor{orig})
	return t.Retain(), nil
}
