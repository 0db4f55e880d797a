package torch

// torch.flip (fliplr/flipud) and torch.roll (PyTorch 2.11, CUDA; q16
// measured on an H100). flip allocates empty_like(self) (self's layout
// when dense) and nothing else; FlipBackward0 flips the gradient.
// roll_cuda rolls one dim of a contiguous input (self.contiguous() first:
// a copy when needed) into a contiguous output; several dims roll one dim
// at a time (roll_common: each intermediate freed once the next exists);
// no dims rolls the flattened contiguous input. RollBackward0 rolls the
// gradient back (negated shifts, reversed dims).

// Flip is torch.flip(t, dims) (FlipBackward0).
func (rt *Runtime) Flip(t *Tensor, dims []int64) (*Tensor, error) {
	if err := flipDims(t, dims); err != nil {
		return nil, err
	}
	out, err := rt.flipRaw(t)
	if err != nil {
		return nil, err
	}
	n := rt.record("FlipBackward0", t)
	n.finish(func(n *Node, g []*Tensor) ([]*Tensor, error) {
		r, err := rt.flipRaw(g[0])
		return []*Tensor{r}, err
	}, out)
	return out, nil
}

// flipDims checks flip's dims: in range and none repeated.
func flipDims(t *Tensor, dims []int64) error {
	seen := map[int]bool{}
	for _, d := range dims {
		w, err := wrapDim(d, max(len(t.shape), 1))
		if err != nil {
			return err
		}
		if seen[w] {
			return Errorf(RuntimeError, "dim %d appears multiple times in the list of dims", w)
		}
		seen[w] = true
	}
	return nil
}

// flipRaw is flip's kernel without a node: empty_like(t) (preserve
// format).
func (rt *Runtime) flipRaw(t *Tensor) (*Tensor, error) {
	return rt.empty("flip", t.shape, stridesLike(t.shape, t.strides), t.dtype, t.device)
}

// Roll is torch.roll(t, shifts, dims) (RollBackward0).
func (rt *Runtime) Roll(t *Tensor, shifts, dims []int64) (*Tensor, error) {
	if len(shifts) == 0 {
		return nil, Errorf(RuntimeError, "`shifts` required")
	}
	if !(len(dims) == 0 && len(shifts) == 1) && len(shifts) != len(dims) {
		return nil, Errorf(RuntimeError, "shifts and dimensions must align. shifts: %d, dims:%d", len(shifts), len(dims))
	}
	for _, d := range dims {
		if _, err := wrapDim(d, max(len(t.shape), 1)); err != nil {
			return nil, err
		}
	}
	out, err := rt.rollRaw(t, len(dims))
	if err != nil {
		return nil, err
	}
	k := len(dims)
	n := rt.record("RollBackward0", t)
	n.finish(func(n *Node, g []*Tensor) ([]*Tensor, error) {
		r, err := rt.rollRaw(g[0], k)
		return []*Tensor{r}, err
	}, out)
	return out, nil
}

// rollRaw is roll's memory over ndims dims (0: the flattened tensor):
// each single-dim roll copies a non-contiguous input contiguous, allocates
// its contiguous output and frees the copy; each further dim's roll frees
// the previous output once its own exists.
func (rt *Runtime) rollRaw(t *Tensor, ndims int) (*Tensor, error) {
	cur := t.Retain()
	for range max(ndims, 1) {
		var cp *Tensor
		if !cur.IsContiguous() {
			c, err := rt.cloneContiguous(cur)
			if err != nil {
				cur.Release()
				return nil, err
			}
			cp = c
		}
		next, err := rt.empty("roll", cur.shape, nil, cur.dtype, cur.device)
		if cp != nil {
			cp.Release()
		}
		cur.Release()
		if err != nil {
			return nil, err
		}
		cur = next
	}
	return cur, nil
}
