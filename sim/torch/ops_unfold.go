package torch

// UnfoldView is Tensor.unfold(dim, size, step): a view with a new last dim of
// length size (stride: dim's), dim shrunk to (n - size) / step + 1 windows
// (stride × step). UnfoldBackward0's unfold_backward allocates zeros of the
// input's shape and accumulates the windows into it.
func (rt *Runtime) UnfoldView(t *Tensor, dim, size, step int64) (*Tensor, error) {
	nd := len(t.shape)
	d, err := wrapDim(dim, max(nd, 1))
	if err != nil {
		return nil, err
	}
	maxSize := int64(1)
	if nd > 0 {
		maxSize = t.shape[d]
	}
	if size > maxSize {
		return nil, Errorf(RuntimeError, "maximum size for tensor at dimension %d is %d but size is %d", d, maxSize, size)
	}
	if step <= 0 {
		return nil, Errorf(RuntimeError, "step is %d but must be > 0", step)
	}
	shape, strides := cloneShape(t.shape), cloneShape(t.strides)
	last := int64(1)
	if nd > 0 {
		last = strides[d]
	}
	if d < nd {
		shape[d] = (shape[d]-size)/step + 1
		strides[d] *= step
	}
	shape = append(shape, size)
	strides = append(strides, last)
	in, dev := cloneShape(t.shape), t.device
	return rt.makeView(t, shape, strides, t.offset, "UnfoldBackward0", func(n *Node, g []*Tensor) ([]*Tensor, error) {
		r, err := rt.unfoldBackward(g[0], in, d, dev, size, step)
		return []*Tensor{r}, err
	}), nil
}

// unfoldBackward is unfold_backward: zeros(input_sizes); with step >= size
// the windows do not overlap and are copied into a view of it, else
// unfold_backward_stub adds them up in one kernel, which takes an int64
// arange over the input's dim d.
func (rt *Runtime) unfoldBackward(g *Tensor, in []int64, d int, dev Device, size, step int64) (*Tensor, error) {
	r, err := rt.empty("unfold_backward", in, nil, g.dtype, dev)
	if err != nil {
		return nil, err
	}
	rt.notComputed(r)
	if step < size && len(in) > 0 {
		// the kernel's int64 arange over the input's dim (measured, q21)
		a, err := rt.empty("arange", []int64{in[d]}, nil, Int64, dev)
		if err != nil {
			r.Release()
			return nil, err
		}
		a.Release()
	}
	return r, nil
}
