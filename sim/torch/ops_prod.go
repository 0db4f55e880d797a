package torch

// torch.prod over everything and over a dim (PyTorch 2.11; q16 measured on
// an H100): the result (int64 for integral and bool inputs, else self's
// dtype or dtype=), an int64 copy of an integral input (half/bfloat16 to
// float32 reduces without a copy), the reduction's scratch.
// ProdBackward0/1 save self and the result; their backward converts self
// to the gradient's dtype, checks for zeros — prod() through
// (self == 0).nonzero(), prod(dim) through (self == 0).sum(dim).sum() read
// back — and, for inputs without zeros, returns grad · (result / self).
// Inputs with zeros take paths the model does not follow (values are
// unknown).

// prodDType is prod's result dtype.
func prodDType(t *Tensor, dt *DType) DType {
	if dt != nil {
		return *dt
	}
	if t.dtype.IsIntegral(true) {
		return Int64
	}
	return t.dtype
}

// Prod is torch.prod(t, dtype=dt) (dims nil) or torch.prod(t, dim,
// keepdim, dtype=dt) (dims one dim).
func (rt *Runtime) Prod(t *Tensor, dims []int64, keepdim bool, dt *DType) (*Tensor, error) {
	odt := prodDType(t, dt)
	out, err := rt.reduceOut("prod", t, dims, keepdim, odt)
	if err != nil {
		return nil, err
	}
	src := t
	if t.device.IsCUDA() && t.dtype != odt && !((t.dtype == Float16 || t.dtype == BFloat16) && odt == Float32) {
		c, err := rt.empty("prod", t.shape, stridesLike(t.shape, t.strides), odt, t.device)
		if err != nil {
			out.Release()
			return nil, err
		}
		defer c.Release()
		src = c
	}
	if err := rt.reduceKernel(src, dims, accSize(odt)); err != nil {
		out.Release()
		return nil, err
	}
	name := "ProdBackward0"
	if dims != nil {
		name = "ProdBackward1"
	}
	ndim := len(t.shape)
	n := rt.record(name, t)
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
		inp, err := rt.gradTo(self, g[0].dtype)
		if err != nil {
			return nil, err
		}
		defer inp.Release()
		if ndim == 0 {
			return []*Tensor{g[0].Retain()}, nil
		}
		var r *Tensor
		if dims == nil {
			r, err = rt.prodBackward(g[0], inp, res)
		} else {
			r, err = rt.prodDimBackward(g[0], inp, res, dims[0], keepdim)
		}
		return []*Tensor{r}, err
	}, out)
	return out, nil
}

// prodBackward is prod_backward(grad, input, result) for an input without
// zeros: (input == 0).nonzero() (the mask freed once the indices exist),
// then grad · (result / input).
func (rt *Runtime) prodBackward(g, inp, res *Tensor) (*Tensor, error) {
	zero, err := rt.CompareScalar("eq", inp)
	if err != nil {
		return nil, err
	}
	idx, err := rt.nonzeroRaw(zero, 0)
	zero.Release()
	if err != nil {
		return nil, err
	}
	defer idx.Release()
	return rt.gradTimesRatio(g, res, inp)
}

// prodDimBackward is prod_backward(grad, input, result, dim, keepdim) for
// an input without zeros: grad and result unsqueezed back (views), the
// zero mask, its per-slice count (a bool sum) and the total read back,
// then grad · (result / input); the count and the mask die last.
func (rt *Runtime) prodDimBackward(g, inp, res *Tensor, dim int64, keepdim bool) (*Tensor, error) {
	w, err := wrapDim(dim, len(inp.shape))
	if err != nil {
		return nil, err
	}
	g, res = g.Retain(), res.Retain()
	defer func() { g.Release(); res.Release() }()
	if !keepdim {
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
	zero, err := rt.CompareScalar("eq", inp)
	if err != nil {
		return nil, err
	}
	defer zero.Release()
	count, err := rt.sumBool(zero, []int64{int64(w)}, true)
	if err != nil {
		return nil, err
	}
	defer count.Release()
	total, err := rt.Sum(count, nil, false, nil)
	if err != nil {
		return nil, err
	}
	total.Release()
	return rt.gradTimesRatio(g, res, inp)
}

// gradTimesRatio is grad * (result / input): the ratio freed after the
// product exists.
func (rt *Runtime) gradTimesRatio(g, res, inp *Tensor) (*Tensor, error) {
	q, err := rt.Div(res, inp)
	if err != nil {
		return nil, err
	}
	defer q.Release()
	return rt.Mul(g, q)
}
