package torch

import "sort"

// Reductions of PyTorch 2.11 beyond sum/mean/max: count_nonzero, aminmax,
// std_mean/var_mean, and the derivative helpers they share. On CUDA
// count_nonzero is (self != 0).sum(dims); aminmax is one reduction kernel
// with two outputs (no derivative: a NotImplemented node under autograd);
// std_mean/var_mean run the Welford kernel once for both outputs, and their
// backward (std_mean_backward / var_mean_backward in FunctionsManual.cpp)
// is var_backward's formula, plus mean_backward and a sum when the mean's
// gradient is defined.

// CountNonzero is torch.count_nonzero(t, dims) (nil: every dim): an int64
// count, no gradient; a bool t is summed directly (no mask copy).
func (rt *Runtime) CountNonzero(t *Tensor, dims []int64) (*Tensor, error) {
	var out *Tensor
	err := rt.noGrad(func() error {
		ne := t.Retain() // a bool input is summed as it is (measured)
		if t.dtype != Bool {
			var err error
			ne.Release()
			if ne, err = rt.CompareNumber("ne", t, Int(0)); err != nil {
				return err
			}
		}
		defer ne.Release()
		var err error
		if dims == nil {
			dims = []int64{}
		}
		out, err = rt.Sum(ne, dims, false, nil)
		return err
	})
	return out, err
}

// Aminmax is torch.aminmax(t, dim=dim, keepdim=keepdim) (dim nil: over
// everything): (min, max) of t's dtype.
func (rt *Runtime) Aminmax(t *Tensor, dim *int64, keepdim bool) (*Tensor, *Tensor, error) {
	var dims []int64
	if dim != nil {
		dims = []int64{*dim}
	} else if len(t.shape) > 0 && t.Numel() == 0 {
		return nil, nil, Errorf(RuntimeError, "aminmax(): cannot compute aminmax over an empty dimension as the operation has no identity.")
	}
	if t.dtype.IsComplex() {
		return nil, nil, Errorf(RuntimeError, "aminmax(): input tensor must be real, got complex")
	}
	lo, err := rt.reduceOut("aminmax", t, dims, keepdim, t.dtype)
	if err != nil {
		return nil, nil, err
	}
	hi, err := rt.reduceOut("aminmax", t, dims, keepdim, t.dtype)
	if err != nil {
		lo.Release()
		return nil, nil, err
	}
	if err := rt.reduceKernel(t, dims, 2*accSize(t.dtype)); err != nil {
		lo.Release()
		hi.Release()
		return nil, nil, err
	}
	rt.notImplementedNode("aminmax", []*Tensor{t}, lo, hi)
	return lo, hi, nil
}

// notImplementedNode records the NotImplemented node PyTorch's codegen
// gives an op without a derivative formula: its backward raises.
func (rt *Runtime) notImplementedNode(op string, inputs []*Tensor, outs ...*Tensor) {
	n := rt.record("NotImplemented", inputs...)
	n.finish(func(n *Node, g []*Tensor) ([]*Tensor, error) {
		return nil, Errorf(RuntimeError, "derivative for aten::%s is not implemented", op)
	}, outs...)
}

