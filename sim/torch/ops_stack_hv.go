package torch

// Hstack is torch.hstack: atleast_1d (a 0-dim tensor becomes a [1] view)
// then cat along dim 0 for 1-D tensors, else dim 1 (CatBackward0).
func (rt *Runtime) Hstack(ts []*Tensor) (*Tensor, error) {
	if len(ts) == 0 {
		return nil, Errorf(RuntimeError, "hstack expects a non-empty TensorList")
	}
	rs, err := rt.atLeast(ts, 1)
	if err != nil {
		return nil, err
	}
	defer releaseAll(rs)
	if len(rs[0].shape) == 1 {
		return rt.Cat(rs, 0)
	}
	return rt.Cat(rs, 1)
}

// Vstack is torch.vstack/row_stack: atleast_2d (0-dim: a [1, 1] view, 1-D:
// unsqueeze(0)) then cat along dim 0.
func (rt *Runtime) Vstack(ts []*Tensor) (*Tensor, error) {
	if len(ts) == 0 {
		return nil, Errorf(RuntimeError, "vstack expects a non-empty TensorList")
	}
	rs, err := rt.atLeast(ts, 2)
	if err != nil {
		return nil, err
	}
	defer releaseAll(rs)
	return rt.Cat(rs, 0)
}

// atLeast is atleast_1d/atleast_2d over a list: views where a tensor has
// fewer dims, the tensor itself otherwise.
func (rt *Runtime) atLeast(ts []*Tensor, nd int) ([]*Tensor, error) {
	out := make([]*Tensor, 0, len(ts))
	for _, t := range ts {
		var r *Tensor
		var err error
		switch {
		case len(t.shape) == 0 && nd == 1:
			r, err = rt.Reshape(t, []int64{1})
		case len(t.shape) == 0:
			r, err = rt.Reshape(t, []int64{1, 1})
		case len(t.shape) == 1 && nd == 2:
			r, err = rt.Unsqueeze(t, 0)
		default:
			r = t.Retain()
		}
		if err != nil {
			releaseAll(out)
			return nil, err
		}
		out = append(out, r)
	}
	return out, nil
}
