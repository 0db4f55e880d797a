package torch

import "math"

// The building blocks of ATen's composite margin losses (Loss.cpp,
// Distance.cpp in PyTorch 2.11) that the Python-facing ops do not offer
// with C++'s semantics: in-place clamp_min_ and sqrt_ with autograd,
// Scalar - Tensor as TensorOperators.h writes it, minimum with
// MinimumBackward0, and apply_loss_reduction.

// lossLocals holds a composite's C++ locals and full-expression
// temporaries; drop releases them in reverse order of construction, as
// C++ destroys them.
type lossLocals []*Tensor

func (l *lossLocals) keep(t *Tensor) *Tensor {
	*l = append(*l, t)
	return t
}

func (l *lossLocals) drop() {
	for i := len(*l) - 1; i >= 0; i-- {
		(*l)[i].Release()
	}
	*l = nil
}

// applyLossReduction is Loss.cpp's apply_loss_reduction: unreduced.mean(),
// .sum(), or the tensor itself (a new reference) for "none".
func (rt *Runtime) applyLossReduction(t *Tensor, reduction string) (*Tensor, error) {
	switch reduction {
	case "mean":
		return rt.Mean(t, nil, false, nil)
	case "sum":
		return rt.Sum(t, nil, false, nil)
	}
	return t.Retain(), nil
}

// scalarMinus is C++'s `s - y` for a Scalar s (TensorOperators.h):
// at::empty_like(y, preserve).fill_(s).sub_(y) — one allocation, and a
// SubBackward0 from the in-place sub_ when y requires grad.
func (rt *Runtime) scalarMinus(s float64, y *Tensor) (*Tensor, error) {
	strides, err := formatStrides(y.shape, PreserveFormat, y)
	if err != nil {
		return nil, err
	}
	t, err := rt.empty("empty_like", y.shape, strides, y.dtype, y.device)
	if err != nil {
		return nil, err
	}
	f, err := rt.InplaceUnaryInit("fill", t, ExecFill, s)
	if err != nil {
		t.Release()
		return nil, err
	}
	f.Release()
	r, err := rt.InplaceBinary("sub", t, y, Scalar{}, 1)
	t.Release()
	return r, err
}

// clampMinInplace is t.clamp_min_(lo) on a fresh (non-view) tensor.
// ClampMinBackward0's formula reads self, so the autograd kernel saves a
// clone of the original self before the op runs (original_self); its
// backward is ClampMin's: where(self >= lo, grad, zeros({})).
func (rt *Runtime) clampMinInplace(t *Tensor, lo float64) (*Tensor, error) {
	if err := rt.inplace(t); err != nil {
		return nil, err
	}
	n := rt.record("ClampMinBackward0", t)
	if n != nil {
		strides, err := formatStrides(t.shape, PreserveFormat, t)
		if err != nil {
			return nil, err
		}
		orig, err := rt.empty("clone", t.shape, strides, t.dtype, t.device)
		if err != nil {
			return nil, err
		}
		if rt.exec != nil {
			rt.compute1(ExecCopy, orig, []*Tensor{t})
		}
		n.save(orig, false)
		orig.Release()
	}
	if rt.exec != nil {
		rt.compute1(ExecClamp, t, []*Tensor{t}, lo, math.Inf(1))
	}
	n.rebase(rt.clampMinGrad, t)
	return t.Retain(), nil
}

// clampMinGrad is ClampMinBackward0's backward: a 0-dim zero, the
// self >= min mask and the where result; the temporaries die after it.
func (rt *Runtime) clampMinGrad(n *Node, g []*Tensor) ([]*Tensor, error) {
	self, err := n.unpack(0)
	if err != nil {
		return nil, err
	}
	defer self.Release()
	zero, err := rt.empty("zeros", []int64{}, nil, g[0].dtype, g[0].device)
	if err != nil {
		return nil, err
	}
	defer zero.Release()
	mask, err := rt.pointwiseOut("ge", Bool, self)
	if err != nil {
		return nil, err
	}
	defer mask.Release()
	r, err := rt.pointwiseOut("where", g[0].dtype, mask, g[0])
	if err == nil && rt.exec != nil {
		rt.markNotComputed(r)
	}
	return []*Tensor{r}, err
}

// sqrtInplace is t.sqrt_() (SqrtBackward0 saves the result, the tensor
// itself; grad / (2 * result)).
func (rt *Runtime) sqrtInplace(t *Tensor) (*Tensor, error) {
	if err := rt.inplace(t); err != nil {
		return nil, err
	}
	if rt.exec != nil {
		rt.compute1(ExecKind("sqrt"), t, []*Tensor{t})
	}
	n := rt.record("SqrtBackward0", t)
	if n != nil {
		n.save(t, true)
		n.rebase(func(n *Node, g []*Tensor) ([]*Tensor, error) {
			r, err := n.unpack(0)
			if err != nil {
				return nil, err
			}
			defer r.Release()
			two, err := rt.MulScalar(r, Float(2))
			if err != nil {
				return nil, err
			}
			defer two.Release()
			o, err := rt.Div(g[0], two)
			return []*Tensor{o}, err
		}, t)
	}
	return t.Retain(), nil
}

// minimum is at::minimum(a, b) with autograd (MinimumBackward0 saves both):
// each gradient is where(a == b, grad / 2, grad).masked_fill_(a > b, 0)
// (for b: a < b), GCC evaluating where's arguments right to left; b's is
// computed first.
func (rt *Runtime) minimum(a, b *Tensor) (*Tensor, error) {
	dt := ResultType([]*Tensor{a, b}, nil)
	out, err := rt.pointwiseOut("minimum", dt, a, b)
	if err != nil {
		return nil, err
	}
	if rt.exec != nil {
		rt.compute1(ExecMinimum, out, []*Tensor{a, b})
	}
	n := rt.record("MinimumBackward0", a, b)
	if n != nil {
		n.save(a, false)
		n.save(b, false)
	}
	n.finish(func(n *Node, g []*Tensor) ([]*Tensor, error) {
		res := make(gradSlot, 2)
		// other's gradient first: q23's triplet swap=True backward frees
		// the grads in this order (measured; the source order is not
		// understood)
		for i := 1; i >= 0; i-- {
			if !n.needsInput(i) {
				continue
			}
			var tmp lossLocals
			half, err := rt.DivScalar(g[0], Int(2))
			if err != nil {
				return res.fail(err)
			}
			tmp.keep(half)
			x, err := n.unpack(0)
			if err != nil {
				tmp.drop()
				return res.fail(err)
			}
			y, err := n.unpack(1)
			if err != nil {
				x.Release()
				tmp.drop()
				return res.fail(err)
			}
			eq, err := rt.Compare("eq", x, y)
			if err == nil {
				tmp.keep(eq)
				var w, cmp *Tensor
				if w, err = rt.pointwiseOut("where", g[0].dtype, eq, half, g[0]); err == nil {
					tmp.keep(w)
					op := "gt"
					if i == 1 {
						op = "lt"
					}
					if cmp, err = rt.Compare(op, x, y); err == nil {
						tmp.keep(cmp)
						if rt.exec != nil {
							rt.markNotComputed(w)
						}
						res[i] = w.Retain()
					}
				}
			}
			x.Release()
			y.Release()
			tmp.drop()
			if err != nil {
				return res.fail(err)
			}
		}
		return res, nil
	}, out)
	return out, nil
}
