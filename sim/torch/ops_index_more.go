package torch

// index_copy(_), index_fill(_) and take_along_dim (TensorAdvancedIndexing.cpp,
// derivatives.yaml). The out-of-place forms allocate their output only:
// index_copy is a structured kernel (a contiguous self-shaped output holding
// a copy of self), index_fill is clone(preserve) + index_fill_; the CUDA
// kernels restride self and index for TensorIterator without temporaries.

// IndexCopy is index_copy/index_copy_(dim, index, source) (IndexCopyBackward0
// saving the index): self's gradient is grad.index_fill(dim, index, 0) (a
// copy of grad), source's grad.index_select(dim, index) (expanded as source).
func (rt *Runtime) IndexCopy(x *Tensor, dim int64, idx, src *Tensor, inplace bool) (*Tensor, error) {
	d, err := wrapDim(dim, max(len(x.shape), 1))
	if err != nil {
		return nil, err
	}
	if err := checkIndexCopy(x, d, idx, src); err != nil {
		return nil, err
	}
	var out *Tensor
	if inplace {
		if err := rt.inplace(x); err != nil {
			return nil, err
		}
		out = x.Retain()
	} else {
		if out, err = rt.empty("index_copy", x.shape, nil, x.dtype, x.device); err != nil {
			return nil, err
		}
	}
	if rt.exec != nil {
		rt.markNotComputed(out)
	}
	n := rt.record("IndexCopyBackward0", x, src)
	if n != nil {
		n.save(idx, false)
	}
	nidx := idx.Numel()
	fn := func(n *Node, g []*Tensor) ([]*Tensor, error) {
		res := make(gradSlot, 2)
		if n.needsInput(0) {
			r, err := rt.emptyLike("index_fill", g[0], g[0].dtype)
			if err != nil {
				return res.fail(err)
			}
			rt.notComputed(r)
			res[0] = r
		}
		if n.needsInput(1) {
			r, err := rt.indexSelectRaw(g[0], d, nidx)
			if err != nil {
				return res.fail(err)
			}
			res[1] = r
		}
		return res, nil
	}
	if inplace {
		n.rebase(fn, out)
	} else {
		n.finish(fn, out)
	}
	return out, nil
}

// checkIndexCopy is index_copy's meta function's checks.
func checkIndexCopy(x *Tensor, d int, idx, src *Tensor) error {
	if len(idx.shape) >= 2 {
		return Errorf(IndexError, "index_copy_(): Index should have dimension 1 or 0 (got %d)", len(idx.shape))
	}
	ni := idx.Numel()
	if len(src.shape) == 0 && ni != 1 {
		return Errorf(IndexError, "index_copy_(): When source is scalar, index should have one element (got %d)", ni)
	}
	if len(src.shape) != len(x.shape) && len(src.shape) != 0 && len(x.shape) != 0 {
		return Errorf(IndexError, "index_copy_(): When source and destination are not scalars, their dimensionality must match. Source dimensionality (%d), destination dimensionality (%d)", len(src.shape), len(x.shape))
	}
	if idx.dtype != Int64 {
		return Errorf(RuntimeError, "index_copy_(): Expected a long tensor for index, but got %s", idx.dtype.cppName())
	}
	if x.dtype != src.dtype {
		return Errorf(RuntimeError, "index_copy_(): self and source expected to have the same dtype, but got (self) %s and (source) %s", x.dtype.cppName(), src.dtype.cppName())
	}
	if x.device != src.device || x.device != idx.device {
		return Errorf(RuntimeError, "index_copy_(): self, index and source expected to be in the same device, but got (self) %s, (index) %s, and (source) %s", x.device, idx.device, src.device)
	}
	xs := dropDim(x.shape, d)
	ss := dropDim(src.shape, d)
	if !sameShape(xs, ss) {
		return Errorf(RuntimeError, "index_copy_(): Source/destination tensor must have same slice shapes. Destination slice shape: %s at dimension %d and source slice shape: %s at dimension 0.", joinInts(xs), d, joinInts(ss))
	}
	if len(src.shape) != 0 && d < len(src.shape) && ni != src.shape[d] {
		return Errorf(IndexError, "index_copy_(): Number of indices (%d) should be equal to source.size(dim) (%d)", ni, src.shape[d])
	}
	return nil
}

// dropDim is shape without dim d (empty shapes stay empty).
func dropDim(shape []int64, d int) []int64 {
	if len(shape) == 0 || d >= len(shape) {
		return cloneShape(shape)
	}
	return append(cloneShape(shape[:d]), shape[d+1:]...)
}

// indexSelectRaw is g.index_select(d, index) without history: g's shape
// with dim d of length n.
func (rt *Runtime) indexSelectRaw(g *Tensor, d int, n int64) (*Tensor, error) {
	shape := cloneShape(g.shape)
	if d < len(shape) {
		shape[d] = n
	}
	r, err := rt.empty("index_select", shape, nil, g.dtype, g.device)
	if err == nil {
		rt.notComputed(r)
	}
	return r, err
}

