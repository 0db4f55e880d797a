package torch

// Composite shape ops (CompositeImplicitAutograd in native_functions.yaml,
// TensorShape.cpp): tensor_split, column_stack, dstack/atleast_3d,
// meshgrid, cartesian_prod and sum_to_size are written from the ops ATen
// composes them of, so their memory and grad_fn names follow.

// TensorSplitSections is torch.tensor_split(t, sections, dim): sections
// slices (SliceBackward0 views), the first size % sections one longer.
func (rt *Runtime) TensorSplitSections(t *Tensor, sections, dim int64) ([]*Tensor, error) {
	if len(t.shape) == 0 {
		return nil, Errorf(RuntimeError, "tensor_split expected at least a 1-dimensional tensor, but got a tensor with 0 dims")
	}
	d, err := wrapDim(dim, len(t.shape))
	if err != nil {
		return nil, err
	}
	if sections <= 0 {
		return nil, Errorf(RuntimeError, "number of sections must be larger than 0, got %d", sections)
	}
	if sections > 1<<20 {
		return nil, Errorf(NotImplementedError, "tensor_split into %d sections is not simulated (over 2^20 tensors)", sections)
	}
	size := t.shape[d]
	minSize, extra := size/sections, size%sections
	bounds := make([]int64, 0, sections-1)
	start := int64(0)
	for i := int64(0); i < sections-1; i++ {
		s := minSize
		if i < extra {
			s++
		}
		start += s
		bounds = append(bounds, start)
	}
	return rt.TensorSplitIndices(t, bounds, int64(d))
}

// TensorSplitIndices is torch.tensor_split(t, indices, dim): the slices
// [0, i0), [i0, i1), ..., [ik, size) (an end before its start is empty).
func (rt *Runtime) TensorSplitIndices(t *Tensor, indices []int64, dim int64) ([]*Tensor, error) {
	if len(t.shape) == 0 {
		return nil, Errorf(RuntimeError, "tensor_split expected at least a 1-dimensional tensor, but got a tensor with 0 dims")
	}
	d, err := wrapDim(dim, len(t.shape))
	if err != nil {
		return nil, err
	}
	out := make([]*Tensor, 0, len(indices)+1)
	start := int64(0)
	for i := 0; i <= len(indices); i++ {
		end, hasEnd := int64(0), false
		if i < len(indices) {
			end, hasEnd = indices[i], true
		}
		s, err := rt.sliceClamped(t, d, start, end, hasEnd)
		if err != nil {
			releaseAll(out)
			return nil, err
		}
		out = append(out, s)
		start = end
	}
	return out, nil
}

// sliceClamped is at::slice(t, d, start, end): negative bounds wrap, an
// end before the start gives an empty slice at the start.
func (rt *Runtime) sliceClamped(t *Tensor, d int, start, end int64, hasEnd bool) (*Tensor, error) {
	size := t.shape[d]
	wrap := func(v int64) int64 {
		if v < 0 {
			v += size
		}
		return min(max(v, 0), size)
	}
	s := wrap(start)
	e := size
	if hasEnd {
		e = max(wrap(end), s)
	}
	return rt.Slice(t, int64(d), s, e, 1, true, true)
}

// ColumnStack is torch.column_stack: 0-d and 1-d tensors reshaped to
// (numel, 1), then hstack.
func (rt *Runtime) ColumnStack(ts []*Tensor) (*Tensor, error) {
	if len(ts) == 0 {
		return nil, Errorf(RuntimeError, "column_stack expects a non-empty TensorList")
	}
	rs := make([]*Tensor, 0, len(ts))
	defer func() { releaseAll(rs) }()
	for _, t := range ts {
		if len(t.shape) > 1 {
			rs = append(rs, t.Retain())
			continue
		}
		r, err := rt.Reshape(t, []int64{t.Numel(), 1})
		if err != nil {
			return nil, err
		}
		rs = append(rs, r)
	}
	return rt.Hstack(rs)
}

// Atleast3d is torch.atleast_3d of one tensor: 0-d reshape(1, 1, 1), 1-d
// unsqueeze(0).unsqueeze(-1), 2-d unsqueeze(-1), else t itself.
func (rt *Runtime) Atleast3d(t *Tensor) (*Tensor, error) {
	switch len(t.shape) {
	case 0:
		return rt.Reshape(t, []int64{1, 1, 1})
	case 1:
		u, err := rt.Unsqueeze(t, 0)
		if err != nil {
			return nil, err
		}
		defer u.Release()
		return rt.Unsqueeze(u, -1)
	case 2:
		return rt.Unsqueeze(t, -1)
	}
	return t.Retain(), nil
}

