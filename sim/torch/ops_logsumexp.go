package torch

import "sort"

// torch.logsumexp (PyTorch 2.11, logsumexp_out_impl; q16 measured on an
// H100): integral inputs are converted to float32 first (held to the
// end); maxes = amax(self, dims, keepdim=True) (with its reduction
// scratch); maxes.abs() == inf (two maxes-sized temporaries, freed at
// once) masks infinite maxes in place; (self - maxes) is exponentiated in
// place and summed into the result (the reduction's scratch), then freed;
// the maxes die last. LogsumexpBackward0 saves self and the result:
// grad · (self - result).exp() (two self-sized temporaries).

// Logsumexp is torch.logsumexp(t, dims, keepdim) (dims empty: all).
func (rt *Runtime) Logsumexp(t *Tensor, dims []int64, keepdim bool) (*Tensor, error) {
	if _, _, err := reduceShape(t.shape, dims, keepdim); err != nil {
		return nil, err
	}
	odt := t.dtype
	var conv *Tensor
	if t.dtype.IsIntegral(true) {
		odt = Float32
		c, err := rt.empty("logsumexp", t.shape, stridesLike(t.shape, t.strides), Float32, t.device)
		if err != nil {
			return nil, err
		}
		conv = c
		defer conv.Release()
	}
	src := t
	if conv != nil {
		src = conv
	}
	maxes, err := rt.reduceOut("amax", src, dims, true, odt)
	if err != nil {
		return nil, err
	}
	defer maxes.Release()
	if err := rt.reduceKernel(src, dims, max(4, odt.Size())); err != nil {
		return nil, err
	}
	abs, err := rt.empty("abs", maxes.shape, nil, odt, t.device)
	if err != nil {
		return nil, err
	}
	inf, err := rt.empty("eq", maxes.shape, nil, Bool, t.device)
	if err != nil {
		abs.Release()
		return nil, err
	}
	inf.Release()
	abs.Release()
	shifted, err := rt.pointwiseOut("sub", odt, src, maxes)
	if err != nil {
		return nil, err
	}
	out, err := rt.reduceOut("logsumexp", src, dims, keepdim, odt)
	if err == nil {
		if err = rt.reduceKernel(shifted, dims, accSize(odt)); err != nil {
			out.Release()
		}
	}
	shifted.Release()
	if err != nil {
		return nil, err
	}
	ndim := len(t.shape)
	n := rt.record("LogsumexpBackward0", t)
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
		r, err := rt.logsumexpBackward(g[0], self, res, dims, keepdim, ndim)
		return []*Tensor{r}, err
	}, out)
	return out, nil
}

// logsumexpBackward is logsumexp_backward: grad and result unsqueezed back
// (views), then grad · (self - result).exp().
func (rt *Runtime) logsumexpBackward(g, self, res *Tensor, dims []int64, keepdim bool, ndim int) (*Tensor, error) {
	g, res = g.Retain(), res.Retain()
	defer func() { g.Release(); res.Release() }()
	if !keepdim && ndim > 0 {
		ws := make([]int, 0, ndim)
		if len(dims) == 0 {
			for i := range ndim {
				ws = append(ws, i)
			}
		}
		for _, d := range dims {
			w, _ := wrapDim(d, ndim)
			ws = append(ws, w)
		}
		sort.Ints(ws)
		for _, w := range ws {
			ug, err := rt.Unsqueeze(g, int64(w))
			if err != nil {
				return nil, err
			}
			g.Release()
			g = ug
			ur, err := rt.Unsqueeze(res, int64(w))
			if err != nil {
				return nil, err
			}
			res.Release()
			res = ur
		}
	}
	d, err := rt.Sub(self, res, 1)
	if err != nil {
		return nil, err
	}
	defer d.Release()
	e, err := rt.Exp(d)
	if err != nil {
		return nil, err
	}
	defer e.Release()
	return rt.Mul(g, e)
}
