package torch

// Tile is torch.tile/Tensor.tile(reps): reps padded with leading 1s to
// self's dims, then self.repeat(reps) (tileRepeat).
func (rt *Runtime) Tile(t *Tensor, reps []int64) (*Tensor, error) {
	if d := len(t.shape) - len(reps); d > 0 {
		padded := make([]int64, d, len(t.shape))
		for i := range padded {
			padded[i] = 1
		}
		reps = append(padded, reps...)
	}
	return rt.tileRepeat(t, reps)
}

// tileRepeat is Tensor.repeat(repeats) as torch.tile calls it (H1's
// session-13 Tensor.repeat is the same op: merge them): ATen allocates the [size·repeat] result and copies self
// expanded into an unfolded alias of it, one allocation. RepeatBackward0
// is repeat_backward: leading new dims summed away one by one, then the
// gradient reshaped to (repeat, size) pairs where repeat != 1 and summed
// over the repeat dims at once; a zero repeat gives zeros.
func (rt *Runtime) tileRepeat(t *Tensor, repeats []int64) (*Tensor, error) {
	if len(repeats) < len(t.shape) {
		return nil, Errorf(RuntimeError, "Number of dimensions of repeat dims can not be smaller than number of dimensions of tensor")
	}
	nNew := len(repeats) - len(t.shape)
	padded := make([]int64, len(repeats))
	for i := range padded {
		padded[i] = 1
	}
	copy(padded[nNew:], t.shape)
	target := make([]int64, len(repeats))
	for i, r := range repeats {
		target[i] = padded[i] * r
	}
	out, err := rt.empty("repeat", target, nil, t.dtype, t.device)
	if err != nil {
		return nil, err
	}
	in := cloneShape(t.shape)
	reps := append([]int64(nil), repeats...)
	n := rt.record("RepeatBackward0", t)
	n.finish(func(n *Node, g []*Tensor) ([]*Tensor, error) {
		r, err := rt.tileRepeatBackward(g[0], reps, in)
		return []*Tensor{r}, err
	}, out)
	return out, nil
}

// tileRepeatBackward is autograd's repeat_backward.
func (rt *Runtime) tileRepeatBackward(g *Tensor, repeats, in []int64) (*Tensor, error) {
	for _, r := range repeats {
		if r == 0 {
			return rt.Factory("zeros", in, g.dtype, g.device, false)
		}
	}
	grad := g.Retain()
	nUnsq := len(g.shape) - len(in)
	for i := 0; i < nUnsq; i++ {
		s, err := rt.Sum(grad, []int64{0}, false, nil)
		grad.Release()
		if err != nil {
			return nil, err
		}
		grad = s
	}
	var size, sumDims []int64
	for d := range in {
		if r := repeats[d+nUnsq]; r != 1 {
			size = append(size, r)
			sumDims = append(sumDims, int64(len(size)-1))
		}
		size = append(size, in[d])
	}
	if len(sumDims) == 0 {
		return grad, nil
	}
	defer grad.Release()
	rs, err := rt.Reshape(grad, size)
	if err != nil {
		return nil, err
	}
	defer rs.Release()
	return rt.Sum(rs, sumDims, false, nil)
}
