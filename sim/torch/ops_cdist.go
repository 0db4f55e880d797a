package torch

// torch.cdist (PyTorch 2.11, CUDA; measured in q20). For p = 2 with more
// than 25 rows on either side (compute_mode "use_mm_for_euclid_dist_if_
// necessary", or always with "use_mm_for_euclid_dist") cdist_impl runs
// under autograd: x1/x2 expanded to the broadcast batch and reshaped to
// 3-d (a copy when the expansion is real), at::_euclidean_dist
// (EuclideanDistBackward0 saves x1, x2 and the result), and a view to the
// output shape (ViewBackward0). _euclidean_dist's own allocations: x1²
// summed over the last dim, ones_like, the same for x2, x1·(−2), the two
// cats [x1·(−2), |x1|², 1] and [x2, 1, |x2|²] (the cat's inputs die after
// each cat, last first), the bmm, clamp_min_/sqrt_ in place, then both
// cats die. Its backward: ratio = grad / res (masked_fill_ of res == 0),
// then {x1 * ratio.sum(-1, true) - ratio.matmul(x2),
// x2 * ratio.sum(-2).unsqueeze(-1) - ratio.mT().matmul(x1)} in one
// statement (both gradients always). Otherwise _cdist_forward
// (CdistBackward0 saves x1, x2, result) allocates the output only; each
// input's _cdist_backward takes grad (x2: grad.mT().contiguous() and
// result.mT().contiguous() copies), a [batch, r1, c] gradient and a
// [batch, r2, r1, c] buffer summed into it (none for p = 0).

// CdistModes are compute_mode's values.
var CdistModes = map[string]int64{"use_mm_for_euclid_dist_if_necessary": 0, "use_mm_for_euclid_dist": 1,
	"donot_use_mm_for_euclid_dist": 2}

// Cdist is torch.cdist(x1, x2, p, compute_mode).
func (rt *Runtime) Cdist(x1, x2 *Tensor, p float64, mode int64) (*Tensor, error) {
	if len(x1.shape) < 2 {
		return nil, Errorf(RuntimeError, "cdist only supports at least 2D tensors, X1 got: %dD", len(x1.shape))
	}
	if len(x2.shape) < 2 {
		return nil, Errorf(RuntimeError, "cdist only supports at least 2D tensors, X2 got: %dD", len(x2.shape))
	}
	c1, c2 := x1.shape[len(x1.shape)-1], x2.shape[len(x2.shape)-1]
	if c1 != c2 {
		return nil, Errorf(RuntimeError, "X1 and X2 must have the same number of columns. X1: %d X2: %d", c1, c2)
	}
	if !x1.dtype.IsFloating() {
		return nil, Errorf(RuntimeError, "cdist only supports floating-point dtypes, X1 got: %s", x1.dtype.cppName())
	}
	if !x2.dtype.IsFloating() {
		return nil, Errorf(RuntimeError, "cdist only supports floating-point dtypes, X2 got: %s", x2.dtype.cppName())
	}
	if p < 0 {
		return nil, Errorf(RuntimeError, "cdist only supports non-negative p values")
	}
	r1, r2 := x1.shape[len(x1.shape)-2], x2.shape[len(x2.shape)-2]
	batch, err := broadcastShapes(x1.shape[:len(x1.shape)-2], x2.shape[:len(x2.shape)-2])
	if err != nil {
		return nil, err
	}
	if x1.Numel() > 0 && x2.Numel() > 0 && p == 2 && (mode == 1 || (mode == 0 && (r1 > 25 || r2 > 25))) {
		return rt.cdistMM(x1, x2, batch)
	}
	return rt.cdistForward(x1, x2, p, batch)
}

// cdistMM is cdist_impl's matrix-multiplication path.
func (rt *Runtime) cdistMM(x1, x2 *Tensor, batch []int64) (*Tensor, error) {
	P := numel(batch)
	flat := func(x *Tensor) (*Tensor, error) {
		r, c := x.shape[len(x.shape)-2], x.shape[len(x.shape)-1]
		full := append(cloneShape(batch), r, c)
		e, err := rt.Expand(x, full)
		if err != nil {
			return nil, err
		}
		defer e.Release()
		if !sameShape(x.shape, full) {
			// a real expansion is copied (measured: the copy is what
			// _euclidean_dist saves)
			ce, err := rt.Contiguous(e)
			if err != nil {
				return nil, err
			}
			defer ce.Release()
			return rt.Reshape(ce, []int64{P, r, c})
		}
		return rt.Reshape(e, []int64{P, r, c})
	}
	t1, err := flat(x1)
	if err != nil {
		return nil, err
	}
	defer t1.Release()
	t2, err := flat(x2)
	if err != nil {
		return nil, err
	}
	defer t2.Release()
	res, err := rt.euclideanDist(t1, t2)
	if err != nil {
		return nil, err
	}
	defer res.Release()
	return rt.View(res, append(cloneShape(batch), res.shape[1], res.shape[2]))
}