// Dstack is torch.dstack: atleast_3d of each, then cat along dim 2.
func (rt *Runtime) Dstack(ts []*Tensor) (*Tensor, error) {
	if len(ts) == 0 {
		return nil, Errorf(RuntimeError, "dstack expects a non-empty TensorList")
	}
	rs := make([]*Tensor, 0, len(ts))
	defer func() { releaseAll(rs) }()
	for _, t := range ts {
		r, err := rt.Atleast3d(t)
		if err != nil {
			return nil, err
		}
		rs = append(rs, r)
	}
	return rt.Cat(rs, 2)
}

// Meshgrid is torch.meshgrid(*tensors, indexing): each 0-d/1-d input
// viewed with -1 at its position and expanded to the grid (ViewBackward0,
// ExpandBackward0). "xy" swaps the first two inputs and outputs.
func (rt *Runtime) Meshgrid(ts []*Tensor, indexing string) ([]*Tensor, error) {
	if len(ts) == 0 {
		return nil, Errorf(RuntimeError, "meshgrid expects a non-empty TensorList")
	}
	for i := 0; i+1 < len(ts); i++ {
		if ts[i].dtype != ts[i+1].dtype {
			return nil, Errorf(RuntimeError, "meshgrid expects all tensors to have the same dtype")
		}
		if ts[i].device != ts[i+1].device {
			return nil, Errorf(RuntimeError, "meshgrid expects all tensors to have the same device")
		}
	}
	in := append([]*Tensor(nil), ts...)
	swap := false
	if indexing == "xy" {
		swap = len(in) >= 2
		if swap {
			in[0], in[1] = in[1], in[0]
		}
	} else if indexing != "ij" {
		return nil, Errorf(RuntimeError, "torch.meshgrid: indexing must be one of \"xy\" or \"ij\", but received: %s", indexing)
	}
	shape := make([]int64, len(in))
	for i, t := range in {
		if len(t.shape) > 1 {
			return nil, Errorf(RuntimeError, "torch.meshgrid: Expected 0D or 1D tensor in the tensor list but got: a %dD tensor (values not simulated) %s", len(t.shape), shapeList(t.shape))
		}
		shape[i] = t.Numel()
	}
	grids := make([]*Tensor, 0, len(in))
	for i, t := range in {
		vs := make([]int64, len(in))
		for j := range vs {
			vs[j] = 1
		}
		vs[i] = -1
		v, err := rt.View(t, vs)
		if err != nil {
			releaseAll(grids)
			return nil, err
		}
		e, err := rt.Expand(v, shape)
		v.Release()
		if err != nil {
			releaseAll(grids)
			return nil, err
		}
		grids = append(grids, e)
	}
	if swap {
		grids[0], grids[1] = grids[1], grids[0]
	}
	return grids, nil
}

// CartesianProd is torch.cartesian_prod: one tensor is returned as it is;
// else meshgrid(ij), flatten (a copy of each expanded grid) and stack(1).
func (rt *Runtime) CartesianProd(ts []*Tensor) (*Tensor, error) {
	for _, t := range ts {
		if len(t.shape) != 1 {
			return nil, Errorf(RuntimeError, "Expect a 1D vector, but got shape %s", shapeList(t.shape))
		}
	}
	if len(ts) == 1 {
		return ts[0].Retain(), nil
	}
	grids, err := rt.Meshgrid(ts, "ij")
	if err != nil {
		return nil, err
	}
	defer func() { releaseAll(grids) }()
	for i, g := range grids {
		f, err := rt.Flatten(g, 0, -1)
		if err != nil {
			return nil, err
		}
		g.Release()
		grids[i] = f
	}
	return rt.Stack(grids, 1)
}

// SumToSize is Tensor.sum_to_size(size): at::sum_to (t itself when the
// sizes agree, else sum over the broadcast dims, SumBackward1, and a view
// dropping leading dims).
func (rt *Runtime) SumToSize(t *Tensor, size []int64) (*Tensor, error) {
	if !expandableTo(size, t.shape) {
		return nil, Errorf(RuntimeError, "size {%s} is not expandable to size {%s}.", shapeList(size), shapeList(t.shape))
	}
	if sameShape(size, t.shape) {
		return t.Retain(), nil
	}
	return rt.sumTo(t, size)
}

