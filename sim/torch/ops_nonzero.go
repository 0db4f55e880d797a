package torch

// torch.nonzero/argwhere and torch.masked_select (PyTorch 2.11, CUDA; q16
// measured on an H100). Their output size depends on the values: the
// simulator, which has none, takes every element as selected (the upper
// bound), as t[mask] does; a run with values counts them (nonzeroCount).
// nonzero_cuda: a non-contiguous input made contiguous, an int count per
// 2^30-element chunk, cub's reduce temp storage (1 byte up to 4096
// elements, else 21503 bytes: measured 4096 → 1, 4097 → 21503), the
// [count, dims] int64 output in column-major strides, cub's select temp
// storage (cubSelectTile; none for a 0-dim input), then the count and the
// copy freed. masked_select broadcasts self and mask and indexes self with the
// mask (nonzero's indices live until the [count] result exists);
// MaskedSelectBackward0 saves self and the mask and scatters the gradient
// into zeros of the broadcast shape (masked_scatter_: an int64 prefix sum
// of the mask, a contiguous copy of a broadcast mask, cub's exclusive-sum
// temp storage, a contiguous copy of a non-contiguous gradient).

// cubSelectTile is the items per tile of the cub::DeviceSelect::Flagged
// behind nonzero (fitted to 1e5, 1e6 and 1e7 elements: 8446..8561).
const cubSelectTile = 384 * 22

// nonzeroReduceTemp is the temp storage of the cub::DeviceReduce::Sum that
// counts n elements' non-zeros (measured: 4096 → 1 byte, 4097 → 21503).
func nonzeroReduceTemp(n int64) int64 {
	if n > 4096 {
		return 21503
	}
	return 1
}

// nonzeroSelectTemp is the temp storage of the cub::DeviceSelect::Flagged
// that gathers the indices of n elements: its tile states.
func nonzeroSelectTemp(n int64) int64 {
	tiles := (n + cubSelectTile - 1) / cubSelectTile
	return cubAlign((tiles+32)*16) + cubAliasSlack
}

// Nonzero is torch.nonzero(t) → [count, t.dim()] int64.
func (rt *Runtime) Nonzero(t *Tensor) (*Tensor, error) {
	return rt.nonzeroRaw(t, rt.nonzeroCount(t))
}

// NonzeroTuple is torch.nonzero(t, as_tuple=True): one [count] column view
// per dim of nonzero's result (a 0-dim t counts as 1-d).
func (rt *Runtime) NonzeroTuple(t *Tensor) ([]*Tensor, error) {
	src := t.Retain()
	if len(t.shape) == 0 {
		v, err := rt.Reshape(t, []int64{1})
		src.Release()
		if err != nil {
			return nil, err
		}
		src = v
	}
	defer src.Release()
	nz, err := rt.Nonzero(src)
	if err != nil {
		return nil, err
	}
	defer nz.Release()
	cols := make([]*Tensor, nz.shape[1])
	for i := range cols {
		c, err := rt.Select(nz, 1, int64(i))
		if err != nil {
			releaseAll(cols[:i])
			return nil, err
		}
		cols[i] = c
	}
	return cols, nil
}

// nonzeroCount is the number of non-zero elements of t: counted when the
// values are known, else every element.
func (rt *Runtime) nonzeroCount(t *Tensor) int64 {
	if rt.exec != nil {
		if vals, err := rt.Values(t); err == nil {
			n := int64(0)
			for _, v := range vals {
				if v != 0 {
					n++
				}
			}
			return n
		}
	}
	return t.Numel()
}

