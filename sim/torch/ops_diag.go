package torch

// torch.diag and torch.diag_embed (PyTorch 2.11: diag is composite, a 1-D
// input goes to diag_embed, a 2-D one to diagonal_copy).

// Diag is torch.diag(t, offset).
func (rt *Runtime) Diag(t *Tensor, offset int64) (*Tensor, error) {
	switch len(t.shape) {
	case 1:
		return rt.DiagEmbed(t, offset, -2, -1)
	case 2:
		return rt.diagonalCopy(t, offset)
	}
	return nil, Errorf(RuntimeError, "diag(): Supports 1D or 2D tensors. Got %dD", len(t.shape))
}

// DiagEmbed is torch.diag_embed(t, offset, dim1, dim2): zeros of the new
// shape whose diagonal view receives a copy of t (one allocation).
// DiagEmbedBackward0's gradient is grad.diagonal(offset, dim1, dim2), a
// view.
func (rt *Runtime) DiagEmbed(t *Tensor, offset, dim1, dim2 int64) (*Tensor, error) {
	nd := len(t.shape) + 1
	a, err := wrapDim(dim1, nd)
	if err != nil {
		return nil, err
	}
	b, err := wrapDim(dim2, nd)
	if err != nil {
		return nil, err
	}
	if a == b {
		return nil, Errorf(RuntimeError, "diagonal dimensions cannot be identical %d, %d", dim1, dim2)
	}
	if len(t.shape) == 0 {
		return nil, Errorf(IndexError, "Dimension specified as -1 but tensor has no dimensions")
	}
	n := t.shape[len(t.shape)-1]
	if offset < 0 {
		n -= offset
	} else {
		n += offset
	}
	shape := cloneShape(t.shape[:len(t.shape)-1])
	lo, hi := min(a, b), max(a, b)
	shape = append(shape[:lo], append([]int64{n}, shape[lo:]...)...)
	shape = append(shape[:hi], append([]int64{n}, shape[hi:]...)...)
	out, err := rt.Factory("zeros", shape, t.dtype, t.device, false)
	if err != nil {
		return nil, err
	}
	if rt.exec != nil {
		_, ds, doff := diagonalGeometry(out.shape, out.strides, 0, offset, a, b)
		rt.zeroAndCopyInto(out, ds, doff, t)
	}
	node := rt.record("DiagEmbedBackward0", t)
	node.finish(func(_ *Node, g []*Tensor) ([]*Tensor, error) {
		r, err := rt.Diagonal(g[0], offset, int64(a), int64(b))
		return []*Tensor{r}, err
	}, out)
	return out, nil
}

// diagonalCopy is diagonal_copy(t, offset) of a matrix: the diagonal as a
// new tensor; DiagonalBackward0_copy is diagonal_backward (zeros of t's
// shape with the gradient copied into the diagonal: one allocation).
func (rt *Runtime) diagonalCopy(t *Tensor, offset int64) (*Tensor, error) {
	shape, _, _ := diagonalGeometry(t.shape, t.strides, t.offset, offset, 0, 1)
	out, err := rt.empty("diagonal_copy", shape, nil, t.dtype, t.device)
	if err != nil {
		return nil, err
	}
	in, dt, dev := cloneShape(t.shape), t.dtype, t.device
	n := rt.record("DiagonalBackward0_copy", t)
	n.finish(func(_ *Node, g []*Tensor) ([]*Tensor, error) {
		r, err := rt.empty("diagonal_backward", in, nil, dt, dev)
		if err == nil && rt.exec != nil {
			_, ds, doff := diagonalGeometry(in, contiguousStrides(in), 0, offset, 0, 1)
			rt.zeroAndCopyInto(r, ds, doff, g[0])
		}
		return []*Tensor{r}, err
	}, out)
	return out, nil
}