// expandableTo is at::is_expandable_to(shape, desired).
func expandableTo(shape, desired []int64) bool {
	if len(shape) > len(desired) {
		return false
	}
	for i := range shape {
		s := shape[len(shape)-1-i]
		d := desired[len(desired)-1-i]
		if s != d && s != 1 {
			return false
		}
	}
	return true
}

// joinInts writes ints as c10's ArrayRef printing without brackets ("1, 2").
func joinInts(v []int64) string {
	s := shapeList(v)
	return s[1 : len(s)-1]
}

// Atleast is torch.atleast_1d/2d/3d (nd) of one tensor.
func (rt *Runtime) Atleast(t *Tensor, nd int) (*Tensor, error) {
	if nd == 3 {
		return rt.Atleast3d(t)
	}
	rs, err := rt.atLeast([]*Tensor{t}, nd)
	if err != nil {
		return nil, err
	}
	return rs[0], nil
}

// CppName is the dtype as c10 prints it in error messages ("Float").
func (d DType) CppName() string { return d.cppName() }

// SqueezeInplace is Tensor.squeeze_() (dims nil, SqueezeBackward3),
// squeeze_(dim) (SqueezeBackward4) or squeeze_(dims) (list,
// SqueezeBackward5): t's sizes change in place, nothing is allocated; the
// backward unsqueezes the gradient back (views).
func (rt *Runtime) SqueezeInplace(t *Tensor, dims []int64, list bool) (*Tensor, error) {
	node := "SqueezeBackward3"
	switch {
	case list:
		node = "SqueezeBackward5"
	case dims != nil:
		node = "SqueezeBackward4"
	}
	drop := make([]bool, len(t.shape))
	for i, s := range t.shape {
		drop[i] = dims == nil && s == 1
	}
	for _, d := range dims {
		w, err := wrapDim(d, len(t.shape))
		if err != nil {
			return nil, err
		}
		if len(t.shape) > 0 && t.shape[w] == 1 {
			drop[w] = true
		}
	}
	var shape, strides []int64
	for i := range t.shape {
		if !drop[i] {
			shape = append(shape, t.shape[i])
			strides = append(strides, t.strides[i])
		}
	}
	return rt.reshapeInplace(t, shape, strides, node, func(g *Tensor) (*Tensor, error) {
		r := g.Retain()
		for i, dropped := range drop {
			if !dropped {
				continue
			}
			u, err := rt.Unsqueeze(r, int64(i))
			r.Release()
			if err != nil {
				return nil, err
			}
			r = u
		}
		return r, nil
	})
}

// UnsqueezeInplace is Tensor.unsqueeze_(dim) (UnsqueezeBackward1).
func (rt *Runtime) UnsqueezeInplace(t *Tensor, dim int64) (*Tensor, error) {
	d, err := wrapDim(dim, len(t.shape)+1)
	if err != nil {
		return nil, err
	}
	st := int64(1)
	if d < len(t.shape) {
		st = t.shape[d] * t.strides[d]
	}
	shape := append(append(cloneShape(t.shape[:d]), 1), t.shape[d:]...)
	strides := append(append(cloneShape(t.strides[:d]), st), t.strides[d:]...)
	return rt.reshapeInplace(t, shape, strides, "UnsqueezeBackward1", func(g *Tensor) (*Tensor, error) {
		return rt.Squeeze(g, []int64{int64(d)})
	})
}

// reshapeInplace gives t new sizes and strides in place (squeeze_,
// unsqueeze_) and records node with backward bw. In-place view ops on a
// view that requires grad are not simulated.
func (rt *Runtime) reshapeInplace(t *Tensor, shape, strides []int64, node string, bw func(g *Tensor) (*Tensor, error)) (*Tensor, error) {
	if t.isView && rt.needsGrad(t) {
		return nil, Errorf(NotImplementedError, "%s on a view that requires grad is not simulated", node)
	}
	if err := rt.inplace(t); err != nil {
		return nil, err
	}
	n := rt.record(node, t)
	t.shape, t.strides = shape, strides
	n.rebase(func(n *Node, g []*Tensor) ([]*Tensor, error) {
		r, err := bw(g[0])
		return []*Tensor{r}, err
	}, t)
	return t.Retain(), nil
}