// StdVarMean is torch.std_mean / torch.var_mean (op "std" or "var") over
// dims (nil: all) with the given correction: (std or var, mean), both of
// the input's dtype.
func (rt *Runtime) StdVarMean(op string, t *Tensor, dims []int64, correction float64, keepdim bool) (*Tensor, *Tensor, error) {
	if !t.dtype.IsFloating() && !t.dtype.IsComplex() {
		return nil, nil, Errorf(RuntimeError, "%s_mean only support floating point and complex dtypes", op)
	}
	sv, err := rt.reduceOut(op+"_mean", t, dims, keepdim, t.dtype)
	if err != nil {
		return nil, nil, err
	}
	mean, err := rt.reduceOut(op+"_mean", t, dims, keepdim, t.dtype)
	if err != nil {
		sv.Release()
		return nil, nil, err
	}
	if err := rt.reduceKernel(t, dims, 16); err != nil { // WelfordData
		sv.Release()
		mean.Release()
		return nil, nil, err
	}
	name := "VarMeanBackward0"
	if op == "std" {
		name = "StdMeanBackward0"
	}
	in := cloneShape(t.shape)
	dimsC := copyDims(dims)
	n := rt.record(name, t)
	if n != nil {
		n.save(t, false)
		if op == "std" {
			n.save(sv, true)
		}
	}
	n.finish(func(n *Node, g []*Tensor) ([]*Tensor, error) {
		self, err := n.unpack(0)
		if err != nil {
			return nil, err
		}
		defer self.Release()
		var gself *Tensor
		if g[0] != nil {
			gv := g[0].Retain()
			if op == "std" {
				res, err := n.unpack(1)
				if err != nil {
					gv.Release()
					return nil, err
				}
				gv2, err := rt.stdGradVar(g[0], res)
				res.Release()
				gv.Release()
				if err != nil {
					return nil, err
				}
				gv = gv2
			}
			gself, err = rt.varBackward(gv, self, dimsC, correction, keepdim)
			gv.Release()
			if err != nil {
				return nil, err
			}
		}
		if len(g) > 1 && g[1] != nil {
			aux, err := rt.meanBackward(g[1], in, dimsC, keepdim)
			if err != nil {
				gself.Release()
				return nil, err
			}
			if gself == nil {
				return []*Tensor{aux}, nil
			}
			sum, err := rt.Add(gself, aux, 1)
			gself.Release()
			aux.Release()
			return []*Tensor{sum}, err
		}
		return []*Tensor{gself}, nil
	}, sv, mean)
	return sv, mean, nil
}

// stdGradVar is std_backward's (grad / (result * 2)).masked_fill_(result
// == 0, 0): result * 2, the quotient, the mask (dies first, then the
// product).
func (rt *Runtime) stdGradVar(g, res *Tensor) (*Tensor, error) {
	var c exprChain
	two := c.then(func() (*Tensor, error) { return rt.MulScalar(res, Int(2)) })
	q := c.then(func() (*Tensor, error) { return rt.Div(g, two) })
	c.then(func() (*Tensor, error) { return rt.CompareNumber("eq", res, Int(0)) })
	if c.err != nil {
		c.release()
		return nil, c.err
	}
	// q survives as the result: drop the mask, then the product
	c.ts[2].Release()
	c.ts[0].Release()
	return q, nil
}

// unsqueezeReduced is unsqueeze_multiple(g, dims, ndim): g with the
// reduced dims put back as size 1 (views).
func (rt *Runtime) unsqueezeReduced(g *Tensor, dims []int64, ndim int) (*Tensor, error) {
	ws := make([]int, 0, len(dims))
	for _, d := range dims {
		w, err := wrapDim(d, ndim)
		if err != nil {
			return nil, err
		}
		ws = append(ws, w)
	}
	sort.Ints(ws)
	cur := g.Retain()
	for _, w := range ws {
		u, err := rt.Unsqueeze(cur, int64(w))
		cur.Release()
		if err != nil {
			return nil, err
		}
		cur = u
	}
	return cur, nil
}

