package torch

// F.kl_div and torch.xlogy. at::kl_div is CompositeImplicitAutograd in
// PyTorch 2.11 (Loss.cpp), so its graph is made of the ops it calls:
//
//	log_target: exp(target) * (target - input)
//	otherwise:  xlogy(target, target) - target * input
//
// then apply_loss_reduction (mean/sum; F.kl_div sends "batchmean" as sum
// and divides the result by input.size(0) in Python: DivBackward0 with a
// wrapped number). GCC evaluates an overloaded operator's operands right
// to left, so the right operand's temporaries come first.

// KLDiv is F.kl_div(input, target, reduction, log_target); reduction is
// "none", "mean", "sum" or "batchmean".
func (rt *Runtime) KLDiv(x, target *Tensor, reduction string, logTarget bool) (*Tensor, error) {
	if x.dtype.IsComplex() || target.dtype.IsComplex() {
		return nil, Errorf(RuntimeError, "kl_div: Complex inputs not supported.")
	}
	if x.dtype.IsIntegral(true) || target.dtype.IsIntegral(true) {
		return nil, Errorf(RuntimeError, "kl_div: Integral inputs not supported.")
	}
	ins, release, err := rt.autocastFP32(x, target) // kl_div is on autocast's fp32 list
	if err != nil {
		return nil, err
	}
	if release != nil {
		defer release()
		x, target = ins[0], ins[1]
	}
	out, err := rt.klDivPointwise(x, target, logTarget)
	if err != nil {
		return nil, err
	}
	var red *Tensor
	switch reduction {
	case "none":
		return out, nil
	case "mean":
		red, err = rt.Mean(out, nil, false, nil)
	default: // sum, batchmean
		red, err = rt.Sum(out, nil, false, nil)
	}
	out.Release()
	if err != nil || reduction != "batchmean" || len(x.shape) == 0 {
		return red, err
	}
	defer red.Release()
	return rt.DivScalar(red, Int(x.shape[0]))
}

// klDivPointwise is kl_div's unreduced output.
func (rt *Runtime) klDivPointwise(x, target *Tensor, logTarget bool) (*Tensor, error) {
	var a, b *Tensor
	var err error
	defer func() {
		// temporaries die in reverse order of construction (a then b)
		releaseAll([]*Tensor{a, b})
	}()
	if logTarget {
		if b, err = rt.Sub(target, x, 1); err != nil {
			return nil, err
		}
		if a, err = rt.Exp(target); err != nil {
			return nil, err
		}
		return rt.Mul(a, b)
	}
	if b, err = rt.Mul(target, x); err != nil {
		return nil, err
	}
	if a, err = rt.Xlogy(target, target); err != nil {
		return nil, err
	}
	return rt.Sub(a, b, 1)
}

// Xlogy is torch.xlogy(a, b) for two tensors: one output of the broadcast
// shape in the promoted floating type. XlogyBackward0 saves self and other;
// its generated code computes other's gradient first, grad * self / other
// (the product dies after the division), then self's,
// xlogy(grad, other).masked_fill((self == 0.) & (other <= 0.), 0.) (the
// xlogy, the two comparisons and their & die after the masked_fill,
// newest first); measured in q19_transformer_losses (kl_div with a target
// requiring grad).
func (rt *Runtime) Xlogy(a, b *Tensor) (*Tensor, error) {
	dt := ResultType([]*Tensor{a, b}, nil)
	if !dt.IsFloating() {
		dt = Float32
	}
	out, err := rt.pointwiseOut("xlogy", dt, a, b)
	if err != nil {
		return nil, err
	}
	n := rt.record("XlogyBackward0", a, b)
	if n != nil {
		n.save(a, false)
		n.save(b, false)
	}
	n.finish(func(n *Node, g []*Tensor) ([]*Tensor, error) {
		res := make(gradSlot, 2)
		self, err := n.unpack(0)
		if err != nil {
			return res.fail(err)
		}
		defer self.Release()
		other, err := n.unpack(1)
		if err != nil {
			return res.fail(err)
		}
		defer other.Release()
		if n.needsInput(1) {
			t, err := rt.Mul(g[0], self)
			if err != nil {
				return res.fail(err)
			}
			r, err := rt.Div(t, other)
			t.Release()
			if err != nil {
				return res.fail(err)
			}
			res[1] = r
		}
		if n.needsInput(0) {
			r, err := rt.xlogySelfGrad(g[0], self, other)
			if err != nil {
				return res.fail(err)
			}
			res[0] = r
		}
		return res, nil
	}, out)
	return out, nil
}

// xlogySelfGrad is xlogy(grad, other).masked_fill((self == 0.) &
// (other <= 0.), 0.).
func (rt *Runtime) xlogySelfGrad(g, self, other *Tensor) (*Tensor, error) {
	var tmps []*Tensor
	defer func() {
		for i := len(tmps) - 1; i >= 0; i-- {
			tmps[i].Release()
		}
	}()
	step := func(t *Tensor, err error) (*Tensor, error) {
		if err == nil {
			tmps = append(tmps, t)
		}
		return t, err
	}
	xl, err := step(rt.Xlogy(g, other))
	if err != nil {
		return nil, err
	}
	z, err := step(rt.CompareNumber("eq", self, Float(0)))
	if err != nil {
		return nil, err
	}
	le, err := step(rt.CompareNumber("le", other, Float(0)))
	if err != nil {
		return nil, err
	}
	m, err := step(rt.BinaryNoGrad("bitwise_and", z, le))
	if err != nil {
		return nil, err
	}
	return rt.MaskedFill(xl, m, Float(0), nil)
}
