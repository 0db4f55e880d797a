package torch

// Small products of PyTorch 2.11 on CUDA: mv, addmv(_), addbmm(_), inner,
// kron, linalg.cross/cross, trace, dist. Measured in q20: the generated
// backward computes the inputs' gradients in alphabetical order of their
// names (addmv: mat, self, vec; addbmm: batch1, batch2, self; dist: other,
// self; mv: self, vec), maybe_multiply skips only a factor of 1, and the
// cuBLAS calls take the per-thread workspace (gemmOut).

// Mv is torch.mv(a, v): a gemv into empty({n}) (MvBackward0 saves both).
func (rt *Runtime) Mv(a, v *Tensor) (*Tensor, error) {
	if len(a.shape) != 2 || len(v.shape) != 1 {
		return nil, Errorf(RuntimeError, "vector + matrix @ vector expected, got 1, %d, %d", len(a.shape), len(v.shape))
	}
	if a.shape[1] != v.shape[0] {
		return nil, Errorf(RuntimeError, "size mismatch, got input (%d), mat (%dx%d), vec (%d)", a.shape[0], a.shape[0], a.shape[1], v.shape[0])
	}
	out, err := rt.gemv(a, v)
	if err != nil {
		return nil, err
	}
	n := rt.record("MvBackward0", a, v)
	if n != nil {
		n.saveIf(n.needsInput(1), a, false)
		n.saveIf(n.needsInput(0), v, false)
	}
	n.finish(func(n *Node, g []*Tensor) ([]*Tensor, error) {
		res := make(gradSlot, 2)
		var err error
		if n.needsInput(0) { // self: grad.ger(vec)
			if res[0], err = rt.savedOuter(n, g[0], 1, 1); err != nil {
				return res.fail(err)
			}
		}
		if n.needsInput(1) { // vec: self.t().mv(grad)
			if res[1], err = rt.savedTMv(n, g[0], 0, 1); err != nil {
				return res.fail(err)
			}
		}
		return res, nil
	}, out)
	return out, nil
}

// gemv is addmv_out's kernel: an [n] output of the promoted dtype, a
// contiguous copy of a matrix cuBLAS cannot read, the workspace.
func (rt *Runtime) gemv(a, v *Tensor) (*Tensor, error) {
	if a.dtype != v.dtype {
		return nil, Errorf(RuntimeError, "expected m1 and m2 to have the same dtype, but got: %s != %s", a.dtype.cppName(), v.dtype.cppName())
	}
	if _, err := commonDevice("mv", a, v); err != nil {
		return nil, err
	}
	return rt.gemmOut("addmv", []int64{a.shape[0]}, v.dtype, v.device, false, a)
}

// savedOuter is grad.ger(saved[ix]) times alpha (when not 1).
func (rt *Runtime) savedOuter(n *Node, g *Tensor, ix int, alpha float64) (*Tensor, error) {
	vec, err := n.unpack(ix)
	if err != nil {
		return nil, err
	}
	defer vec.Release()
	o, err := rt.Outer(g, vec)
	if err != nil || alpha == 1 {
		return o, err
	}
	defer o.Release()
	return rt.MulScalar(o, Float(alpha))
}

// savedTMv is saved[ix].t().mv(grad) times alpha (when not 1).
func (rt *Runtime) savedTMv(n *Node, g *Tensor, ix int, alpha float64) (*Tensor, error) {
	mat, err := n.unpack(ix)
	if err != nil {
		return nil, err
	}
	defer mat.Release()
	t, err := rt.Transpose(mat, 0, 1)
	if err != nil {
		return nil, err
	}
	defer t.Release()
	r, err := rt.gemv(t, g)
	if err != nil || alpha == 1 {
		return r, err
	}
	defer r.Release()
	return rt.MulScalar(r, Float(alpha))
}

// maybeMultiply is maybe_multiply(grad, s): grad itself for 1, else a
// product.
func (rt *Runtime) maybeMultiply(g *Tensor, s float64) (*Tensor, error) {
	if s == 1 {
		return g.Retain(), nil
	}
	return rt.MulScalar(g, Float(s))
}