// varBackward is var_backward(grad, self, dims, correction, keepdim):
// (2 / (n - correction)) * grad * (self - self.mean(dims, true)); the
// right operand first (the mean, the difference), then the scaled
// gradient and the product; the temporaries die newest first.
func (rt *Runtime) varBackward(g, self *Tensor, dims []int64, correction float64, keepdim bool) (*Tensor, error) {
	ndim := len(self.shape)
	all := dims == nil || ndim == 0
	var n int64 = 1
	if all {
		n = self.Numel()
	} else {
		_, red, err := reduceShape(self.shape, dims, false)
		if err != nil {
			return nil, err
		}
		for i, r := range red {
			if r {
				n *= self.shape[i]
			}
		}
	}
	gg := g.Retain()
	if !all && !keepdim && ndim > 1 {
		u, err := rt.unsqueezeReduced(g, dims, ndim)
		gg.Release()
		if err != nil {
			return nil, err
		}
		gg = u
	}
	defer gg.Release()
	k := 2 / (float64(n) - correction)
	var c exprChain
	m := c.then(func() (*Tensor, error) {
		if all {
			return rt.Mean(self, nil, false, nil)
		}
		return rt.Mean(self, dims, true, nil)
	})
	d := c.then(func() (*Tensor, error) { return rt.Sub(self, m, 1) })
	s := c.then(func() (*Tensor, error) { return rt.MulScalar(gg, Float(k)) })
	c.then(func() (*Tensor, error) { return rt.Mul(s, d) })
	return c.result()
}

// meanBackward is mean_backward: the gradient expanded to the input's
// shape divided by the count (one input-sized tensor).
func (rt *Runtime) meanBackward(g *Tensor, in []int64, dims []int64, keepdim bool) (*Tensor, error) {
	cnt := int64(1)
	_, red, err := reduceShape(in, dims, keepdim)
	if err != nil {
		return nil, err
	}
	for i, r := range red {
		if r {
			cnt *= in[i]
		}
	}
	var e *Tensor
	if dims == nil {
		e, err = rt.Expand(g, in)
	} else {
		e, err = rt.sumBackward(g, in, dims, keepdim)
	}
	if err != nil {
		return nil, err
	}
	defer e.Release()
	return rt.DivScalar(e, Int(cnt))
}

// AmaxDims is torch.amax / torch.amin (op) over dims with keepdim: one
// reduction output of t's dtype. AmaxBackward0/AminBackward0 save self and
// the result; the backward is scale_grad_by_count(restore(grad),
// restore(result) == self, dims) = (grad / mask.sum(dims, true)) * mask:
// the mask (arguments right to left), the int64 count (sum of a bool: a
// converted copy), the quotient, the product; the quotient, count and
// mask die in that order.
func (rt *Runtime) AmaxDims(op string, t *Tensor, dims []int64, keepdim bool) (*Tensor, error) {
	out, err := rt.reduceOut(op, t, dims, keepdim, t.dtype)
	if err != nil {
		return nil, err
	}
	if err := rt.reduceKernel(t, dims, max(4, t.dtype.Size())); err != nil {
		out.Release()
		return nil, err
	}
	ndim := len(t.shape)
	dimsC := copyDims(dims)
	n := rt.record(capitalize(op)+"Backward0", t)
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
		gg, rr := g[0].Retain(), res.Retain()
		if !keepdim && len(dimsC) > 0 {
			gu, err := rt.unsqueezeReduced(g[0], dimsC, ndim)
			if err != nil {
				gg.Release()
				rr.Release()
				return nil, err
			}
			gg.Release()
			gg = gu
			ru, err := rt.unsqueezeReduced(res, dimsC, ndim)
			if err != nil {
				gg.Release()
				rr.Release()
				return nil, err
			}
			rr.Release()
			rr = ru
		}
		defer gg.Release()
		defer rr.Release()
		var c exprChain
		mask := c.then(func() (*Tensor, error) { return rt.Compare("eq", rr, self) })
		cnt := c.then(func() (*Tensor, error) {
			ds := dimsC
			if len(ds) == 0 {
				ds = make([]int64, ndim)
				for i := range ds {
					ds[i] = int64(i)
				}
			}
			return rt.Sum(mask, ds, true, nil)
		})
		q := c.then(func() (*Tensor, error) { return rt.Div(gg, cnt) })
		c.then(func() (*Tensor, error) { return rt.Mul(q, mask) })
		r, err := c.result()
		return []*Tensor{r}, err
	}, out)
	return out, nil
}
