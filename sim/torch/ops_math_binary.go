package torch

// Binary pointwise math of PyTorch 2.11: hypot, atan2, logaddexp,
// logaddexp2 (TensorIterator outputs of the broadcast shape; atan2 promotes
// integral inputs to float32, hypot and logaddexp have floating kernels
// only). Their nodes save self and other (hypot also the result); the
// generated backward computes other's gradient before self's (measured for
// xlogy and mul in q18/q19), each a C++ full expression whose temporaries
// die newest first after it. The autograd engine sums broadcast gradients
// back to each input's shape.

// mathBinarySpec describes one binary op.
type mathBinarySpec struct {
	node       string
	floatPromo bool // integral inputs give float32 (else a dispatch error)
	keepInts   bool // integral inputs keep the promoted integral dtype
	saveResult bool
	// bw computes the gradients: want[i] says whether input i needs one;
	// it returns them (nil where not wanted).
	bw func(rt *Runtime, g, s, o, r *Tensor, want [2]bool) ([2]*Tensor, error)
}

var mathBinaryOps = map[string]mathBinarySpec{
	// self: grad * self / result; other: grad * other / result
	"hypot": {node: "HypotBackward0", saveResult: true, bw: func(rt *Runtime, g, s, o, r *Tensor, want [2]bool) ([2]*Tensor, error) {
		var out [2]*Tensor
		for _, i := range []int{1, 0} {
			if !want[i] {
				continue
			}
			x := s
			if i == 1 {
				x = o
			}
			var c exprChain
			m := c.then(func() (*Tensor, error) { return rt.Mul(g, x) })
			c.then(func() (*Tensor, error) { return rt.Div(m, r) })
			t, err := c.result()
			if err != nil {
				releaseAll(out[:])
				return [2]*Tensor{}, err
			}
			out[i] = t
		}
		return out, nil
	}},
	// atan2_backward (measured): denom = self * self + other * other
	// (other's square first), recip = denom.reciprocal() with the
	// denom == 0 entries filled, then {grad * other * recip,
	// grad * -self * recip} in one return statement (a braced list: left
	// to right, its temporaries to its end); recip, then denom die last
	"atan2": {node: "Atan2Backward0", floatPromo: true, bw: func(rt *Runtime, g, s, o, _ *Tensor, want [2]bool) ([2]*Tensor, error) {
		var locals exprChain // denom, recip
		defer locals.release()
		denom := locals.then(func() (*Tensor, error) {
			var c exprChain
			oo := c.then(func() (*Tensor, error) { return rt.Mul(o, o) })
			ss := c.then(func() (*Tensor, error) { return rt.Mul(s, s) })
			c.then(func() (*Tensor, error) { return rt.Add(ss, oo, 1) })
			return c.result()
		})
		recip := locals.then(func() (*Tensor, error) { return rt.Reciprocal(denom) })
		locals.then(func() (*Tensor, error) { return rt.CompareNumber("eq", denom, Int(0)) })
		if locals.err != nil {
			return [2]*Tensor{}, locals.err
		}
		locals.ts[2].Release() // the mask dies after masked_fill_
		locals.ts = locals.ts[:2]
		var ret exprChain
		var out [2]*Tensor
		if want[0] {
			m := ret.then(func() (*Tensor, error) { return rt.Mul(g, o) })
			out[0] = ret.then(func() (*Tensor, error) { return rt.Mul(m, recip) })
		}
		if want[1] {
			n := ret.then(func() (*Tensor, error) { return rt.Neg(s) })
			m := ret.then(func() (*Tensor, error) { return rt.Mul(g, n) })
			out[1] = ret.then(func() (*Tensor, error) { return rt.Mul(m, recip) })
		}
		if ret.err != nil {
			ret.release()
			return [2]*Tensor{}, ret.err
		}
		// the results survive; the other temporaries die newest first
		for i := len(ret.ts) - 1; i >= 0; i-- {
			if t := ret.ts[i]; t != out[0] && t != out[1] {
				t.Release()
			}
		}
		return out, nil
	}},
	// copysign_tensor_self_backward: ratio = result / self with the self == 0
	// entries filled, grad * ratio; other's gradient is zeros_like(other)
	"copysign": {node: "CopysignBackward0", floatPromo: true, saveResult: true, bw: func(rt *Runtime, g, s, o, r *Tensor, want [2]bool) ([2]*Tensor, error) {
		var out [2]*Tensor
		var err error
		if want[1] {
			if out[1], err = rt.ZerosLike(o); err != nil {
				return out, err
			}
		}
		if want[0] {
			var c exprChain
			ratio := c.then(func() (*Tensor, error) { return rt.Div(r, s) })
			c.then(func() (*Tensor, error) { return rt.CompareNumber("eq", s, Int(0)) })
			if c.err == nil {
				c.ts[1].Release() // the mask dies after masked_fill_
				c.ts = c.ts[:1]
			}
			c.then(func() (*Tensor, error) { return rt.Mul(g, ratio) })
			if out[0], err = c.result(); err != nil {
				releaseAll(out[:])
				return [2]*Tensor{}, err
			}
		}
		return out, nil
	}},
	// fmax: self's gradient grad.masked_fill((self >= other).logical_or_(
	// other.isnan()).logical_not_(), 0), other's without the not; fmin
	// with <=
	"fmax": {node: "FmaxBackward0", keepInts: true, bw: func(rt *Runtime, g, s, o, _ *Tensor, want [2]bool) ([2]*Tensor, error) {
		return fmaxminGrads(rt, g, s, o, want, "ge")
	}},
	"fmin": {node: "FminBackward0", keepInts: true, bw: func(rt *Runtime, g, s, o, _ *Tensor, want [2]bool) ([2]*Tensor, error) {
		return fmaxminGrads(rt, g, s, o, want, "le")
	}},
	// self: grad / (1 + exp(other - self)); other: grad / (1 + exp(self - other))
	"logaddexp": {node: "LogaddexpBackward0", bw: func(rt *Runtime, g, s, o, _ *Tensor, want [2]bool) ([2]*Tensor, error) {
		return logaddexpGrads(rt, g, s, o, want, false)
	}},
	// self: grad / (1 + pow(2, other - self)); other likewise
	"logaddexp2": {node: "Logaddexp2Backward0", bw: func(rt *Runtime, g, s, o, _ *Tensor, want [2]bool) ([2]*Tensor, error) {
		return logaddexpGrads(rt, g, s, o, want, true)
	}},
}

