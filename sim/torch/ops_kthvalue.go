package torch

// torch.kthvalue, torch.median (over a dim and over everything) and
// torch.mode (PyTorch 2.11, CUDA; q16 measured on an H100). Over a dim
// they allocate their values then int64 indices (the reduced shape) and no
// temporaries; their backward (KthvalueBackward0, MedianBackward1,
// ModeBackward0) is value_selecting_reduction_backward: zeros like self.
// median() sorts the flattened input (median_impl) and returns a clone of
// the middle element (NaN for an empty input); MedianBackward0 is
// evenly_distribute_backward's CUDA branch.

// SelectDim is kthvalue(t, k, dim, keepdim) (op "kthvalue"), median(t,
// dim, keepdim) ("median") or mode(t, dim, keepdim) ("mode") → (values,
// indices). k is read for kthvalue only.
func (rt *Runtime) SelectDim(op string, t *Tensor, k, dim int64, keepdim bool) (*Tensor, *Tensor, error) {
	d := 0
	if len(t.shape) > 0 {
		w, err := wrapDim(dim, len(t.shape))
		if err != nil {
			return nil, nil, err
		}
		d = w
	} else if _, err := wrapDim(dim, 1); err != nil {
		return nil, nil, err
	}
	size := int64(1)
	if len(t.shape) > 0 {
		size = t.shape[d]
	}
	if size == 0 {
		return nil, nil, Errorf(IndexError, "%s(): Expected reduction dim %d to have non-zero size.", op, d)
	}
	if op == "kthvalue" && (k < 1 || k > size) {
		return nil, nil, Errorf(RuntimeError, "kthvalue(): selected number k out of range for dimension %d", d)
	}
	var dims []int64
	if len(t.shape) > 0 {
		dims = []int64{int64(d)}
	}
	vals, err := rt.reduceOut(op, t, dims, keepdim, t.dtype)
	if err != nil {
		return nil, nil, err
	}
	idx, err := rt.reduceOut(op, t, dims, keepdim, Int64)
	if err != nil {
		vals.Release()
		return nil, nil, err
	}
	name := map[string]string{"kthvalue": "KthvalueBackward0", "median": "MedianBackward1", "mode": "ModeBackward0"}[op]
	rt.recordValueSelecting(name, t, vals, idx)
	return vals, idx, nil
}

// MedianAll is torch.median(t) over every element: the flattened input
// sorted (values, indices and sort's temporaries; the indices freed at
// once), a 1-byte temporary (measured), the 0-dim clone of the middle
// element, then the sorted values freed. MedianBackward0 saves self and
// the result.
func (rt *Runtime) MedianAll(t *Tensor) (*Tensor, error) {
	var out *Tensor
	err := rt.noGrad(func() error {
		if t.Numel() == 0 {
			// a NaN made on the host and copied to self's device
			var err error
			out, err = rt.empty("median", nil, nil, t.dtype, t.device)
			return err
		}
		flat, err := rt.Reshape(t, []int64{t.Numel()})
		if err != nil {
			return err
		}
		sorted, idx, err := rt.Sort(flat, 0, false, nil)
		flat.Release()
		if err != nil {
			return err
		}
		idx.Release()
		defer sorted.Release()
		s := &scratch{rt: rt}
		defer s.release()
		if t.device.IsCUDA() {
			if _, err := s.alloc(1, "median temporary", "a 1-byte temporary while the middle element is copied (measured)"); err != nil {
				return err
			}
		}
		out, err = rt.empty("median", nil, nil, t.dtype, t.device)
		return err
	})
	if err != nil {
		return nil, err
	}
	n := rt.record("MedianBackward0", t)
	if n != nil {
		n.save(t, false)
		n.save(out, true)
	}
	n.finish(func(n *Node, g []*Tensor) ([]*Tensor, error) {
		self, err := n.unpack(0)
		if err != nil {
			return nil, err
		}
		defer self.Release()
		res, err := n.unpack(1)
		if err != nil {
			return nil, err
		}
		defer res.Release()
		r, err := rt.evenlyDistributeBackward(g[0], self, res)
		return []*Tensor{r}, err
	}, out)
	return out, nil
}

// evenlyDistributeBackward is evenly_distribute_backward's CUDA branch:
// mask = (input == value) | (input.isnan() & value.isnan()), then
// mask * (grad / mask.sum()) (the bool mask summed through an int64 copy).
func (rt *Runtime) evenlyDistributeBackward(g, self, value *Tensor) (*Tensor, error) {
	var held []*Tensor
	defer func() {
		for i := len(held) - 1; i >= 0; i-- {
			held[i].Release()
		}
	}()
	step := func(t *Tensor, err error) (*Tensor, error) {
		if err == nil {
			held = append(held, t)
		}
		return t, err
	}
	if _, err := step(rt.CompareScalar("isnan", self)); err != nil {
		return nil, err
	}
	if _, err := step(rt.CompareScalar("isnan", value)); err != nil {
		return nil, err
	}
	mask, err := step(rt.Compare("eq", self, value))
	if err != nil {
		return nil, err
	}
	cnt, err := step(rt.sumBool(mask, nil, false))
	if err != nil {
		return nil, err
	}
	q, err := step(rt.Div(g, cnt))
	if err != nil {
		return nil, err
	}
	return rt.Mul(mask, q)
}

// sumBool is bool_tensor.sum(dims, keepdim) on CUDA: the int64 result,
// then the mask copied to int64 for the reduction (and freed), then the
// reduction's scratch.
func (rt *Runtime) sumBool(mask *Tensor, dims []int64, keepdim bool) (*Tensor, error) {
	out, err := rt.reduceOut("sum", mask, dims, keepdim, Int64)
	if err != nil {
		return nil, err
	}
	if mask.device.IsCUDA() {
		c, err := rt.empty("sum", mask.shape, nil, Int64, mask.device)
		if err != nil {
			out.Release()
			return nil, err
		}
		err = rt.reduceKernel(c, dims, 8)
		c.Release()
		if err != nil {
			out.Release()
			return nil, err
		}
	}
	return out, nil
}