// euclideanDist is at::_euclidean_dist of two 3-d tensors.
func (rt *Runtime) euclideanDist(x1, x2 *Tensor) (*Tensor, error) {
	var res *Tensor
	err := rt.noGrad(func() error {
		var locals exprChain // x1_, x2_
		defer locals.release()
		normPad := func(x *Tensor) (*Tensor, *Tensor, error) {
			var c exprChain
			sq := c.then(func() (*Tensor, error) { return rt.PowScalar(x, Int(2)) })
			c.then(func() (*Tensor, error) { return rt.Sum(sq, []int64{-1}, true, nil) })
			nrm, err := c.result()
			if err != nil {
				return nil, nil, err
			}
			pad, err := rt.OnesLike(nrm)
			if err != nil {
				nrm.Release()
				return nil, nil, err
			}
			return nrm, pad, nil
		}
		n1, p1, err := normPad(x1)
		if err != nil {
			return err
		}
		n2, p2, err := normPad(x2)
		if err != nil {
			releaseAll([]*Tensor{n1, p1})
			return err
		}
		m, err := rt.MulScalar(x1, Int(-2))
		if err != nil {
			releaseAll([]*Tensor{n1, p1, n2, p2})
			return err
		}
		a := locals.then(func() (*Tensor, error) { return rt.Cat([]*Tensor{m, n1, p1}, -1) })
		releaseAll([]*Tensor{p1, n1, m}) // the list's elements die last first
		b := locals.then(func() (*Tensor, error) { return rt.Cat([]*Tensor{x2, p2, n2}, -1) })
		releaseAll([]*Tensor{n2, p2})
		if locals.err != nil {
			return locals.err
		}
		bt, err := rt.Transpose(b, 1, 2)
		if err != nil {
			return err
		}
		res, err = rt.Bmm(a, bt)
		bt.Release()
		if err != nil {
			return err
		}
		// clamp_min_(0).sqrt_() in place
		if rt.exec != nil {
			rt.markNotComputed(res)
		}
		// x1_ and x2_ die at the return, newest first
		locals.release()
		return nil
	})
	if err != nil {
		return nil, err
	}
	n := rt.record("EuclideanDistBackward0", x1, x2)
	if n != nil {
		n.save(x1, false)
		n.save(x2, false)
		n.save(res, true)
	}
	n.finish(func(n *Node, g []*Tensor) ([]*Tensor, error) {
		return rt.euclideanDistBackward(n, g[0])
	}, res)
	return res, nil
}

// euclideanDistBackward is _euclidean_dist_backward.
func (rt *Runtime) euclideanDistBackward(n *Node, g *Tensor) ([]*Tensor, error) {
	res := make(gradSlot, 2)
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
	x1, x2, r := saved[0], saved[1], saved[2]
	ratio, err := rt.Div(g, r)
	if err != nil {
		return res.fail(err)
	}
	released := false
	defer func() {
		if !released {
			ratio.Release()
		}
	}()
	mask, err := rt.CompareNumber("eq", r, Int(0))
	if err != nil {
		return res.fail(err)
	}
	mask.Release()
	var c exprChain
	// x1 * ratio.sum(-1, true) - ratio.matmul(x2)
	mm1 := c.then(func() (*Tensor, error) { return rt.Bmm(ratio, x2) })
	s1 := c.then(func() (*Tensor, error) { return rt.Sum(ratio, []int64{-1}, true, nil) })
	p1 := c.then(func() (*Tensor, error) { return rt.Mul(x1, s1) })
	g1 := c.then(func() (*Tensor, error) { return rt.Sub(p1, mm1, 1) })
	// x2 * ratio.sum(-2, false).unsqueeze(-1) - ratio.mT().matmul(x1)
	mm2 := c.then(func() (*Tensor, error) {
		t, err := rt.Transpose(ratio, 1, 2)
		if err != nil {
			return nil, err
		}
		defer t.Release()
		return rt.Bmm(t, x1)
	})
	s2 := c.then(func() (*Tensor, error) {
		s, err := rt.Sum(ratio, []int64{-2}, false, nil)
		if err != nil {
			return nil, err
		}
		defer s.Release()
		return rt.Unsqueeze(s, -1)
	})
	p2 := c.then(func() (*Tensor, error) { return rt.Mul(x2, s2) })
	g2 := c.then(func() (*Tensor, error) { return rt.Sub(p2, mm2, 1) })
	if c.err != nil {
		c.release()
		return res.fail(c.err)
	}
	for i := len(c.ts) - 1; i >= 0; i-- {
		if t := c.ts[i]; t != g1 && t != g2 {
			t.Release()
		}
	}
	res[0], res[1] = g1, g2
	// ratio (a local) dies at the return; then the generated code drops a
	// gradient nobody needs (both are always computed)
	ratio.Release()
	released = true
	if !n.needsInput(0) {
		res[0].Release()
		res[0] = nil
	}
	if !n.needsInput(1) {
		res[1].Release()
		res[1] = nil
	}
	return res, nil
}