// Addmv is torch.addmv(bias, mat, vec, beta=, alpha=) (AddmvBackward0).
func (rt *Runtime) Addmv(bias, a, v *Tensor, beta, alpha float64) (*Tensor, error) {
	if len(a.shape) != 2 || len(v.shape) != 1 {
		return nil, Errorf(RuntimeError, "vector + matrix @ vector expected, got %d, %d, %d", len(bias.shape), len(a.shape), len(v.shape))
	}
	if a.shape[1] != v.shape[0] || (len(bias.shape) == 1 && bias.shape[0] != a.shape[0] && bias.shape[0] != 1) || len(bias.shape) > 1 {
		return nil, Errorf(RuntimeError, "size mismatch, got input (%d), mat (%dx%d), vec (%d)", bias.shape[len(bias.shape)-1], a.shape[0], a.shape[1], v.shape[0])
	}
	out, err := rt.gemv(a, v)
	if err != nil {
		return nil, err
	}
	rt.addmvNode(out, bias, a, v, beta, alpha, false)
	return out, nil
}

// AddmvInplace is Tensor.addmv_(mat, vec, beta=, alpha=): no allocation.
func (rt *Runtime) AddmvInplace(t, a, v *Tensor, beta, alpha float64) (*Tensor, error) {
	if len(a.shape) != 2 || len(v.shape) != 1 || len(t.shape) != 1 || a.shape[1] != v.shape[0] || t.shape[0] != a.shape[0] {
		return nil, Errorf(RuntimeError, "size mismatch, got input (%d), mat (%dx%d), vec (%d)", lastOr(t.shape), lastOr(a.shape), lastOr(a.shape), lastOr(v.shape))
	}
	if err := rt.inplace(t); err != nil {
		return nil, err
	}
	if rt.exec != nil {
		rt.markNotComputed(t)
	}
	rt.addmvNode(t, t, a, v, beta, alpha, true)
	return t.Retain(), nil
}

// addmvNode records AddmvBackward0 for out = beta * bias + alpha * a @ v.
func (rt *Runtime) addmvNode(out, bias, a, v *Tensor, beta, alpha float64, inplace bool) {
	n := rt.record("AddmvBackward0", bias, a, v)
	if n == nil {
		return
	}
	n.saveIf(n.needsInput(2), a, false)
	n.saveIf(n.needsInput(1), v, false)
	fn := func(n *Node, g []*Tensor) ([]*Tensor, error) {
		res := make(gradSlot, 3)
		var err error
		if n.needsInput(1) { // mat: grad.ger(vec) * alpha
			if res[1], err = rt.savedOuter(n, g[0], 1, alpha); err != nil {
				return res.fail(err)
			}
		}
		if n.needsInput(0) { // self: maybe_multiply(grad, beta)
			if res[0], err = rt.maybeMultiply(g[0], beta); err != nil {
				return res.fail(err)
			}
		}
		if n.needsInput(2) { // vec: mat.t().mv(grad) * alpha
			if res[2], err = rt.savedTMv(n, g[0], 0, alpha); err != nil {
				return res.fail(err)
			}
		}
		return res, nil
	}
	if inplace {
		n.rebase(fn, out)
		return
	}
	n.finish(fn, out)
}

