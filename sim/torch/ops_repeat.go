package torch

// Tensor.repeat and torch.repeat_interleave with an integer count
// (PyTorch 2.11; q16 measured on an H100). repeat allocates its
// contiguous result only; RepeatBackward0 (repeat_backward) sums the
// gradient over the leading new dims one at a time, then views it as
// [repeat, size] pairs and sums the repeat dims at once (zeros like self
// when a count is 0). repeat_interleave(int) is composite: flatten (no
// dim), unsqueeze(dim+1), expand, clone(contiguous), flatten(dim, dim+1)
// — its nodes are those ops' (ViewBackward0 on the result). Tensor counts
// give a size that depends on their values: not simulated.

// Repeat is Tensor.repeat(*repeats) (RepeatBackward0).
func (rt *Runtime) Repeat(t *Tensor, repeats []int64) (*Tensor, error) {
	if len(repeats) < len(t.shape) {
		return nil, Errorf(RuntimeError, "Number of dimensions of repeat dims can not be smaller than number of dimensions of tensor")
	}
	lead := len(repeats) - len(t.shape)
	target := make([]int64, len(repeats))
	for i, r := range repeats {
		size := int64(1)
		if i >= lead {
			size = t.shape[i-lead]
		}
		target[i] = size * r
	}
	out, err := rt.empty("repeat", target, nil, t.dtype, t.device)
	if err != nil {
		return nil, err
	}
	in, reps := cloneShape(t.shape), cloneShape(repeats)
	n := rt.record("RepeatBackward0", t)
	n.finish(func(n *Node, g []*Tensor) ([]*Tensor, error) {
		r, err := rt.repeatBackward(g[0], reps, in)
		return []*Tensor{r}, err
	}, out)
	return out, nil
}

// repeatBackward is repeat_backward(grad, repeats, input_shape).
func (rt *Runtime) repeatBackward(g *Tensor, repeats, in []int64) (*Tensor, error) {
	for _, r := range repeats {
		if r == 0 {
			return rt.empty("repeat_backward", in, nil, g.dtype, g.device)
		}
	}
	cur := g.Retain()
	for range len(repeats) - len(in) {
		s, err := rt.Sum(cur, []int64{0}, false, nil)
		cur.Release()
		if err != nil {
			return nil, err
		}
		cur = s
	}
	lead := len(repeats) - len(in)
	var size, sum []int64
	for i, s := range in {
		if r := repeats[i+lead]; r != 1 {
			size = append(size, r)
			sum = append(sum, int64(len(size)-1))
		}
		size = append(size, s)
	}
	if len(sum) == 0 {
		return cur, nil
	}
	v, err := rt.Reshape(cur, size)
	cur.Release()
	if err != nil {
		return nil, err
	}
	defer v.Release()
	return rt.Sum(v, sum, false, nil)
}

// RepeatInterleave is torch.repeat_interleave(t, repeats, dim,
// output_size) with an integer count (dim nil: over the flattened input).
func (rt *Runtime) RepeatInterleave(t *Tensor, repeats int64, dim, outputSize *int64) (*Tensor, error) {
	d := int64(0)
	if dim != nil {
		d = *dim
	}
	w, err := wrapDim(d, max(len(t.shape), 1))
	if err != nil {
		return nil, err
	}
	if repeats < 0 {
		return nil, Errorf(RuntimeError, "Repeats must be non-negative")
	}
	input := t.Retain()
	if dim == nil {
		f, err := rt.Flatten(t, 0, -1)
		input.Release()
		if err != nil {
			return nil, err
		}
		input = f
	}
	defer input.Release()
	u, err := rt.Unsqueeze(input, int64(w+1))
	if err != nil {
		return nil, err
	}
	defer u.Release()
	if outputSize != nil && *outputSize != repeats*u.shape[w] {
		return nil, Errorf(RuntimeError, "repeat_interleave: Invalid output_size, expected %d but got %d", repeats*u.shape[w], *outputSize)
	}
	shape := cloneShape(u.shape)
	shape[w+1] = repeats
	e, err := rt.Expand(u, shape)
	if err != nil {
		return nil, err
	}
	defer e.Release()
	c, err := rt.CloneFormat(e, ContiguousFormat)
	if err != nil {
		return nil, err
	}
	defer c.Release()
	return rt.Flatten(c, int64(w), int64(w+1))
}
