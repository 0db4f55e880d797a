package torch

// MaskedFill is torch.masked_fill(t, mask, value) (aten masked_fill,
// TensorAdvancedIndexing.cpp): self and mask are expanded to their
// broadcast shape, self is cloned into a new contiguous tensor and the
// clone is filled in place, so the op allocates its output only.
// MaskedFillBackward0 saves the mask; its gradient for self is
// grad.masked_fill(mask, 0) (one more allocation), summed to self's shape
// when the mask broadcast it. value is a number (valueT nil) or a 0-dim
// tensor that does not require grad (its value is not simulated).
func (rt *Runtime) MaskedFill(t, mask *Tensor, value Scalar, valueT *Tensor) (*Tensor, error) {
	if err := checkMaskedFill(mask, valueT); err != nil {
		return nil, err
	}
	shape, err := broadcastShapes(mask.shape, t.shape)
	if err != nil {
		return nil, err
	}
	if _, err := commonDevice("masked_fill", t, mask); err != nil {
		return nil, err
	}
	out, err := rt.empty("masked_fill", shape, nil, t.dtype, t.device)
	if err != nil {
		return nil, err
	}
	if rt.exec != nil {
		rt.computeMaskedFill(out, t, mask, value, valueT)
	}
	n := rt.record("MaskedFillBackward0", t)
	if n != nil {
		n.save(mask, false)
	}
	self := cloneShape(t.shape)
	n.finish(func(n *Node, g []*Tensor) ([]*Tensor, error) {
		r, err := rt.maskedFillGrad(n, g[0])
		if err != nil {
			return nil, err
		}
		s, err := rt.sumTo(r, self)
		r.Release()
		return []*Tensor{s}, err
	}, out)
	return out, nil
}

// MaskedFillInplace is Tensor.masked_fill_(mask, value): the mask must
// broadcast to t's shape (expand_inplace); nothing is allocated. Under
// autograd MaskedFillBackward0 (saving the mask) replaces t's history.
// Returns t (a new reference).
func (rt *Runtime) MaskedFillInplace(t, mask *Tensor, value Scalar, valueT *Tensor) (*Tensor, error) {
	if err := checkMaskedFill(mask, valueT); err != nil {
		return nil, err
	}
	if !expandable(mask.shape, t.shape) {
		return nil, Errorf(RuntimeError, "The expanded size of the tensor (%d) must match the existing size (%d) at non-singleton dimension %d.  Target sizes: %s.  Tensor sizes: %s",
			lastOr(t.shape), lastOr(mask.shape), max(len(t.shape)-1, 0), shapeList(t.shape), shapeList(mask.shape))
	}
	if err := rt.inplace(t, mask); err != nil {
		return nil, err
	}
	if rt.exec != nil {
		rt.computeMaskedFill(t, t, mask, value, valueT)
	}
	if rt.needsGrad(t) {
		n := rt.record("MaskedFillBackward0", t)
		n.save(mask, false)
		n.rebase(func(n *Node, g []*Tensor) ([]*Tensor, error) {
			r, err := rt.maskedFillGrad(n, g[0])
			return []*Tensor{r}, err
		}, t)
	}
	return t.Retain(), nil
}

// maskedFillGrad is grad.masked_fill(mask, 0) with the saved mask.
func (rt *Runtime) maskedFillGrad(n *Node, g *Tensor) (*Tensor, error) {
	mask, err := n.unpack(0)
	if err != nil {
		return nil, err
	}
	defer mask.Release()
	return rt.MaskedFill(g, mask, Float(0), nil)
}

// checkMaskedFill is masked_fill's argument check: a bool mask and a 0-dim
// value tensor without autograd.
func checkMaskedFill(mask, valueT *Tensor) error {
	if mask.dtype != Bool {
		return Errorf(RuntimeError, "masked_fill_ only supports boolean masks, but got mask with dtype %s", mask.dtype.cppName())
	}
	if valueT != nil {
		if len(valueT.shape) != 0 {
			return Errorf(RuntimeError, "masked_fill_ only supports a 0-dimensional value tensor, but got tensor with %d dimension(s).", len(valueT.shape))
		}
		if valueT.RequiresGrad() {
			return Errorf(NotImplementedError, "masked_fill with a value tensor that requires grad is not simulated")
		}
	}
	return nil
}

// computeMaskedFill hands the values to the executor: out = value where
// mask, else t (broadcast). A tensor value is not known: not computed.
func (rt *Runtime) computeMaskedFill(out, t, mask *Tensor, value Scalar, valueT *Tensor) {
	if valueT != nil {
		rt.markNotComputed(out)
		return
	}
	if out != t {
		rt.compute1(ExecCopy, out, []*Tensor{t})
	}
	rt.compute1(ExecMaskedFill, out, []*Tensor{out, mask}, value.Value())
}
