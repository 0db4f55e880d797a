package torch

// The composite (CompositeImplicitAutograd) margin and embedding losses of
// ATen's Loss.cpp and Distance.cpp, PyTorch 2.11, op by op as the C++ runs
// them: GCC evaluates an overloaded operator's operands right to left,
// full-expression temporaries die at the end of their statement and
// locals at the end of the function (after the reduction), in reverse
// order. Their autograd graphs are those of the ops (no loss node); all
// are on autocast's fp32 list.

// withFP32 runs f on ts cast as autocast's fp32 policy casts them.
func (rt *Runtime) withFP32(f func(ts []*Tensor) (*Tensor, error), ts ...*Tensor) (*Tensor, error) {
	ins, release, err := rt.autocastFP32(ts...)
	if err != nil {
		return nil, err
	}
	if release != nil {
		defer release()
	}
	return f(ins)
}

// MarginRankingLoss is torch.margin_ranking_loss:
// (-target * (input1 - input2) + margin).clamp_min_(0), reduced.
func (rt *Runtime) MarginRankingLoss(x1, x2, target *Tensor, margin float64, reduction string) (*Tensor, error) {
	return rt.withFP32(func(ts []*Tensor) (*Tensor, error) {
		x1, x2, target := ts[0], ts[1], ts[2]
		var tmp, locals lossLocals
		defer locals.drop()
		d, err := rt.Sub(x1, x2, 1)
		if err != nil {
			return nil, err
		}
		tmp.keep(d)
		nt, err := rt.Neg(target)
		if err != nil {
			tmp.drop()
			return nil, err
		}
		tmp.keep(nt)
		m, err := rt.Mul(nt, d)
		if err != nil {
			tmp.drop()
			return nil, err
		}
		tmp.keep(m)
		u, err := rt.AddScalar(m, Float(margin))
		tmp.drop()
		if err != nil {
			return nil, err
		}
		locals.keep(u)
		out, err := rt.clampMinInplace(u, 0)
		if err != nil {
			return nil, err
		}
		locals.keep(out)
		return rt.applyLossReduction(out, reduction)
	}, x1, x2, target)
}

// HingeEmbeddingLoss is torch.hinge_embedding_loss: where(target != 1,
// (margin - self).clamp_min_(0), zeros) + where(target != -1, self,
// zeros), reduced.
func (rt *Runtime) HingeEmbeddingLoss(x, target *Tensor, margin float64, reduction string) (*Tensor, error) {
	return rt.withFP32(func(ts []*Tensor) (*Tensor, error) {
		x, target := ts[0], ts[1]
		var locals lossLocals
		defer locals.drop()
		zeros, err := rt.ZerosLike(x)
		if err != nil {
			return nil, err
		}
		locals.keep(zeros)
		diff, err := rt.scalarMinus(margin, x)
		if err != nil {
			return nil, err
		}
		locals.keep(diff)
		clamped, err := rt.clampMinInplace(diff, 0)
		if err != nil {
			return nil, err
		}
		locals.keep(clamped)
		om, err := rt.whereScalarMask("ne", target, clamped, zeros)
		if err != nil {
			return nil, err
		}
		locals.keep(om)
		os, err := rt.whereScalarMask("ne", target, x, zeros)
		if err != nil {
			return nil, err
		}
		locals.keep(os)
		out, err := rt.Add(om, os, 1)
		if err != nil {
			return nil, err
		}
		locals.keep(out)
		return rt.applyLossReduction(out, reduction)
	}, x, target)
}

// whereScalarMask is at::where(target OP value, a, b): the comparison is a
// full-expression temporary (WhereBackward0 keeps it when a or b requires
// grad).
func (rt *Runtime) whereScalarMask(op string, target, a, b *Tensor) (*Tensor, error) {
	mask, err := rt.CompareScalar(op, target)
	if err != nil {
		return nil, err
	}
	defer mask.Release()
	return rt.Where(mask, a, b)
}

