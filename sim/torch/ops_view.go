package torch

// makeView creates a view of t (shared storage and version counter). A view
// of a floating tensor keeps its base alive, as DifferentiableViewMeta does.
func (rt *Runtime) makeView(t *Tensor, shape, strides []int64, offset int64, node string, bw backwardFunc) *Tensor {
	v := rt.viewOf(t, shape, strides, offset, node == "UnsafeViewBackward0")
	if n := rt.record(node, t); n != nil {
		n.finish(bw, v)
	}
	return v
}

// viewOf is a view of t's storage without its autograd node (makeView, and
// the multi-output views of split/unbind, which share one node).
func (rt *Runtime) viewOf(t *Tensor, shape, strides []int64, offset int64, unsafe bool) *Tensor {
	t.storage.retain()
	v := rt.newTensorOn(t.storage, shape, strides, offset, t.dtype)
	v.version = t.version
	v.name = t.name
	// _unsafe_view (matmul's fold back) is no view op for autograd: its
	// result has no base, so an in-place op on it rebases it directly
	v.isView = !unsafe
	if t.dtype.Differentiable() && !t.inference && !unsafe {
		b := t
		if t.base != nil {
			b = t.base
		}
		v.base = b.Retain()
	}
	return v
}

// View is Tensor.view(shape).
func (rt *Runtime) View(t *Tensor, shape []int64) (*Tensor, error) {
	s, err := inferSize(shape, t.Numel())
	if err != nil {
		return nil, err
	}
	st := viewStrides(t.shape, t.strides, s)
	if st == nil {
		return nil, Errorf(RuntimeError, "view size is not compatible with input tensor's size and stride (at least one dimension spans across two contiguous subspaces). Use .reshape(...) instead.")
	}
	in := cloneShape(t.shape)
	return rt.makeView(t, s, st, t.offset, "ViewBackward0", func(n *Node, g []*Tensor) ([]*Tensor, error) {
		r, err := rt.Reshape(g[0], in)
		return []*Tensor{r}, err
	}), nil
}

// Reshape is Tensor.reshape: a view when the strides allow, else a
// contiguous copy viewed (_unsafe_view(clone)).
func (rt *Runtime) Reshape(t *Tensor, shape []int64) (*Tensor, error) {
	s, err := inferSize(shape, t.Numel())
	if err != nil {
		return nil, err
	}
	if st := viewStrides(t.shape, t.strides, s); st != nil {
		if t.IsContiguous() {
			return rt.View(t, s)
		}
		// a viewable non-contiguous tensor: _reshape_alias
		// (ReshapeAliasBackward0, measured in q18)
		in := cloneShape(t.shape)
		return rt.makeView(t, s, st, t.offset, "ReshapeAliasBackward0", func(n *Node, g []*Tensor) ([]*Tensor, error) {
			r, err := rt.Reshape(g[0], in)
			return []*Tensor{r}, err
		}), nil
	}
	c, err := rt.empty("reshape", t.shape, nil, t.dtype, t.device)
	if err != nil {
		return nil, err
	}
	if rt.exec != nil {
		rt.compute1(ExecCopy, c, []*Tensor{t})
	}
	if n := rt.record("CloneBackward0", t); n != nil {
		n.finish(passThrough, c)
	}
	in := cloneShape(c.shape)
	// _unsafe_view: the result is not a view (it owns the fresh storage)
	c.shape, c.strides = s, contiguousStrides(s)
	if c.gradFn != nil {
		n := rt.newNode("UnsafeViewBackward0", nil)
		n.next[0] = Edge{c.gradFn.Retain(), 0}
		n.inputs = []inputMeta{{cloneShape(s), c.dtype, c.device}}
		n.fn = func(n *Node, g []*Tensor) ([]*Tensor, error) {
			r, err := rt.Reshape(g[0], in)
			return []*Tensor{r}, err
		}
		c.gradFn.release()
		c.gradFn = n.Retain()
		c.outputNr = 0
	}
	return c, nil
}