// Addbmm is torch.addbmm(self, batch1, batch2, beta=, alpha=): the result
// (self's expanded [n, p] shape, contiguous), then one addmm_ per batch
// into it (no other memory). AddbmmBackward0 saves both batches.
func (rt *Runtime) Addbmm(self, b1, b2 *Tensor, beta, alpha float64, inplace bool) (*Tensor, error) {
	if len(b1.shape) != 3 || len(b2.shape) != 3 {
		return nil, Errorf(RuntimeError, "batch1 must be a 3D tensor")
	}
	if b1.shape[0] != b2.shape[0] {
		return nil, Errorf(RuntimeError, "batch1 and batch2 must have same number of batches, got %d and %d", b1.shape[0], b2.shape[0])
	}
	if b1.shape[2] != b2.shape[1] {
		return nil, Errorf(RuntimeError, "Incompatible matrix sizes for bmm (%dx%d and %dx%d)", b1.shape[1], b1.shape[2], b2.shape[1], b2.shape[2])
	}
	shape := []int64{b1.shape[1], b2.shape[2]}
	if _, err := broadcastShapes(self.shape, shape); err != nil {
		return nil, Errorf(RuntimeError, "The expanded size of the tensor (%d) must match the existing size (%d) at non-singleton dimension %d.  Target sizes: %s.  Tensor sizes: %s", shape[len(shape)-1], lastOr(self.shape), len(shape)-1, shapeList(shape), shapeList(self.shape))
	}
	var out *Tensor
	if inplace {
		if !sameShape(self.shape, shape) {
			return nil, Errorf(RuntimeError, "output with shape %s doesn't match the broadcast shape %s", shapeList(self.shape), shapeList(shape))
		}
		if err := rt.inplace(self); err != nil {
			return nil, err
		}
		if rt.exec != nil {
			rt.markNotComputed(self)
		}
		out = self.Retain()
	} else {
		o, err := rt.empty("addbmm", shape, nil, self.dtype, self.device)
		if err != nil {
			return nil, err
		}
		out = o
	}
	if self.device.IsCUDA() && numel(shape) > 0 && b1.shape[0] > 0 {
		if err := rt.workspace(false); err != nil {
			out.Release()
			return nil, err
		}
	}
	n := rt.record("AddbmmBackward0", self, b1, b2)
	if n != nil {
		n.saveIf(n.needsInput(2), b1, false)
		n.saveIf(n.needsInput(1), b2, false)
		bsz := b1.shape[0]
		fn := func(n *Node, g []*Tensor) ([]*Tensor, error) {
			res := make(gradSlot, 3)
			ge, err := rt.expandBatch(g[0], bsz)
			if err != nil {
				return res.fail(err)
			}
			defer ge.Release()
			for _, i := range []int{1, 2} {
				if !n.needsInput(i) {
					continue
				}
				r, err := rt.addbmmBatchGrad(n, ge, i, alpha)
				if err != nil {
					return res.fail(err)
				}
				res[i] = r
			}
			if n.needsInput(0) {
				if res[0], err = rt.maybeMultiply(g[0], beta); err != nil {
					return res.fail(err)
				}
			}
			return res, nil
		}
		if inplace {
			n.rebase(fn, out)
		} else {
			n.finish(fn, out)
		}
	}
	return out, nil
}

// expandBatch is grad.unsqueeze(0).expand({b, n, p}) (views).
func (rt *Runtime) expandBatch(g *Tensor, b int64) (*Tensor, error) {
	u, err := rt.Unsqueeze(g, 0)
	if err != nil {
		return nil, err
	}
	defer u.Release()
	return rt.Expand(u, []int64{b, g.shape[0], g.shape[1]})
}

// addbmmBatchGrad is batch1's (i = 1: ge.bmm(batch2.transpose(1, 2))) or
// batch2's (i = 2: batch1.transpose(1, 2).bmm(ge)) gradient times alpha.
func (rt *Runtime) addbmmBatchGrad(n *Node, ge *Tensor, i int, alpha float64) (*Tensor, error) {
	other, err := n.unpack(2 - i) // batch2 is slot 1, batch1 slot 0
	if err != nil {
		return nil, err
	}
	defer other.Release()
	t, err := rt.Transpose(other, 1, 2)
	if err != nil {
		return nil, err
	}
	defer t.Release()
	var r *Tensor
	if i == 1 {
		r, err = rt.Bmm(ge, t)
	} else {
		r, err = rt.Bmm(t, ge)
	}
	if err != nil || alpha == 1 {
		return r, err
	}
	defer r.Release()
	return rt.MulScalar(r, Float(alpha))
}
