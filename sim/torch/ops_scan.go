package torch

// torch.cumsum / torch.cumprod (PyTorch 2.11, CUDA; q16 measured on an
// H100). The structured meta allocates a contiguous output of the result
// dtype (dtype=, else int64 for integral and bool inputs); impl_func_cum_ops
// converts self to that dtype first (a copy when it differs), then
// scan_dim makes it contiguous (a copy) and scans it: a 1-d scan (numel ==
// size(dim)) through cub::DeviceScan (temp storage, cubScanTemp), other
// scans with ATen's own kernels (no temporaries). cumsum_backward is
// grad.to(self.dtype) reversed-cumsummed (flip, cumsum, flip); cumprod's
// saves self and the result and, for inputs without zeros, divides the
// reversed cumsum of result·grad by self (inputs with zeros take another
// path that the model does not follow: values are unknown).

// scanDType is the result dtype of cumsum/cumprod.
func scanDType(t *Tensor, dt *DType) DType {
	if dt != nil {
		return *dt
	}
	if t.dtype.IsIntegral(true) {
		return Int64
	}
	return t.dtype
}

// Cumsum is torch.cumsum(t, dim, dtype=dt) (CumsumBackward0).
func (rt *Runtime) Cumsum(t *Tensor, dim int64, dt *DType) (*Tensor, error) {
	out, d, err := rt.scan("cumsum", t, dim, dt)
	if err != nil {
		return nil, err
	}
	inDT, ndim := t.dtype, len(t.shape)
	n := rt.record("CumsumBackward0", t)
	n.finish(func(n *Node, g []*Tensor) ([]*Tensor, error) {
		gg, err := rt.gradTo(g[0], inDT)
		if err != nil {
			return nil, err
		}
		if gg.Numel() <= 1 || ndim == 0 || gg.shape[d] == 1 {
			return []*Tensor{gg}, nil
		}
		r, err := rt.reversedCumsum(gg, d)
		gg.Release()
		return []*Tensor{r}, err
	}, out)
	return out, nil
}

// Cumprod is torch.cumprod(t, dim, dtype=dt) (CumprodBackward0 saves self
// and the result).
func (rt *Runtime) Cumprod(t *Tensor, dim int64, dt *DType) (*Tensor, error) {
	out, d, err := rt.scan("cumprod", t, dim, dt)
	if err != nil {
		return nil, err
	}
	inDT, ndim := t.dtype, len(t.shape)
	n := rt.record("CumprodBackward0", t)
	if n != nil {
		n.save(t, false)
		n.save(out, true)
	}
	n.finish(func(n *Node, g []*Tensor) ([]*Tensor, error) {
		gg, err := rt.gradTo(g[0], inDT)
		if err != nil {
			return nil, err
		}
		if gg.Numel() <= 1 || ndim == 0 || gg.shape[d] == 1 {
			return []*Tensor{gg}, nil
		}
		defer gg.Release()
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
		r, err := rt.cumprodBackward(gg, self, res, d)
		return []*Tensor{r}, err
	}, out)
	return out, nil
}

// cumprodBackward is cumprod_backward for an input without zeros (grad
// mode off): w = result·grad, is_zero = (self == 0) and its any() read
// back, then reversed_cumsum(w).div(self); is_zero and w die last.
func (rt *Runtime) cumprodBackward(g, self, res *Tensor, d int) (*Tensor, error) {
	w, err := rt.Mul(res, g)
	if err != nil {
		return nil, err
	}
	defer w.Release()
	zero, err := rt.CompareScalar("eq", self)
	if err != nil {
		return nil, err
	}
	defer zero.Release()
	anyZero, err := rt.AllAny("any", zero)
	if err != nil {
		return nil, err
	}
	anyZero.Release()
	c, err := rt.reversedCumsum(w, d)
	if err != nil {
		return nil, err
	}
	defer c.Release()
	return rt.Div(c, self)
}

// gradTo is grad.to(dt) in a derivative formula: g itself (a new
// reference) when it has that dtype, else a converted copy.
func (rt *Runtime) gradTo(g *Tensor, dt DType) (*Tensor, error) {
	if g.dtype == dt {
		return g.Retain(), nil
	}
	return rt.toDType(g, dt)
}

// reversedCumsum is w.flip(d).cumsum(d).flip(d): the two temporaries die
// after the result exists, newest first.
func (rt *Runtime) reversedCumsum(w *Tensor, d int) (*Tensor, error) {
	a, err := rt.flipRaw(w)
	if err != nil {
		return nil, err
	}
	defer a.Release()
	b, _, err := rt.scanRaw(a, d, a.dtype)
	if err != nil {
		return nil, err
	}
	defer b.Release()
	return rt.flipRaw(b)
}

// scan checks the arguments of cumsum/cumprod and runs the scan without
// recording a node; it returns the output and the wrapped dim.
func (rt *Runtime) scan(op string, t *Tensor, dim int64, dt *DType) (*Tensor, int, error) {
	ndim := max(len(t.shape), 1)
	d, err := wrapDim(dim, ndim)
	if err != nil {
		return nil, 0, err
	}
	odt := scanDType(t, dt)
	if odt == Bool {
		return nil, 0, Errorf(RuntimeError, "\"%s_cuda\" not implemented for 'Bool'", op)
	}
	out, _, err := rt.scanRaw(t, d, odt)
	return out, d, err
}

// scanRaw allocates a scan's output (contiguous, dtype odt) and takes its
// temporaries: self converted to odt, made contiguous, cub's temp storage
// for a 1-d scan.
func (rt *Runtime) scanRaw(t *Tensor, d int, odt DType) (*Tensor, int, error) {
	out, err := rt.empty("scan", t.shape, nil, odt, t.device)
	if err != nil {
		return nil, 0, err
	}
	if !t.device.IsCUDA() || len(t.shape) == 0 || t.Numel() == 0 {
		return out, d, nil
	}
	s := &scratch{rt: rt}
	defer s.release()
	converted := t.dtype != odt
	if converted {
		if _, err := s.alloc(t.Numel()*odt.Size(), "scan input conversion", "self.to(result dtype) before the scan"); err != nil {
			out.Release()
			return nil, 0, err
		}
	}
	// the converted copy keeps a dense self's layout and is contiguous
	// otherwise
	if !t.IsContiguous() && (!converted || isNonOverlappingAndDense(t.shape, t.strides)) {
		if _, err := s.alloc(t.Numel()*odt.Size(), "scan input copy", "scan_dim's expect_contiguous copy of self"); err != nil {
			out.Release()
			return nil, 0, err
		}
	}
	if t.Numel() == t.shape[d] {
		h, err := s.alloc(cubScanTemp(t.Numel(), odt.Size()), "cub scan temp storage", "cub::DeviceScan::InclusiveScan's tile descriptors")
		if err != nil {
			out.Release()
			return nil, 0, err
		}
		s.free(h)
	}
	return out, d, nil
}
