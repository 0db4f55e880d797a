package torch

// Multi-output views: split, split_with_sizes (torch.split with a list,
// chunk) and unbind return views that share one autograd node, whose
// backward joins every output's gradient in one allocation (cat or stack),
// with zeros for outputs that got none. An in-place op on such a view is an
// error, as in PyTorch (CreationMeta::MULTI_OUTPUT_NODE).

// Split is torch.split(t, size, dim): views of size elements along dim
// (the last one shorter), SplitBackward0.
func (rt *Runtime) Split(t *Tensor, size int64, dim int64) ([]*Tensor, error) {
	d, err := wrapDim(dim, len(t.shape))
	if err != nil {
		return nil, err
	}
	if size <= 0 && !(size == 0 && t.shape[d] == 0) {
		return nil, Errorf(RuntimeError, "split_size can only be 0 if dimension size is 0, but got dimension size of %d", t.shape[d])
	}
	var sizes []int64
	for s := int64(0); s < t.shape[d]; s += size {
		sizes = append(sizes, min(size, t.shape[d]-s))
	}
	if len(sizes) == 0 {
		sizes = []int64{0}
	}
	return rt.splitViews(t, d, sizes, "SplitBackward0"), nil
}

// SplitSizes is torch.split(t, [sizes...], dim) (split_with_sizes,
// SplitWithSizesBackward0).
func (rt *Runtime) SplitSizes(t *Tensor, sizes []int64, dim int64) ([]*Tensor, error) {
	d, err := wrapDim(dim, len(t.shape))
	if err != nil {
		return nil, err
	}
	sum := int64(0)
	for _, s := range sizes {
		if s < 0 {
			return nil, Errorf(RuntimeError, "split_with_sizes expects split_sizes have only non-negative entries, but got split_sizes=%s", shapeList(sizes))
		}
		sum += s
	}
	if sum != t.shape[d] {
		return nil, Errorf(RuntimeError, "split_with_sizes expects split_sizes to sum exactly to %d (input tensor's size at dimension %d), but got split_sizes=%s", t.shape[d], d, shapeList(sizes))
	}
	return rt.splitViews(t, d, sizes, "SplitWithSizesBackward0"), nil
}

// splitViews makes the views of sizes along dim d and their shared node:
// split_with_sizes_backward fills missing gradients with zeros of their
// piece's shape, then one at::cat.
func (rt *Runtime) splitViews(t *Tensor, d int, sizes []int64, node string) []*Tensor {
	out := make([]*Tensor, len(sizes))
	off := int64(0)
	for i, s := range sizes {
		shape, strides := cloneShape(t.shape), cloneShape(t.strides)
		shape[d] = s
		out[i] = rt.viewOf(t, shape, strides, t.offset+off*t.strides[d], false)
		off += s
	}
	if n := rt.record(node, t); n != nil {
		in, dt, dev := cloneShape(t.shape), t.dtype, t.device
		n.finish(func(n *Node, g []*Tensor) ([]*Tensor, error) {
			parts := make([]*Tensor, len(g))
			var zeros []*Tensor
			defer func() { releaseAll(zeros) }()
			for i := range g {
				if g[i] != nil {
					parts[i] = g[i]
					continue
				}
				shape := cloneShape(in)
				shape[d] = sizes[i]
				z, err := rt.empty("zeros", shape, nil, dt, dev)
				if err != nil {
					return nil, err
				}
				rt.Init(z, ExecFill, 0)
				zeros = append(zeros, z)
				parts[i] = z
			}
			r, err := rt.Cat(parts, int64(d))
			return []*Tensor{r}, err
		}, out...)
		for _, v := range out {
			v.multiOutput = true
		}
	}
	return out
}

// Unbind is torch.unbind(t, dim): the selects along dim (UnbindBackward0:
// at::stack of the gradients, zeros({}) expanded for missing ones).
func (rt *Runtime) Unbind(t *Tensor, dim int64) ([]*Tensor, error) {
	if len(t.shape) == 0 {
		return nil, Errorf(IndexError, "Dimension specified as 0 but tensor has no dimensions")
	}
	d, err := wrapDim(dim, len(t.shape))
	if err != nil {
		return nil, err
	}
	shape := append(cloneShape(t.shape[:d]), t.shape[d+1:]...)
	strides := append(cloneShape(t.strides[:d]), t.strides[d+1:]...)
	out := make([]*Tensor, t.shape[d])
	for i := range out {
		out[i] = rt.viewOf(t, cloneShape(shape), cloneShape(strides), t.offset+int64(i)*t.strides[d], false)
	}
	if n := rt.record("UnbindBackward0", t); n != nil {
		dt, dev := t.dtype, t.device
		n.finish(func(n *Node, g []*Tensor) ([]*Tensor, error) {
			parts := make([]*Tensor, len(g))
			var tmps []*Tensor
			defer func() { releaseAll(tmps) }()
			for i := range g {
				if g[i] != nil {
					parts[i] = g[i]
					continue
				}
				z, err := rt.empty("zeros", nil, nil, dt, dev)
				if err != nil {
					return nil, err
				}
				rt.Init(z, ExecFill, 0)
				tmps = append(tmps, z)
				e, err := rt.Expand(z, shape)
				if err != nil {
					return nil, err
				}
				tmps = append(tmps, e)
				parts[i] = e
			}
			r, err := rt.Stack(parts, int64(d))
			return []*Tensor{r}, err
		}, out...)
		for _, v := range out {
			v.multiOutput = true
		}
	}
	return out, nil
}