// CosineEmbeddingLoss is torch.cosine_embedding_loss.
func (rt *Runtime) CosineEmbeddingLoss(x1, x2, target *Tensor, margin float64, reduction string) (*Tensor, error) {
	td := len(target.shape)
	if td != 0 && td != 1 {
		return nil, Errorf(RuntimeError, "0D or 1D target tensor expected, multi-target not supported")
	}
	if td == 1 && (len(x1.shape) != 2 || len(x2.shape) != 2) {
		return nil, Errorf(RuntimeError, "1D target tensor expects 2D input tensors, but found inputs with sizes %s and %s.", shapeList(x1.shape), shapeList(x2.shape))
	}
	if td == 0 && (len(x1.shape) != 1 || len(x2.shape) != 1) {
		return nil, Errorf(RuntimeError, "0D target tensor expects 1D input tensors, but found inputs with sizes %s and %s.", shapeList(x1.shape), shapeList(x2.shape))
	}
	return rt.withFP32(func(ts []*Tensor) (*Tensor, error) {
		x1, x2, target := ts[0], ts[1], ts[2]
		var locals lossLocals
		defer locals.drop()
		dim := []int64{int64(td)}
		// (a * b).sum(targ_dim): the product is a temporary
		prodSum := func(a, b *Tensor) (*Tensor, error) {
			p, err := rt.Mul(a, b)
			if err != nil {
				return nil, err
			}
			defer p.Release()
			return rt.Sum(p, dim, false, nil)
		}
		ps, err := prodSum(x1, x2)
		if err != nil {
			return nil, err
		}
		locals.keep(ps)
		mags := make([]*Tensor, 2)
		for i, x := range []*Tensor{x1, x2} {
			m, err := rt.magSquare(x, dim)
			if err != nil {
				return nil, err
			}
			mags[i] = locals.keep(m)
		}
		mm, err := rt.Mul(mags[0], mags[1])
		if err != nil {
			return nil, err
		}
		locals.keep(mm)
		denom, err := rt.sqrtInplace(mm)
		if err != nil {
			return nil, err
		}
		locals.keep(denom)
		cos, err := rt.Div(ps, denom)
		if err != nil {
			return nil, err
		}
		locals.keep(cos)
		zeros, err := rt.ZerosLike(cos)
		if err != nil {
			return nil, err
		}
		locals.keep(zeros)
		pos, err := rt.scalarMinus(1, cos)
		if err != nil {
			return nil, err
		}
		locals.keep(pos)
		cm, err := rt.SubScalar(cos, Float(margin))
		if err != nil {
			return nil, err
		}
		locals.keep(cm)
		neg, err := rt.clampMinInplace(cm, 0)
		if err != nil {
			return nil, err
		}
		locals.keep(neg)
		op, err := rt.whereScalarMask("eq", target, pos, zeros)
		if err != nil {
			return nil, err
		}
		locals.keep(op)
		on, err := rt.whereScalarMask("eq", target, neg, zeros)
		if err != nil {
			return nil, err
		}
		locals.keep(on)
		out, err := rt.Add(op, on, 1)
		if err != nil {
			return nil, err
		}
		locals.keep(out)
		return rt.applyLossReduction(out, reduction)
	}, x1, x2, target)
}

// pairwiseDist is ATen's pairwise_distance(x1, x2, p, eps, keepdim) as
// triplet_margin_loss calls it (F.pairwise_distance itself is H3's):
// at::norm(x1 - x2 + eps, p, innermost dim, keepdim) (NormBackward1 saves
// the shifted difference and the result; the raw difference is a
// temporary).
func (rt *Runtime) pairwiseDist(x1, x2 *Tensor, p, eps float64, keepdim bool) (*Tensor, error) {
	nd := max(len(x1.shape), len(x2.shape))
	d, err := rt.Sub(x1, x2, 1)
	if err != nil {
		return nil, err
	}
	defer d.Release()
	s, err := rt.AddScalar(d, Float(eps))
	if err != nil {
		return nil, err
	}
	defer s.Release()
	dim, err := WrapDim(int64(nd-1), max(nd, 1))
	if err != nil {
		return nil, err
	}
	out, err := rt.NormP(s, p, []int64{dim}, keepdim)
	if err == nil && out.gradFn != nil {
		out.gradFn.name = "NormBackward1" // at::norm's node, not linalg_vector_norm's
	}
	return out, err
}

// TripletMarginLoss is torch.triplet_margin_loss: pairwise distances to
// the positive and the negative (with swap, the smaller of the negative's
// distances to anchor and positive), clamp_min(margin + d_pos - d_neg, 0),
// reduced.
func (rt *Runtime) TripletMarginLoss(a, p, n *Tensor, margin, norm, eps float64, swap bool, reduction string) (*Tensor, error) {
	if len(a.shape) != len(p.shape) || len(p.shape) != len(n.shape) {
		return nil, Errorf(RuntimeError, "The anchor, positive, and negative tensors are expected to have the same number of dimensions, but got: anchor %dD, positive %dD, and negative %dD inputs", len(a.shape), len(p.shape), len(n.shape))
	}
	return rt.withFP32(func(ts []*Tensor) (*Tensor, error) {
		a, p, n := ts[0], ts[1], ts[2]
		var locals lossLocals
		defer locals.drop()
		dpos, err := rt.pairwiseDist(a, p, norm, eps, false)
		if err != nil {
			return nil, err
		}
		locals.keep(dpos)
		dneg, err := rt.pairwiseDist(a, n, norm, eps, false)
		if err != nil {
			return nil, err
		}
		if swap {
			ds, err := rt.pairwiseDist(p, n, norm, eps, false)
			if err != nil {
				dneg.Release()
				return nil, err
			}
			m, err := rt.minimum(dneg, ds)
			dneg.Release() // dist_neg = min(...): the old one goes
			ds.Release()   // dist_swap leaves its scope
			if err != nil {
				return nil, err
			}
			dneg = m
		}
		locals.keep(dneg)
		var tmp lossLocals
		t1, err := rt.AddScalar(dpos, Float(margin))
		if err != nil {
			return nil, err
		}
		tmp.keep(t1)
		t2, err := rt.Sub(t1, dneg, 1)
		if err != nil {
			tmp.drop()
			return nil, err
		}
		tmp.keep(t2)
		out, err := rt.ClampMin(t2, 0)
		tmp.drop()
		if err != nil {
			return nil, err
		}
		locals.keep(out)
		return rt.applyLossReduction(out, reduction)
	}, a, p, n)
}