// Flatten is torch.flatten(t, start, end).
func (rt *Runtime) Flatten(t *Tensor, start, end int64) (*Tensor, error) {
	if len(t.shape) == 0 {
		return rt.Reshape(t, []int64{1})
	}
	s, err := wrapDim(start, len(t.shape))
	if err != nil {
		return nil, err
	}
	e, err := wrapDim(end, len(t.shape))
	if err != nil {
		return nil, err
	}
	if s > e {
		return nil, Errorf(RuntimeError, "flatten() has invalid args: start_dim cannot come after end_dim")
	}
	if s == e {
		return t.Retain(), nil
	}
	shape := append([]int64(nil), t.shape[:s]...)
	shape = append(shape, numel(t.shape[s:e+1]))
	shape = append(shape, t.shape[e+1:]...)
	return rt.Reshape(t, shape)
}

// Transpose is Tensor.transpose(d0, d1).
func (rt *Runtime) Transpose(t *Tensor, d0, d1 int64) (*Tensor, error) {
	a, err := wrapDim(d0, len(t.shape))
	if err != nil {
		return nil, err
	}
	b, err := wrapDim(d1, len(t.shape))
	if err != nil {
		return nil, err
	}
	shape, strides := cloneShape(t.shape), cloneShape(t.strides)
	if len(shape) > 0 {
		shape[a], shape[b] = shape[b], shape[a]
		strides[a], strides[b] = strides[b], strides[a]
	}
	return rt.makeView(t, shape, strides, t.offset, "TransposeBackward0", func(n *Node, g []*Tensor) ([]*Tensor, error) {
		r, err := rt.Transpose(g[0], int64(a), int64(b))
		return []*Tensor{r}, err
	}), nil
}

// T is Tensor.t() (TBackward0).
func (rt *Runtime) T(t *Tensor) (*Tensor, error) {
	if len(t.shape) > 2 {
		return nil, Errorf(RuntimeError, "t() expects a tensor with <= 2 dimensions, but self is %dD", len(t.shape))
	}
	shape, strides := cloneShape(t.shape), cloneShape(t.strides)
	if len(shape) == 2 {
		shape[0], shape[1] = shape[1], shape[0]
		strides[0], strides[1] = strides[1], strides[0]
	}
	return rt.makeView(t, shape, strides, t.offset, "TBackward0", func(n *Node, g []*Tensor) ([]*Tensor, error) {
		r, err := rt.T(g[0])
		return []*Tensor{r}, err
	}), nil
}

// Permute is Tensor.permute(dims).
func (rt *Runtime) Permute(t *Tensor, dims []int64) (*Tensor, error) {
	if len(dims) != len(t.shape) {
		return nil, Errorf(RuntimeError, "permute(sparse_coo): number of dimensions in the tensor input does not match the length of the desired ordering of dimensions i.e. input.dim() = %d is not equal to len(dims) = %d", len(t.shape), len(dims))
	}
	perm := make([]int, len(dims))
	seen := make([]bool, len(dims))
	shape, strides := make([]int64, len(dims)), make([]int64, len(dims))
	for i, d := range dims {
		w, err := wrapDim(d, len(t.shape))
		if err != nil {
			return nil, err
		}
		if seen[w] {
			return nil, Errorf(RuntimeError, "permute(): duplicate dims are not allowed.")
		}
		seen[w] = true
		perm[i] = w
		shape[i], strides[i] = t.shape[w], t.strides[w]
	}
	inv := make([]int64, len(perm))
	for i, p := range perm {
		inv[p] = int64(i)
	}
	return rt.makeView(t, shape, strides, t.offset, "PermuteBackward0", func(n *Node, g []*Tensor) ([]*Tensor, error) {
		r, err := rt.Permute(g[0], inv)
		return []*Tensor{r}, err
	}), nil
}

// Unsqueeze is Tensor.unsqueeze(dim).
func (rt *Runtime) Unsqueeze(t *Tensor, dim int64) (*Tensor, error) {
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
	return rt.makeView(t, shape, strides, t.offset, "UnsqueezeBackward0", func(n *Node, g []*Tensor) ([]*Tensor, error) {
		r, err := rt.Squeeze(g[0], []int64{int64(d)})
		return []*Tensor{r}, err
	}), nil
}

