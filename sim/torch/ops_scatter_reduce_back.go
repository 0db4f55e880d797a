package torch

// allocSeq replays the allocations of a composed ATen formula without
// values: make allocates (contiguous, values not computed), the first error
// sticks and later makes return nil (Release of nil is a no-op).
type allocSeq struct {
	rt  *Runtime
	dev Device
	err error
}

// make allocates a tensor of shape and dtype dt.
func (s *allocSeq) make(op string, shape []int64, dt DType) *Tensor {
	if s.err != nil {
		return nil
	}
	t, err := s.rt.empty(op, shape, nil, dt, s.dev)
	if err != nil {
		s.err = err
		return nil
	}
	s.rt.notComputed(t)
	return t
}

// bcast is the broadcast shape of a and b (the error sticks).
func (s *allocSeq) bcast(a, b []int64) []int64 {
	if s.err != nil {
		return nil
	}
	r, err := broadcastShapes(a, b)
	if err != nil {
		s.err = err
	}
	return r
}

// scatterReduceBackward is scatter_reduce_backward: (grad_self, grad_src),
// both computed whichever is needed, in the allocation order of the
// formula per reduction (C++ temporaries die at the end of their full
// expression, newest first; operator operands and call arguments are
// evaluated right to left, as GCC does), then grad_self.scatter(dim,
// index, 0) without include_self.
func (rt *Runtime) scatterReduceBackward(g, self, idx, src, result *Tensor, a scatterReduceArgs) (*Tensor, *Tensor, error) {
	s := &allocSeq{rt: rt, dev: g.device}
	S, I, Src, dt := g.shape, idx.shape, src.shape, g.dtype
	var gs, gsrc *Tensor
	switch a.reduce {
	case "sum":
		gs = g.Retain()
		gsrc = s.make("gather", I, dt)
	case "mean":
		n := s.make("ones_like", S, dt)
		ones := s.make("ones_like", Src, dt)
		n2 := s.make("scatter_add", S, dt)
		n.Release()
		ones.Release()
		s.make("eq", S, Bool).Release()
		gs = s.make("div", S, dt)
		nsrc := s.make("gather", I, dt)
		t := s.make("gather", I, dt)
		gsrc = s.make("div", I, dt)
		t.Release()
		nsrc.Release()
		n2.Release()
	case "amax", "amin":
		value := s.make("gather", I, dt)
		b1 := s.make("eq", S, Bool)
		selfIs := s.make("to", S, dt)
		b1.Release()
		sv := s.bcast(Src, I)
		b2 := s.make("eq", sv, Bool)
		srcIs := s.make("to", sv, dt)
		b2.Release()
		n := s.make("scatter_add", S, dt)
		gd := s.make("div", S, dt)
		b3 := s.make("eq", S, Bool)
		gs = s.make("mul", S, dt)
		b3.Release()
		t := s.make("gather", I, dt)
		b4 := s.make("eq", sv, Bool)
		gsrc = s.make("mul", s.bcast(sv, I), dt)
		b4.Release()
		t.Release()
		releaseAllOf(gd, n, srcIs, selfIs, value)
	case "max", "min":
		return nil, nil, Errorf(RuntimeError, "Expected 'reduce' argument to be one of 'sum', 'prod', 'mean', 'amax', 'amin' but got %s.", a.reduce)
	case "prod":
		var err error
		gs, gsrc, err = rt.scatterProdBackward(s, g, self, idx, src, a)
		if err != nil {
			return nil, nil, err
		}
	}
	if !a.includeSelf && s.err == nil {
		r := s.make("scatter", S, dt)
		gs.Release()
		gs = r
	}
	if s.err != nil {
		releaseAllOf(gs, gsrc)
		return nil, nil, s.err
	}
	return gs, gsrc, nil
}

// scatterProdBackward is the "prod" branch: exclusive products through
// masked copies of self and src and two more scatter_reduce calls (the
// any() check for several zeros per slot runs only under grad mode, i.e.
// double backward: not here).
func (rt *Runtime) scatterProdBackward(s *allocSeq, g, self, idx, src *Tensor, a scatterReduceArgs) (*Tensor, *Tensor, error) {
	S, I, Src, dt := g.shape, idx.shape, src.shape, g.dtype
	b0 := s.make("eq", S, Bool)
	maskedSelf := s.make("masked_fill", S, dt)
	b0.Release()
	if s.err != nil {
		return nil, nil, s.err
	}
	msr, err := rt.scatterReduceRaw(maskedSelf, idx, src, "prod", a.includeSelf)
	if err != nil {
		maskedSelf.Release()
		return nil, nil, err
	}
	t := s.make("mul", S, dt)
	gs := s.make("div", S, dt)
	t.Release()
	srcZero := s.make("eq", Src, Bool)
	z := s.make("zeros_like", S, dt)
	c := s.make("to", Src, dt)
	sa := s.make("scatter_add", S, dt)
	numZeros := s.make("gather", I, dt)
	releaseAllOf(sa, c, z)
	e1 := s.make("eq", I, Bool)
	single := s.make("bitwise_and", s.bcast(Src, I), Bool)
	e1.Release()
	maskedSrc := s.make("masked_fill", Src, dt)
	var msr2 *Tensor
	if s.err == nil {
		if msr2, err = rt.scatterReduceRaw(self, idx, maskedSrc, "prod", a.includeSelf); err != nil {
			s.err = err
		}
	}
	sv := s.bcast(Src, I)
	mf := s.make("masked_fill", Src, dt)
	gr := s.make("mul", S, dt)
	grg := s.make("gather", I, dt)
	q := s.make("div", s.bcast(I, Src), dt)
	gm := s.make("mul", S, dt)
	gmg := s.make("gather", I, dt)
	gsrc := s.make("where", s.bcast(sv, s.bcast(I, s.bcast(I, Src))), dt)
	releaseAllOf(gmg, gm, q, grg, gr, mf)
	releaseAllOf(msr2, maskedSrc, single, numZeros, srcZero, msr, maskedSelf)
	if s.err != nil {
		releaseAllOf(gs, gsrc)
		return nil, nil, s.err
	}
	return gs, gsrc, nil
}