// magSquare is (x * x).sum(dim) + EPSILON: the product and the sum are
// statement temporaries, freed (sum first) after the result is allocated.
func (rt *Runtime) magSquare(x *Tensor, dim []int64) (*Tensor, error) {
	var tmp lossLocals
	defer tmp.drop()
	p, err := rt.Mul(x, x)
	if err != nil {
		return nil, err
	}
	tmp.keep(p)
	s, err := rt.Sum(p, dim, false, nil)
	if err != nil {
		return nil, err
	}
	tmp.keep(s)
	return rt.AddScalar(s, Float(float64(float32(1e-12))))
}

// PoissonNLLLoss is torch.poisson_nll_loss: exp(input) - target * input
// (log_input) or input - target * log(input + eps), plus the Stirling
// term where target > 1 (full), reduced.
func (rt *Runtime) PoissonNLLLoss(x, target *Tensor, logInput, full bool, eps float64, reduction string) (*Tensor, error) {
	return rt.withFP32(func(ts []*Tensor) (*Tensor, error) {
		x, target := ts[0], ts[1]
		var locals lossLocals
		defer locals.drop()
		loss, err := rt.poissonCore(x, target, logInput, eps)
		if err != nil {
			return nil, err
		}
		locals.keep(loss)
		if full {
			st, err := rt.stirling(target)
			if err != nil {
				return nil, err
			}
			err = rt.addMaskedStirling(loss, st, target)
			st.Release()
			if err != nil {
				return nil, err
			}
		}
		return rt.applyLossReduction(loss, reduction)
	}, x, target)
}

// poissonCore is the loss before the Stirling term (one statement: its
// temporaries die before it returns).
func (rt *Runtime) poissonCore(x, target *Tensor, logInput bool, eps float64) (*Tensor, error) {
	var tmp lossLocals
	defer tmp.drop()
	if logInput {
		// at::exp(input) - target * input: the product first
		ti, err := rt.Mul(target, x)
		if err != nil {
			return nil, err
		}
		tmp.keep(ti)
		e, err := rt.Exp(x)
		if err != nil {
			return nil, err
		}
		tmp.keep(e)
		return rt.Sub(e, ti, 1)
	}
	// input - target * at::log(input + eps)
	s, err := rt.AddScalar(x, Float(eps))
	if err != nil {
		return nil, err
	}
	tmp.keep(s)
	l, err := rt.Log(s)
	if err != nil {
		return nil, err
	}
	tmp.keep(l)
	m, err := rt.Mul(target, l)
	if err != nil {
		return nil, err
	}
	tmp.keep(m)
	return rt.Sub(x, m, 1)
}

// stirling is target * log(target) - target + 0.5 * log(2π * target),
// the right operand of the outer + first.
func (rt *Runtime) stirling(target *Tensor) (*Tensor, error) {
	var tmp lossLocals
	defer tmp.drop()
	steps := []func() (*Tensor, error){
		func() (*Tensor, error) { return rt.MulScalar(target, Float(2*3.141592653589793)) },
		func() (*Tensor, error) { return rt.Log(tmp[0]) },
		func() (*Tensor, error) { return rt.MulScalar(tmp[1], Float(0.5)) },
		func() (*Tensor, error) { return rt.Log(target) },
		func() (*Tensor, error) { return rt.Mul(target, tmp[3]) },
		func() (*Tensor, error) { return rt.Sub(tmp[4], target, 1) },
	}
	for _, f := range steps {
		t, err := f()
		if err != nil {
			return nil, err
		}
		tmp.keep(t)
	}
	return rt.Add(tmp[5], tmp[2], 1)
}

// addMaskedStirling is loss += stirling_term.masked_fill(target <= 1, 0).
func (rt *Runtime) addMaskedStirling(loss, st, target *Tensor) error {
	mask, err := rt.CompareScalar("le", target)
	if err != nil {
		return err
	}
	defer mask.Release()
	mf, err := rt.MaskedFill(st, mask, Int(0), nil)
	if err != nil {
		return err
	}
	defer mf.Release()
	r, err := rt.InplaceBinary("add", loss, mf, Scalar{}, 1)
	if err != nil {
		return err
	}
	r.Release()
	return nil
}