// logaddexpGrads is logaddexp's (base2: logaddexp2's) two gradients,
// other's first.
func logaddexpGrads(rt *Runtime, g, s, o *Tensor, want [2]bool, base2 bool) ([2]*Tensor, error) {
	var out [2]*Tensor
	for _, i := range []int{1, 0} {
		if !want[i] {
			continue
		}
		a, b := o, s // self's: other - self
		if i == 1 {
			a, b = s, o
		}
		var c exprChain
		d := c.then(func() (*Tensor, error) { return rt.Sub(a, b, 1) })
		e := c.then(func() (*Tensor, error) {
			if !base2 {
				return rt.Exp(d)
			}
			p, err := rt.RPowScalar(d, Int(2))
			if err == nil {
				// pow(2, x) copies the wrapped base to the device (8 bytes,
				// measured), freed at once
				s := &scratch{rt: rt}
				_, err = s.alloc(8, "pow base", "the wrapped scalar base copied to the device")
				s.release()
			}
			return p, err
		})
		p := c.then(func() (*Tensor, error) { return rt.AddScalar(e, Int(1)) })
		c.then(func() (*Tensor, error) { return rt.Div(g, p) })
		t, err := c.result()
		if err != nil {
			releaseAll(out[:])
			return [2]*Tensor{}, err
		}
		out[i] = t
	}
	return out, nil
}