// Squeeze is Tensor.squeeze() (nil dims: every size-1 dim,
// SqueezeBackward0) or Tensor.squeeze(dim) (SqueezeBackward1).
func (rt *Runtime) Squeeze(t *Tensor, dims []int64) (*Tensor, error) {
	if dims == nil {
		return rt.squeeze(t, nil, "SqueezeBackward0")
	}
	return rt.squeeze(t, dims, "SqueezeBackward1")
}

// SqueezeDims is Tensor.squeeze(dims) with a tuple of dims (squeeze.dims,
// SqueezeBackward2).
func (rt *Runtime) SqueezeDims(t *Tensor, dims []int64) (*Tensor, error) {
	return rt.squeeze(t, dims, "SqueezeBackward2")
}

// squeeze drops the size-1 dims among dims (nil: all); its backward is
// unsqueeze_to: the gradient unsqueezed at each dropped dim (views).
func (rt *Runtime) squeeze(t *Tensor, dims []int64, node string) (*Tensor, error) {
	drop := make([]bool, len(t.shape))
	if dims == nil {
		for i, s := range t.shape {
			drop[i] = s == 1
		}
	} else {
		for _, d := range dims {
			w, err := wrapDim(d, len(t.shape))
			if err != nil {
				return nil, err
			}
			if len(t.shape) > 0 && t.shape[w] == 1 {
				drop[w] = true
			}
		}
	}
	var shape, strides []int64
	for i := range t.shape {
		if !drop[i] {
			shape = append(shape, t.shape[i])
			strides = append(strides, t.strides[i])
		}
	}
	return rt.makeView(t, shape, strides, t.offset, node, func(n *Node, g []*Tensor) ([]*Tensor, error) {
		r := g[0].Retain()
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
		return []*Tensor{r}, nil
	}), nil
}

// Expand is Tensor.expand(sizes) (-1 keeps a size).
func (rt *Runtime) Expand(t *Tensor, sizes []int64) (*Tensor, error) {
	if len(sizes) < len(t.shape) {
		return nil, Errorf(RuntimeError, "expand(%s{%s}, size=%s): the number of sizes provided (%d) must be greater or equal to the number of dimensions in the tensor (%d)", t.typeString(), shapeList(t.shape), shapeList(sizes), len(sizes), len(t.shape))
	}
	if err := checkNumel(sizes); err != nil {
		return nil, err
	}
	off := len(sizes) - len(t.shape)
	shape, strides := make([]int64, len(sizes)), make([]int64, len(sizes))
	// inferExpandGeometry walks the dims from the last (its first error
	// names the last mismatching dim; q18)
	for i := len(sizes) - 1; i >= 0; i-- {
		s := sizes[i]
		if i < off {
			if s < 0 {
				return nil, Errorf(RuntimeError, "The expanded size of the tensor (%d) isn't allowed in a leading, non-existing dimension %d", s, i)
			}
			shape[i], strides[i] = s, 0
			continue
		}
		os, ost := t.shape[i-off], t.strides[i-off]
		switch {
		case s == -1:
			shape[i], strides[i] = os, ost
		case os == s:
			shape[i], strides[i] = s, ost
		case os == 1:
			shape[i], strides[i] = s, 0
		default:
			return nil, Errorf(RuntimeError, "The expanded size of the tensor (%d) must match the existing size (%d) at non-singleton dimension %d.  Target sizes: %s.  Tensor sizes: %s", s, os, i, shapeList(sizes), shapeList(t.shape))
		}
	}
	in := cloneShape(t.shape)
	return rt.makeView(t, shape, strides, t.offset, "ExpandBackward0", func(n *Node, g []*Tensor) ([]*Tensor, error) {
		r, err := rt.sumTo(g[0], in)
		return []*Tensor{r}, err
	}), nil
}

