package torch

// IndexMulti is t[key] with several index tensors (aten::index; advs in
// increasing dims, after the key's basic items were applied as views): the
// result has the broadcast index shape in place of the indexed dims when
// they are adjacent, first otherwise. On CUDA make_info's temporaries
// (makeInfoScratch) are held while the output is allocated.
// IndexBackward0 saves the indices; its backward allocates zeros like t
// and runs index_put_'s sorted accumulate over the linear index
// (linearSortScratch).
func (rt *Runtime) IndexMulti(t *Tensor, advs []AdvIndex) (*Tensor, error) {
	p, err := rt.planIndex(t, advs)
	if err != nil {
		return nil, err
	}
	s := &scratch{rt: rt}
	if err := rt.makeInfoScratch(s, t, advs, p); err != nil {
		s.release()
		return nil, err
	}
	out, err := rt.empty("index", p.result, nil, t.dtype, t.device)
	if err != nil {
		s.release()
		return nil, err
	}
	if rt.exec != nil {
		rt.compute(ExecIndexN, []*Tensor{out}, advTensors(t, advs), nil, advDims(advs))
	}
	s.release()
	n := rt.record("IndexBackward0", t)
	if n != nil {
		for _, a := range advs {
			n.save(a.Idx, false)
		}
	}
	in, dt, dev := cloneShape(t.shape), t.dtype, t.device
	dims := advDims(advs)
	n.finish(func(n *Node, g []*Tensor) ([]*Tensor, error) {
		r, err := rt.empty("index_backward", in, nil, dt, dev)
		if err != nil {
			return nil, err
		}
		idx, release, err := unpackAdv(n, dims)
		if err != nil {
			r.Release()
			return nil, err
		}
		defer release()
		if err := rt.linearSortScratch(r, idx, sortValueOf(g[0]), false); err != nil {
			r.Release()
			return nil, err
		}
		if rt.exec != nil {
			rt.compute(ExecIndexNBack, []*Tensor{r}, advTensors(g[0], idx), nil, dims)
		}
		return []*Tensor{r}, nil
	}, out)
	return out, nil
}

// advTensors is [t, idx...] (an executor op's inputs).
func advTensors(t *Tensor, advs []AdvIndex) []*Tensor {
	ts := []*Tensor{t}
	for _, a := range advs {
		ts = append(ts, a.Idx)
	}
	return ts
}

// advDims is the first indexed dim of each index.
func advDims(advs []AdvIndex) []int64 {
	d := make([]int64, len(advs))
	for i, a := range advs {
		d[i] = int64(a.Dim)
	}
	return d
}

// unpackAdv unpacks the index tensors a node saved first (one per dim in
// dims); release gives them back.
func unpackAdv(n *Node, dims []int64) ([]AdvIndex, func(), error) {
	advs := make([]AdvIndex, 0, len(dims))
	release := func() {
		for _, a := range advs {
			a.Idx.Release()
		}
	}
	for i, d := range dims {
		t, err := n.unpack(i)
		if err != nil {
			release()
			return nil, func() {}, err
		}
		if t == nil {
			release()
			return nil, func() {}, Errorf(RuntimeError, "an index tensor saved for backward was released")
		}
		advs = append(advs, AdvIndex{Dim: int(d), Idx: t})
	}
	return advs, release, nil
}
