package torch

// IndexPutOp is Tensor.index_put_(indices, values, accumulate) (inplace)
// or torch.index_put (a clone of self first) with one index tensor on dim
// 0 (indices = (idx,); several: IndexPutMulti). On CUDA, accumulate runs index_put_with_sort
// (indexPutSortScratch's temporaries); otherwise index_put_'s (see
// indexPutScratch). IndexPutBackward0 saves the index and values: self's
// gradient is grad (accumulate) or grad.index_put(indices,
// zeros_like(values)) (zeros, then a clone of grad); values' is
// grad.index(indices).
func (rt *Runtime) IndexPutOp(x, idx, values *Tensor, accumulate, inplace bool) (*Tensor, error) {
	if values == nil {
		return nil, Errorf(TypeError, "index_put_(): argument 'values' must be Tensor")
	}
	if len(x.shape) == 0 {
		return nil, Errorf(IndexError, "too many indices for tensor of dimension 0")
	}
	if values.dtype != x.dtype {
		return nil, Errorf(RuntimeError, "Index put requires the source and destination dtypes match, got %s for the destination and %s for the source.", x.dtype.Name(), values.dtype.Name())
	}
	out, err := rt.indexPutTarget(x, inplace)
	if err != nil {
		return nil, err
	}
	if accumulate && out.device.IsCUDA() {
		v := values
		if len(idx.shape) == 1 && !isMask(idx) {
			// index_put_with_sort expands the values to the indexed shape.
			shape := append([]int64{idx.Numel()}, out.shape[1:]...)
			if !sameShape(shape, values.shape) {
				ev, eerr := rt.Expand(values, shape)
				if eerr != nil {
					out.Release()
					return nil, eerr
				}
				defer ev.Release()
				v = ev
			}
		}
		// From Python the index range is checked (max/min of the index).
		err = rt.linearSortScratch(out, []AdvIndex{{Dim: 0, Idx: idx}}, sortValueOf(v), true)
	} else {
		s := &scratch{rt: rt}
		err = rt.indexPutScratch(s, out, idx, values)
		s.release()
	}
	if err != nil {
		out.Release()
		return nil, err
	}
	rt.IndexPutValues(out, 0, idx, values, 0, accumulate)
	n := rt.record("IndexPutBackward0", x, values)
	if n != nil {
		n.save(idx, false)
		n.save(values, false)
	}
	fn := func(n *Node, g []*Tensor) ([]*Tensor, error) {
		res := make(gradSlot, 2)
		if n.needsInput(0) {
			if accumulate {
				res[0] = g[0].Retain()
			} else {
				r, err := rt.indexPutGrad(n, g[0])
				if err != nil {
					return res.fail(err)
				}
				res[0] = r
			}
		}
		if n.needsInput(1) {
			ix, err := n.unpack(0)
			if err != nil {
				return res.fail(err)
			}
			r, err := rt.indexAlongRaw(g[0], ix)
			ix.Release()
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

// indexPutGrad is grad.index_put(indices, zeros_like(values), false):
// zeros like the saved values, a clone of grad, index_put_ of the zeros.
func (rt *Runtime) indexPutGrad(n *Node, g *Tensor) (*Tensor, error) {
	ix, err := n.unpack(0)
	if err != nil {
		return nil, err
	}
	defer ix.Release()
	vals, err := n.unpack(1)
	if err != nil {
		return nil, err
	}
	z, err := rt.ZerosLike(vals)
	vals.Release()
	if err != nil {
		return nil, err
	}
	defer z.Release()
	r, err := rt.empty("clone", g.shape, stridesLike(g.shape, g.strides), g.dtype, g.device)
	if err != nil {
		return nil, err
	}
	if rt.exec != nil {
		rt.compute1(ExecCopy, r, []*Tensor{g})
	}
	s := &scratch{rt: rt}
	err = rt.indexPutScratch(s, r, ix, z)
	s.release()
	if err != nil {
		r.Release()
		return nil, err
	}
	rt.IndexPutValues(r, 0, ix, z, 0, false)
	return r, nil
}

// indexAlongRaw is g[idx] on dim 0 without history (aten::index with its
// make_info temporaries).
func (rt *Runtime) indexAlongRaw(g, idx *Tensor) (*Tensor, error) {
	var shape []int64
	if isMask(idx) {
		shape = append([]int64{rt.maskCount(idx)}, g.shape[min(len(idx.shape), len(g.shape)):]...)
	} else {
		shape = append(cloneShape(idx.shape), g.shape[1:]...)
	}
	s := &scratch{rt: rt}
	defer s.release()
	if err := rt.indexInfoScratch(s, g, idx); err != nil {
		return nil, err
	}
	out, err := rt.empty("index", shape, nil, g.dtype, g.device)
	if err == nil && rt.exec != nil {
		rt.compute(ExecIndex, []*Tensor{out}, []*Tensor{g, idx}, nil, []int64{0})
	}
	return out, err
}

// indexPutTarget is the tensor index_put writes: x itself for index_put_
// (checked as an in-place op), else index_put's clone of x (its strides,
// the values copied when computing).
func (rt *Runtime) indexPutTarget(x *Tensor, inplace bool) (*Tensor, error) {
	if inplace {
		if err := rt.inplace(x); err != nil {
			return nil, err
		}
		return x.Retain(), nil
	}
	c, err := rt.empty("index_put", x.shape, stridesLike(x.shape, x.strides), x.dtype, x.device)
	if err != nil {
		return nil, err
	}
	if rt.exec != nil {
		rt.compute1(ExecCopy, c, []*Tensor{x})
	}
	return c, nil
}