// Select is Tensor.select(dim, index) / t[i].
func (rt *Runtime) Select(t *Tensor, dim, index int64) (*Tensor, error) {
	if len(t.shape) == 0 {
		return nil, Errorf(IndexError, "select() cannot be applied to a 0-dim tensor.")
	}
	d, err := wrapDim(dim, len(t.shape))
	if err != nil {
		return nil, err
	}
	size := t.shape[d]
	if index < -size || index >= size {
		return nil, Errorf(IndexError, "index %d is out of bounds for dimension %d with size %d", index, d, size)
	}
	if index < 0 {
		index += size
	}
	shape := append(cloneShape(t.shape[:d]), t.shape[d+1:]...)
	strides := append(cloneShape(t.strides[:d]), t.strides[d+1:]...)
	in, dt, dev := cloneShape(t.shape), t.dtype, t.device
	return rt.makeView(t, shape, strides, t.offset+index*t.strides[d], "SelectBackward0", func(n *Node, g []*Tensor) ([]*Tensor, error) {
		r, err := rt.empty("select_backward", in, nil, dt, dev) // zeros(input_sizes).select(dim, index).copy_(grad)
		if err == nil && rt.exec != nil {
			cs := contiguousStrides(in)
			rt.zeroAndCopyInto(r, append(cloneShape(cs[:d]), cs[d+1:]...), index*cs[d], g[0])
		}
		return []*Tensor{r}, err
	}), nil
}

// Slice is t[start:end:step] along dim (normalised bounds).
func (rt *Runtime) Slice(t *Tensor, dim int64, start, end, step int64, hasStart, hasEnd bool) (*Tensor, error) {
	d, err := wrapDim(dim, len(t.shape))
	if err != nil {
		return nil, err
	}
	if step <= 0 {
		return nil, Errorf(ValueError, "step must be greater than zero")
	}
	size := t.shape[d]
	if !hasStart {
		start = 0
	}
	if !hasEnd {
		end = size
	}
	clamp := func(v int64) int64 {
		if v < 0 {
			v += size
		}
		if v < 0 {
			v = 0
		}
		if v > size {
			v = size
		}
		return v
	}
	start, end = clamp(start), clamp(end)
	length := int64(0)
	if end > start {
		length = (end - start + step - 1) / step
	}
	shape, strides := cloneShape(t.shape), cloneShape(t.strides)
	shape[d] = length
	strides[d] = t.strides[d] * step
	if start == 0 && end == size && step == 1 {
		// a full slice still makes a view (SliceBackward0) in PyTorch
	}
	in, dt, dev := cloneShape(t.shape), t.dtype, t.device
	return rt.makeView(t, shape, strides, t.offset+start*t.strides[d], "SliceBackward0", func(n *Node, g []*Tensor) ([]*Tensor, error) {
		r, err := rt.empty("slice_backward", in, nil, dt, dev)
		if err == nil && rt.exec != nil {
			cs := contiguousStrides(in)
			st := cloneShape(cs)
			st[d] *= step
			rt.zeroAndCopyInto(r, st, start*cs[d], g[0])
		}
		return []*Tensor{r}, err
	}), nil
}

// Alias is a view of the whole tensor (t[...], t[:] on a 0-d, AliasBackward0).
func (rt *Runtime) Alias(t *Tensor) *Tensor {
	return rt.makeView(t, cloneShape(t.shape), cloneShape(t.strides), t.offset, "AliasBackward0", passThrough)
}

// Chunk is torch.chunk(t, chunks, dim).
func (rt *Runtime) Chunk(t *Tensor, chunks int64, dim int64) ([]*Tensor, error) {
	d, err := wrapDim(dim, len(t.shape))
	if err != nil {
		return nil, err
	}
	if chunks <= 0 {
		return nil, Errorf(RuntimeError, "chunk expects `chunks` to be greater than 0, got: %d", chunks)
	}
	size := (t.shape[d] + chunks - 1) / chunks
	if size == 0 {
		size = 1
	}
	return rt.Split(t, size, int64(d))
}