// fmaxminGrads is fmax's (cmp "ge") or fmin's ("le") two gradients,
// other's first: the comparison, isnan(other), their logical_or_ in
// place, then a masked_fill copy of grad; the two masks die newest first.
func fmaxminGrads(rt *Runtime, g, s, o *Tensor, want [2]bool, cmp string) ([2]*Tensor, error) {
	var out [2]*Tensor
	for _, i := range []int{1, 0} {
		if !want[i] {
			continue
		}
		var c exprChain
		m := c.then(func() (*Tensor, error) { return rt.Compare(cmp, s, o) })
		c.then(func() (*Tensor, error) { return rt.CompareScalar("isnan", o) })
		c.then(func() (*Tensor, error) { return rt.MaskedFill(g, m, Int(0), nil) })
		r, err := c.result()
		if err != nil {
			releaseAll(out[:])
			return [2]*Tensor{}, err
		}
		out[i] = r
	}
	return out, nil
}

// IsMathBinary reports whether MathBinary knows op.
func IsMathBinary(op string) bool {
	_, ok := mathBinaryOps[op]
	return ok
}

// mathBinaryDType is the result dtype of op over a and b.
func mathBinaryDType(op string, s mathBinarySpec, a, b *Tensor) (DType, error) {
	dt := ResultType([]*Tensor{a, b}, nil)
	if dt.IsFloating() || dt.IsComplex() {
		return dt, nil
	}
	if s.keepInts {
		return dt, nil
	}
	if s.floatPromo {
		return Float32, nil
	}
	return 0, Errorf(NotImplementedError, "\"%s_cuda\" not implemented for '%s'", op, dt.cppName())
}

// MathBinary is torch.op(a, b) for an op of mathBinaryOps.
func (rt *Runtime) MathBinary(op string, a, b *Tensor) (*Tensor, error) {
	s, ok := mathBinaryOps[op]
	if !ok {
		return nil, Errorf(RuntimeError, "internal: %s is not a binary math op", op)
	}
	dt, err := mathBinaryDType(op, s, a, b)
	if err != nil {
		return nil, err
	}
	out, err := rt.pointwiseOut(op, dt, a, b)
	if err != nil {
		return nil, err
	}
	n := rt.record(s.node, a, b)
	if n != nil {
		n.save(a, false)
		n.save(b, false)
		if s.saveResult {
			n.save(out, true)
		}
	}
	n.finish(func(n *Node, g []*Tensor) ([]*Tensor, error) {
		return rt.mathBinaryBackward(n, s, g[0])
	}, out)
	return out, nil
}

// mathBinaryBackward unpacks self, other (and the result) and runs s.bw.
func (rt *Runtime) mathBinaryBackward(n *Node, s mathBinarySpec, g *Tensor) ([]*Tensor, error) {
	res := make(gradSlot, 2)
	k := 2
	if s.saveResult {
		k = 3
	}
	saved := make([]*Tensor, 3)
	for i := 0; i < k; i++ {
		t, err := n.unpack(i)
		if err != nil {
			releaseAll(saved)
			return res.fail(err)
		}
		saved[i] = t
	}
	defer releaseAll(saved)
	gs, err := s.bw(rt, g, saved[0], saved[1], saved[2], [2]bool{n.needsInput(0), n.needsInput(1)})
	if err != nil {
		return res.fail(err)
	}
	res[0], res[1] = gs[0], gs[1]
	return res, nil
}

// MathBinaryInplace is Tensor.op_(other): the formulas need self, so under
// autograd the node saves original_self = self.clone() taken before the
// op, then other (and t as the result).
func (rt *Runtime) MathBinaryInplace(op string, t, b *Tensor) (*Tensor, error) {
	s, ok := mathBinaryOps[op]
	if !ok {
		return nil, Errorf(RuntimeError, "internal: %s is not a binary math op", op)
	}
	dt, err := mathBinaryDType(op, s, t, b)
	if err != nil {
		return nil, err
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
	n := rt.record(s.node, t, b)
	if n != nil {
		n.save(orig, false)
		n.save(b, false)
		if s.saveResult {
			n.save(t, true)
		}
		n.rebase(func(n *Node, g []*Tensor) ([]*Tensor, error) {
			return rt.mathBinaryBackward(n, s, g[0])
		}, t)
	}
	releaseAll([]*Tensor{orig})
	return t.Retain(), nil
}
