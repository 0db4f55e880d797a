package torch

// torch.clamp(self, min, max) with tensor bounds (clamp.Tensor, PyTorch
// 2.11; q20 measured): one output of the promoted dtype and broadcast
// shape; ClampBackward0 saves self, min and max. The backward computes the
// bounds' gradients first (clamp_backward_min_max: a 0-dim zero, then per
// bound its two masks, the where, the masks dying newest first; the zero
// last), then self's (clamp_backward: a zero, the two masks, the where).
// The engine sums each bound's gradient back to its shape.

// ClampTensors is torch.clamp(a, lo, hi) with tensor bounds (either may be
// nil, not both).
func (rt *Runtime) ClampTensors(a, lo, hi *Tensor) (*Tensor, error) {
	if lo == nil && hi == nil {
		return nil, Errorf(RuntimeError, "torch.clamp: At least one of 'min' or 'max' must not be None")
	}
	ins := []*Tensor{a}
	for _, b := range []*Tensor{lo, hi} {
		if b != nil {
			ins = append(ins, b)
		}
	}
	out, err := rt.pointwiseOut("clamp", ResultType(ins, nil), ins...)
	if err != nil {
		return nil, err
	}
	n := rt.record("ClampBackward0", a, lo, hi)
	if n != nil {
		n.save(a, false)
		n.save(lo, false)
		n.save(hi, false)
	}
	n.finish(func(n *Node, g []*Tensor) ([]*Tensor, error) {
		res := make(gradSlot, 3)
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
		self, mn, mx := saved[0], saved[1], saved[2]
		if n.needsInput(1) || n.needsInput(2) {
			r1, r2, err := rt.clampBoundsGrad(g[0], self, mn, mx, n.needsInput(1), n.needsInput(2))
			if err != nil {
				return res.fail(err)
			}
			res[1], res[2] = r1, r2
		}
		if n.needsInput(0) {
			r, err := rt.clampSelfGrad(g[0], self, mn, mx)
			if err != nil {
				return res.fail(err)
			}
			res[0] = r
		}
		return res, nil
	}, out)
	return out, nil
}

// clampBoundsGrad is clamp_backward_min_max.
func (rt *Runtime) clampBoundsGrad(g, self, mn, mx *Tensor, wantMin, wantMax bool) (*Tensor, *Tensor, error) {
	zero, err := rt.empty("scalar_tensor", []int64{}, nil, g.dtype, g.device)
	if err != nil {
		return nil, nil, err
	}
	defer zero.Release()
	where := func(masks ...func() (*Tensor, error)) (*Tensor, error) {
		var c exprChain
		var first *Tensor
		for i, m := range masks {
			t := c.then(m)
			if i == 0 {
				first = t
			}
		}
		c.then(func() (*Tensor, error) { return rt.pointwiseOut("where", g.dtype, first, g, zero) })
		return c.result()
	}
	cmp := func(op string, a, b *Tensor) func() (*Tensor, error) {
		return func() (*Tensor, error) { return rt.Compare(op, a, b) }
	}
	var rmin, rmax *Tensor
	switch {
	case mn != nil && mx != nil:
		if wantMin {
			if rmin, err = where(cmp("lt", self, mn), cmp("lt", mn, mx)); err != nil {
				return nil, nil, err
			}
		}
		if wantMax {
			if rmax, err = where(cmp("gt", self, mx), cmp("lt", mx, mn)); err != nil {
				rmin.Release()
				return nil, nil, err
			}
		}
	case mn != nil && wantMin:
		rmin, err = where(cmp("lt", self, mn))
	case mx != nil && wantMax:
		rmax, err = where(cmp("gt", self, mx))
	}
	return rmin, rmax, err
}

// clampSelfGrad is clamp_backward with tensor bounds: where((self >= min)
// .logical_and_(self <= max), grad, zero), one mask for one bound.
func (rt *Runtime) clampSelfGrad(g, self, mn, mx *Tensor) (*Tensor, error) {
	var c exprChain
	zero := c.then(func() (*Tensor, error) { return rt.empty("scalar_tensor", []int64{}, nil, g.dtype, g.device) })
	var mask *Tensor
	if mn != nil {
		mask = c.then(func() (*Tensor, error) { return rt.Compare("ge", self, mn) })
	}
	if mx != nil {
		m := c.then(func() (*Tensor, error) { return rt.Compare("le", self, mx) })
		if mask == nil {
			mask = m
		}
	}
	c.then(func() (*Tensor, error) { return rt.pointwiseOut("where", g.dtype, mask, g, zero) })
	r, err := c.result()
	if err == nil && rt.exec != nil {
		rt.markNotComputed(r)
	}
	return r, err
}