// cdistForward is at::_cdist_forward (CdistBackward0).
func (rt *Runtime) cdistForward(x1, x2 *Tensor, p float64, batch []int64) (*Tensor, error) {
	if x1.dtype != Float32 && x1.dtype != Float64 {
		return nil, Errorf(NotImplementedError, "\"cdist_cuda\" not implemented for '%s'", x1.dtype.cppName())
	}
	r1, r2 := x1.shape[len(x1.shape)-2], x2.shape[len(x2.shape)-2]
	shape := append(cloneShape(batch), r1, r2)
	out, err := rt.empty("cdist", shape, nil, x1.dtype, x1.device)
	if err != nil {
		return nil, err
	}
	n := rt.record("CdistBackward0", x1, x2)
	if n != nil {
		n.save(x1, false)
		n.save(x2, false)
		n.save(out, true)
	}
	n.finish(func(n *Node, g []*Tensor) ([]*Tensor, error) {
		res := make(gradSlot, 2)
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
		if n.needsInput(0) {
			r, err := rt.cdistBackward(g[0], saved[0], saved[1], saved[2], p, batch, false)
			if err != nil {
				return res.fail(err)
			}
			res[0] = r
		}
		if n.needsInput(1) {
			r, err := rt.cdistBackward(g[0], saved[1], saved[0], saved[2], p, batch, true)
			if err != nil {
				return res.fail(err)
			}
			res[1] = r
		}
		return res, nil
	}, out)
	return out, nil
}

// cdistBackward is _cdist_backward(grad, x1, x2, p, cdist) for x1's
// gradient (transposed: x2's, with grad and cdist transposed and copied
// contiguous first).
func (rt *Runtime) cdistBackward(g, x1, x2, dist *Tensor, p float64, batch []int64, transposed bool) (*Tensor, error) {
	s := &scratch{rt: rt}
	defer s.release()
	r1, c := x1.shape[len(x1.shape)-2], x1.shape[len(x1.shape)-1]
	r2 := x2.shape[len(x2.shape)-2]
	P := numel(batch)
	copyIf := func(t *Tensor, need bool, what string) error {
		if need {
			_, err := s.alloc(t.Numel()*t.dtype.Size(), what, "_cdist_backward's contiguous copy")
			return err
		}
		return nil
	}
	if err := copyIf(g, transposed || !g.IsContiguous(), "grad copy"); err != nil {
		return nil, err
	}
	if err := copyIf(dist, transposed, "cdist copy"); err != nil {
		return nil, err
	}
	if err := copyIf(x1, !x1.IsContiguous() || numel(x1.shape) != P*r1*c, "x1 copy"); err != nil {
		return nil, err
	}
	if err := copyIf(x2, !x2.IsContiguous() || numel(x2.shape) != P*r2*c, "x2 copy"); err != nil {
		return nil, err
	}
	if r1 == 0 || r2 == 0 || c == 0 || P == 0 {
		return rt.ZerosLike(x1)
	}
	gx, err := rt.empty("cdist_backward", []int64{P, r1, c}, nil, x1.dtype, x1.device)
	if err != nil {
		return nil, err
	}
	if p != 0 {
		buf, err := rt.empty("cdist_backward buffer", []int64{P, r2, r1, c}, nil, x1.dtype, x1.device)
		if err != nil {
			gx.Release()
			return nil, err
		}
		err = rt.reduceKernel(buf, []int64{1}, accSize(buf.dtype))
		buf.Release()
		if err != nil {
			gx.Release()
			return nil, err
		}
	}
	if rt.exec != nil {
		rt.markNotComputed(gx)
	}
	shape := append(cloneShape(batch), r1, c)
	v, err := rt.View(gx, shape)
	gx.Release()
	return v, err
}
