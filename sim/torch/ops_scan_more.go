package torch

// cummax/cummin and logcumsumexp (PyTorch 2.11, CUDA). cummax allocates
// contiguous values (self's dtype) and int64 indices (at::empty of self's
// sizes) and scans self.expect_contiguous() (a copy for a strided input);
// CummaxBackward0 saves self and the indices, and cummaxmin_backward is
// zeros(self.sizes()).scatter_add_(dim, indices, grad) (one allocation).
// logcumsumexp runs scan_dim like cumsum (ops_scan.go: the same copies and
// cub temp storage for a 1-d scan); LogcumsumexpBackward0 saves self and
// the result, and logcumsumexp_backward (FunctionsManual.cpp) builds the
// positive and negative parts of the gradient with two reversed
// logcumsumexps (measured allocation by allocation in q16).

// CumMaxMin is torch.cummax / torch.cummin (op) along dim: (values,
// indices).
func (rt *Runtime) CumMaxMin(op string, t *Tensor, dim int64) (*Tensor, *Tensor, error) {
	if _, err := wrapDim(dim, max(len(t.shape), 1)); err != nil {
		return nil, nil, err
	}
	if t.dtype.IsComplex() {
		return nil, nil, Errorf(RuntimeError, "%s does not support complex input", op)
	}
	vals, err := rt.empty(op, t.shape, nil, t.dtype, t.device)
	if err != nil {
		return nil, nil, err
	}
	idx, err := rt.empty(op, t.shape, nil, Int64, t.device)
	if err != nil {
		vals.Release()
		return nil, nil, err
	}
	if len(t.shape) > 0 && t.Numel() > 0 && !t.IsContiguous() && t.device.IsCUDA() {
		s := &scratch{rt: rt}
		_, err := s.alloc(t.Numel()*t.dtype.Size(), "scan input copy", "scan_dim_with_indices's expect_contiguous copy of self")
		s.release()
		if err != nil {
			vals.Release()
			idx.Release()
			return nil, nil, err
		}
	}
	in, dt, dev := cloneShape(t.shape), t.dtype, t.device
	n := rt.record(capitalize(op)+"Backward0", t)
	if n != nil {
		n.save(t, false)
		n.save(idx, true)
		n.fn = func(n *Node, g []*Tensor) ([]*Tensor, error) {
			if numel(in) == 0 {
				return []*Tensor{nil}, nil
			}
			// zeros(self.sizes()).scatter_add_(dim, indices, grad)
			r, err := rt.empty("zeros", in, nil, dt, dev)
			if err == nil && rt.exec != nil {
				rt.markNotComputed(r)
			}
			return []*Tensor{r}, err
		}
		n.setHistory(vals, nil)
	}
	return vals, idx, nil
}

// Logcumsumexp is torch.logcumsumexp(t, dim).
func (rt *Runtime) Logcumsumexp(t *Tensor, dim int64) (*Tensor, error) {
	if !t.dtype.IsFloating() && !t.dtype.IsComplex() {
		return nil, Errorf(NotImplementedError, "\"logcumsumexp_cuda\" not implemented for '%s'", t.dtype.cppName())
	}
	d, err := wrapDim(dim, max(len(t.shape), 1))
	if err != nil {
		return nil, err
	}
	out, _, err := rt.scanRaw(t, d, t.dtype)
	if err != nil {
		return nil, err
	}
	n := rt.record("LogcumsumexpBackward0", t)
	if n != nil {
		n.save(t, false)
		n.save(out, true)
	}
	n.finish(func(n *Node, g []*Tensor) ([]*Tensor, error) {
		if len(g[0].shape) == 0 || g[0].Numel() == 0 {
			return []*Tensor{g[0].Retain()}, nil
		}
		self, err := n.unpack(0)
		if err != nil {
			return nil, err
		}
		defer self.Release()
		res, err := n.unpack(1)
		if err != nil {
			return nil, err
		}
		defer res.Release()
		r, err := rt.logcumsumexpBackward(g[0], self, res, d)
		return []*Tensor{r}, err
	}, out)
	return out, nil
}

// logcumsumexpBackward is logcumsumexp_backward for a real gradient.
func (rt *Runtime) logcumsumexpBackward(g, self, res *Tensor, d int) (*Tensor, error) {
	var locals exprChain // grad_min, log_abs_grad, log_grad_positive, log_grad_negative, output_pos, output_neg
	defer locals.release()
	gmin := locals.then(func() (*Tensor, error) { return rt.empty("scalar_tensor", []int64{}, nil, g.dtype, g.device) })
	var c1 exprChain
	ab := c1.then(func() (*Tensor, error) { return rt.unaryOut("abs", g, g.dtype) })
	c1.then(func() (*Tensor, error) { return rt.unaryOut("log", ab, ab.dtype) })
	logAbs := locals.then(c1.result)
	part := func(cmp string) *Tensor {
		var c exprChain
		m := c.then(func() (*Tensor, error) { return rt.CompareNumber(cmp, g, Int(0)) })
		c.then(func() (*Tensor, error) { return rt.pointwiseOut("where", g.dtype, m, logAbs, gmin) })
		return locals.then(c.result)
	}
	pos := part("gt")
	neg := part("lt")
	out := func(lg *Tensor) *Tensor {
		// (reverse_logcumsumexp(lg - result) + self).exp()
		var c exprChain
		s := c.then(func() (*Tensor, error) { return rt.Sub(lg, res, 1) })
		rev := c.then(func() (*Tensor, error) {
			var in exprChain
			f := in.then(func() (*Tensor, error) { return rt.flipRaw(s) })
			l := in.then(func() (*Tensor, error) {
				o, _, err := rt.scanRaw(f, d, f.dtype)
				return o, err
			})
			in.then(func() (*Tensor, error) { return rt.flipRaw(l) })
			return in.result()
		})
		a := c.then(func() (*Tensor, error) { return rt.Add(rev, self, 1) })
		c.then(func() (*Tensor, error) { return rt.unaryOut("exp", a, a.dtype) })
		return locals.then(c.result)
	}
	op := out(pos)
	on := out(neg)
	if locals.err != nil {
		return nil, locals.err
	}
	return rt.Sub(op, on, 1)
}