// notComputed marks r's values unknown on the GPU backend (no kernel).
func (rt *Runtime) notComputed(r *Tensor) {
	if rt.exec != nil {
		rt.markNotComputed(r)
	}
}

// IndexFill is index_fill/index_fill_(dim, index, value): value a number
// (IndexFillBackward0) or a 0-dim tensor (IndexFillBackward1; its own
// gradient needs unique() of the index, so a value that requires grad is
// not simulated). Out of place: clone(preserve) then the in-place fill.
// self's gradient is grad.index_fill(dim, index, 0): a copy of grad.
func (rt *Runtime) IndexFill(x *Tensor, dim int64, idx *Tensor, valueT *Tensor, inplace bool) (*Tensor, error) {
	if idx.dtype != Int64 {
		return nil, Errorf(IndexError, "index_fill_(): Expected dtype int64 for index.")
	}
	node := "IndexFillBackward0"
	if valueT != nil {
		if len(valueT.shape) != 0 {
			return nil, Errorf(RuntimeError, "index_fill_ only supports a 0-dimensional value tensor, but got tensor with %d dimension(s).", len(valueT.shape))
		}
		if rt.needsGrad(valueT) {
			return nil, Errorf(NotImplementedError, "index_fill with a value tensor that requires grad is not simulated (its backward calls unique() on the index)")
		}
		node = "IndexFillBackward1"
	}
	if _, err := wrapDim(dim, max(len(x.shape), 1)); err != nil {
		return nil, err
	}
	if len(idx.shape) > 1 {
		return nil, Errorf(RuntimeError, "Index has to be a vector/scalar")
	}
	if idx.device != x.device {
		return nil, Errorf(RuntimeError, "Expected all tensors to be on the same device, but found at least two devices, %s and %s!", x.device, idx.device)
	}
	var out *Tensor
	var err error
	if inplace {
		if err := rt.inplace(x); err != nil {
			return nil, err
		}
		out = x.Retain()
	} else if out, err = rt.emptyLike("index_fill", x, x.dtype); err != nil {
		return nil, err
	}
	rt.notComputed(out)
	n := rt.record(node, x)
	fn := func(n *Node, g []*Tensor) ([]*Tensor, error) {
		r, err := rt.emptyLike("index_fill", g[0], g[0].dtype)
		if err == nil {
			rt.notComputed(r)
		}
		return []*Tensor{r}, err
	}
	if n != nil {
		n.save(idx, false)
	}
	if inplace {
		n.rebase(fn, out)
	} else {
		n.finish(fn, out)
	}
	return out, nil
}

// TakeAlongDim is torch.take_along_dim(x, indices, dim): with a dim, x
// and the indices broadcast to each other apart from dim (broadcast_to:
// ExpandBackward0 views) and gather; without, x.view(-1).gather(0,
// indices.view(-1)).
func (rt *Runtime) TakeAlongDim(x, idx *Tensor, dim *int64) (*Tensor, error) {
	if x.device != idx.device {
		return nil, Errorf(RuntimeError, "torch.take_along_dim(): Expected all tensors to be on the same device, but found at least two devices, %s and %s!", x.device, idx.device)
	}
	if dim == nil {
		xv, err := rt.View(x, []int64{-1})
		if err != nil {
			return nil, err
		}
		defer xv.Release()
		iv, err := rt.View(idx, []int64{-1})
		if err != nil {
			return nil, err
		}
		defer iv.Release()
		return rt.Gather(xv, 0, iv)
	}
	if len(x.shape) != len(idx.shape) {
		return nil, Errorf(RuntimeError, "torch.take_along_dim(): input and indices should have the same number of dimensions, but got %d dimensions for input, and %d dimensions for indices", len(x.shape), len(idx.shape))
	}
	if idx.dtype != Int64 {
		return nil, Errorf(RuntimeError, "torch.take_along_dim(): dtype of indices should be Long but got %s", idx.dtype.cppName())
	}
	d, err := wrapDim(*dim, max(len(x.shape), 1))
	if err != nil {
		return nil, err
	}
	xs := cloneShape(x.shape)
	if d < len(xs) {
		xs[d] = idx.shape[d]
	}
	ishape, err := broadcastShapes(xs, idx.shape)
	if err != nil {
		return nil, err
	}
	is := cloneShape(idx.shape)
	if d < len(is) {
		is[d] = x.shape[d]
	}
	xshape, err := broadcastShapes(is, x.shape)
	if err != nil {
		return nil, err
	}
	ib, err := rt.Expand(idx, ishape)
	if err != nil {
		return nil, err
	}
	defer ib.Release()
	// 2.11 makes a new int64 index of the broadcast shape before gather,
	// which GatherBackward0 then saves (measured, q21; not in the 2.4 source)
	ic, err := rt.empty("take_along_dim", ishape, nil, Int64, idx.device)
	if err != nil {
		return nil, err
	}
	defer ic.Release()
	if rt.exec != nil {
		rt.compute1(ExecCopy, ic, []*Tensor{ib})
	}
	xb, err := rt.Expand(x, xshape)
	if err != nil {
		return nil, err
	}
	defer xb.Release()
	return rt.Gather(xb, int64(d), ic)
}