// nonzeroRaw is nonzero's memory with count selected elements.
func (rt *Runtime) nonzeroRaw(t *Tensor, count int64) (*Tensor, error) {
	nd := int64(len(t.shape))
	shape := []int64{count, nd}
	strides := []int64{1, max(count, 1)}
	if !t.device.IsCUDA() {
		return rt.empty("nonzero", shape, strides, Int64, t.device)
	}
	s := &scratch{rt: rt}
	defer s.release()
	n := t.Numel()
	if !t.IsContiguous() {
		if _, err := s.alloc(n*t.dtype.Size(), "nonzero input copy", "self.contiguous() for nonzero"); err != nil {
			return nil, err
		}
	}
	chunks := int64(1)
	if n >= 1<<31-1 {
		chunks = (n + 1<<30 - 1) / (1 << 30)
	}
	num, err := s.alloc(4*chunks, "nonzero count", "nonzero's device count of non-zero elements")
	if err != nil {
		return nil, err
	}
	h, err := s.alloc(nonzeroReduceTemp(n), "cub reduce temp storage", "cub::DeviceReduce::Sum's temp storage counting the non-zero elements")
	if err != nil {
		return nil, err
	}
	s.free(h)
	out, err := rt.empty("nonzero", shape, strides, Int64, t.device)
	if err != nil {
		return nil, err
	}
	if n > 0 && nd > 0 {
		h, err = s.alloc(nonzeroSelectTemp(n), "cub select temp storage", "cub::DeviceSelect::Flagged's tile states gathering the indices")
		if err != nil {
			out.Release()
			return nil, err
		}
		s.free(h)
	}
	s.free(num)
	return out, nil
}

// MaskedSelect is torch.masked_select(t, mask) → the selected elements of
// the broadcast t (MaskedSelectBackward0).
func (rt *Runtime) MaskedSelect(t, mask *Tensor) (*Tensor, error) {
	if mask.dtype != Bool {
		return nil, Errorf(RuntimeError, "masked_select: expected BoolTensor for mask")
	}
	shape, err := broadcastShapes(t.shape, mask.shape)
	if err != nil {
		return nil, err
	}
	var out *Tensor
	err = rt.noGrad(func() error {
		m, err := rt.Expand(mask, shape)
		if err != nil {
			return err
		}
		defer m.Release()
		idx, err := rt.nonzeroRaw(m, rt.nonzeroCount(m))
		if err != nil {
			return err
		}
		defer idx.Release()
		out, err = rt.empty("masked_select", []int64{idx.shape[0]}, nil, t.dtype, t.device)
		return err
	})
	if err != nil {
		return nil, err
	}
	n := rt.record("MaskedSelectBackward0", t)
	if n != nil {
		n.save(t, false)
		n.save(mask, false)
	}
	n.finish(func(n *Node, g []*Tensor) ([]*Tensor, error) {
		m, err := n.unpack(1)
		if err != nil {
			return nil, err
		}
		defer m.Release()
		r, err := rt.maskedSelectBackward(g[0], shape, m)
		return []*Tensor{r}, err
	}, out)
	return out, nil
}

// maskedSelectBackward is masked_select_backward: zeros of the broadcast
// shape, then masked_scatter_(mask, grad)'s temporaries.
func (rt *Runtime) maskedSelectBackward(g *Tensor, shape []int64, mask *Tensor) (*Tensor, error) {
	r, err := rt.empty("masked_select_backward", shape, nil, g.dtype, g.device)
	if err != nil || !g.device.IsCUDA() {
		return r, err
	}
	if err := rt.maskedScatterScratch(shape, mask, g); err != nil {
		r.Release()
		return nil, err
	}
	return r, nil
}

// maskedScatterScratch is the CUDA masked_scatter_'s temporaries into a
// tensor of shape: the mask's int64 prefix sum, the broadcast mask made
// contiguous, cub's scan temp storage (freed at once) and the source made
// contiguous, released newest first.
func (rt *Runtime) maskedScatterScratch(shape []int64, mask, src *Tensor) error {
	s := &scratch{rt: rt}
	defer s.release()
	n := numel(shape)
	if _, err := s.alloc(n*8, "mask prefix sum", "masked_scatter_'s int64 exclusive prefix sum of the mask"); err != nil {
		return err
	}
	if !sameShape(mask.shape, shape) || !mask.IsContiguous() {
		if _, err := s.alloc(n, "mask copy", "the broadcast mask made contiguous"); err != nil {
			return err
		}
	}
	h, err := s.alloc(cubScanTemp(n, 8), "cub scan temp storage", "cub::DeviceScan::ExclusiveSum over the mask")
	if err != nil {
		return err
	}
	s.free(h)
	if !src.IsContiguous() {
		if _, err := s.alloc(src.Numel()*src.dtype.Size(), "source copy", "the source made contiguous for masked_scatter_"); err != nil {
			return err
		}
	}
	return nil
}
