package torch

// IndexPutMulti is index_put_ with several index tensors (advs in
// increasing dims of dst): dst[advs] = values (a tensor broadcast to the
// indexed shape, or, values nil, the Python number value), added when
// accumulate is set; in place (x[i, j] = v, Tensor.index_put_) or on a
// clone (torch.index_put). On CUDA a host scalar value (a number, or a
// one-element host tensor of no dims) is copied to the device for the
// whole op; accumulate runs index_put_with_sort (linearSortScratch, the
// index range checked), otherwise make_info's temporaries are held around
// the kernel. IndexPutBackward0 saves the indices and values: self's
// gradient is grad (accumulate) or grad.index_put(indices,
// zeros_like(values)) (zeros, a clone of grad, index_put_'s temporaries),
// values' is grad.index(indices) (the engine sums it to the values' shape).
func (rt *Runtime) IndexPutMulti(dst *Tensor, advs []AdvIndex, values *Tensor, value float64, accumulate, inplace bool) (*Tensor, error) {
	return rt.indexPutMulti(dst, advs, values, value, nil, accumulate, inplace)
}

// indexPutMulti is IndexPutMulti; exact, when set, is the number value as
// an integer for the executor (see IndexPutMultiExact).
func (rt *Runtime) indexPutMulti(dst *Tensor, advs []AdvIndex, values *Tensor, value float64, exact *int64, accumulate, inplace bool) (*Tensor, error) {
	p, err := rt.planIndex(dst, advs)
	if err != nil {
		return nil, err
	}
	hostScalar := values == nil
	if values != nil {
		if values.dtype != dst.dtype {
			return nil, Errorf(RuntimeError, "Index put requires the source and destination dtypes match, got %s for the destination and %s for the source.", dst.dtype.Name(), values.dtype.Name())
		}
		if values.device != dst.device {
			if values.Numel() != 1 || values.Dim() != 0 {
				return nil, Errorf(RuntimeError, "Expected all tensors to be on the same device, but found at least two devices, %s and %s!", dst.device, values.device)
			}
			hostScalar = true
		}
		if err := rt.checkPutValues(p, values, accumulate); err != nil {
			return nil, err
		}
	}
	out, err := rt.indexPutTarget(dst, inplace)
	if err != nil {
		return nil, err
	}
	if err := rt.indexPutMultiScratch(out, advs, p, values, hostScalar, accumulate, true); err != nil {
		out.Release()
		return nil, err
	}
	if rt.exec != nil {
		rt.indexPutMultiValues(out, advs, values, value, exact, accumulate)
	}
	var n *Node
	if values != nil {
		n = rt.record("IndexPutBackward0", dst, values)
	} else {
		n = rt.record("IndexPutBackward0", dst)
	}
	if n != nil {
		for _, a := range advs {
			n.save(a.Idx, false)
		}
		n.save(values, false)
	}
	dims := advDims(advs)
	fn := func(n *Node, g []*Tensor) ([]*Tensor, error) {
		res := make(gradSlot, 2)
		if n.needsInput(0) {
			if accumulate {
				res[0] = g[0].Retain()
			} else {
				r, err := rt.indexPutMultiGrad(n, dims, g[0], hostScalar)
				if err != nil {
					return res.fail(err)
				}
				res[0] = r
			}
		}
		if values != nil && n.needsInput(1) {
			idx, release, err := unpackAdv(n, dims)
			if err != nil {
				return res.fail(err)
			}
			r, err := rt.indexMultiRaw(g[0], idx)
			release()
			if err != nil {
				return res.fail(err)
			}
			res[1] = r
		}
		if values == nil {
			return res[:1], nil
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

// checkPutValues raises index_put_'s shape errors: values that do not
// broadcast to the indexed shape (the TensorIterator check; with
// accumulate on CUDA, the sort kernel's expand).
func (rt *Runtime) checkPutValues(p *indexPlan, values *Tensor, accumulate bool) error {
	if accumulate && values.device.IsCUDA() {
		n := numel(p.bshape)
		if values.Numel() >= p.before*n*p.after {
			return nil
		}
		target := cloneShape(values.shape)
		if b, err := broadcastShapes(values.shape, p.bshape); err == nil {
			target = b
		}
		if p.before > 1 {
			target = append([]int64{p.before}, target...)
		}
		if p.after > 1 {
			target = append(target, p.after)
		}
		v, err := rt.Expand(values, target)
		if err != nil {
			return err
		}
		v.Release()
		return nil
	}
	if !expandable(values.shape, p.result) {
		return Errorf(RuntimeError, "shape mismatch: value tensor of shape %s cannot be broadcast to indexing result of shape %s", shapeList(values.shape), shapeList(p.result))
	}
	return nil
}

// indexPutMultiScratch takes and frees index_put_'s temporaries on dst:
// the host scalar's device copy, then the sorted accumulate or make_info's
// index temporaries.
func (rt *Runtime) indexPutMultiScratch(dst *Tensor, advs []AdvIndex, p *indexPlan, values *Tensor, hostScalar, accumulate, checkRange bool) error {
	if !dst.device.IsCUDA() {
		return nil
	}
	s := &scratch{rt: rt}
	defer s.release()
	size := dst.dtype.Size()
	if values != nil {
		size = values.dtype.Size()
	}
	if hostScalar {
		if _, err := s.alloc(size, "index_put_ value", "the assigned number or host scalar copied to the device"); err != nil {
			return err
		}
	}
	if accumulate {
		v := sortValue{numel: 1, size: size, contiguous: true}
		if !hostScalar {
			v = sortValueOf(values)
		}
		return rt.linearSortScratch(dst, advs, v, checkRange)
	}
	return rt.makeInfoScratch(s, dst, advs, p)
}

// indexPutMultiValues computes index_put_'s values into dst.
func (rt *Runtime) indexPutMultiValues(dst *Tensor, advs []AdvIndex, values *Tensor, value float64, exact *int64, accumulate bool) {
	acc, has := int64(0), int64(0)
	if accumulate {
		acc = 1
	}
	ins := advTensors(dst, advs)
	var scalars []float64
	if values != nil {
		has = 1
		ins = append(ins, values)
	} else {
		scalars = []float64{value}
	}
	if values == nil && exact != nil {
		ints := append([]int64{acc, 2}, advDims(advs)...)
		rt.compute(ExecIndexNPut, []*Tensor{dst}, ins, scalars, append(ints, *exact))
		return
	}
	rt.compute(ExecIndexNPut, []*Tensor{dst}, ins, scalars, append([]int64{acc, has}, advDims(advs)...))
}

// indexPutMultiGrad is grad.index_put(indices, zeros_like(values), false):
// zeros like the saved values (on the host for a number: no device
// memory), a clone of grad, index_put_'s temporaries.
func (rt *Runtime) indexPutMultiGrad(n *Node, dims []int64, g *Tensor, hostScalar bool) (*Tensor, error) {
	idx, release, err := unpackAdv(n, dims)
	if err != nil {
		return nil, err
	}
	defer release()
	var z *Tensor
	if !hostScalar {
		vals, err := n.unpack(len(dims))
		if err != nil {
			return nil, err
		}
		if vals != nil {
			z, err = rt.ZerosLike(vals)
			vals.Release()
			if err != nil {
				return nil, err
			}
			defer z.Release()
		}
	}
	r, err := rt.empty("clone", g.shape, stridesLike(g.shape, g.strides), g.dtype, g.device)
	if err != nil {
		return nil, err
	}
	if rt.exec != nil {
		rt.compute1(ExecCopy, r, []*Tensor{g})
	}
	p, err := rt.planIndex(r, idx)
	if err == nil {
		err = rt.indexPutMultiScratch(r, idx, p, z, z == nil, false, false)
	}
	if err != nil {
		r.Release()
		return nil, err
	}
	if rt.exec != nil {
		rt.indexPutMultiValues(r, idx, z, 0, nil, false)
	}
	return r, nil
}

// indexMultiRaw is g[indices] without history (aten::index with its
// make_info temporaries).
func (rt *Runtime) indexMultiRaw(g *Tensor, advs []AdvIndex) (*Tensor, error) {
	p, err := rt.planIndex(g, advs)
	if err != nil {
		return nil, err
	}
	s := &scratch{rt: rt}
	defer s.release()
	if err := rt.makeInfoScratch(s, g, advs, p); err != nil {
		return nil, err
	}
	out, err := rt.empty("index", p.result, nil, g.dtype, g.device)
	if err == nil && rt.exec != nil {
		rt.compute(ExecIndexN, []*Tensor{out}, advTensors(g, advs), nil, advDims(advs))
	}
	return out, err
}
