package torch

import "strconv"

// F.cross_entropy's other branches in PyTorch 2.11 (LossNLL.cpp
// cross_entropy_loss_symint): class-probability targets (input and target
// of the same shape: cross_entropy_loss_prob_target) and class indices with
// label_smoothing > 0 (cross_entropy_loss_label_smoothing). Both are
// composite: the graph is made of the ops they call, in C++ evaluation
// order (GCC: an overloaded operator's right operand first; temporaries die
// at the end of their statement, newest first; locals at return, newest
// first). Tensor op Scalar in C++ is the .Scalar overload (MulBackward1,
// DivBackward1), unlike Python numbers (wrapped: *Backward0).

// CrossEntropyArgs are F.cross_entropy's arguments beyond input and target.
type CrossEntropyArgs struct {
	Reduction      string
	IgnoreIndex    int64
	LabelSmoothing float64
	Weight         *Tensor // nil: none
}

// CrossEntropyFull is F.cross_entropy with every branch: probability
// targets, label smoothing, or the plain log_softmax + nll_loss.
func (rt *Runtime) CrossEntropyFull(x, target *Tensor, a CrossEntropyArgs) (*Tensor, error) {
	if sameShape(x.shape, target.shape) {
		if !target.dtype.IsFloating() {
			return nil, Errorf(RuntimeError, "Expected floating point type for target with class probabilities, got %s", target.dtype.cppName())
		}
		if a.IgnoreIndex >= 0 {
			return nil, Errorf(RuntimeError, "ignore_index is not supported for floating point target")
		}
		if a.Weight != nil {
			return nil, Errorf(NotImplementedError, "cross_entropy(weight=...) with class-probability targets is not simulated")
		}
		return rt.crossEntropyProb(x, target, a.Reduction, a.LabelSmoothing)
	}
	if a.LabelSmoothing > 0 {
		if a.LabelSmoothing > 1 {
			return nil, Errorf(RuntimeError, "label_smoothing must be between 0.0 and 1.0. Got: %s", strconv.FormatFloat(a.LabelSmoothing, 'g', -1, 64))
		}
		if a.Weight != nil {
			return nil, Errorf(NotImplementedError, "cross_entropy(weight=..., label_smoothing=...) is not simulated")
		}
		return rt.crossEntropyLS(x, target, a.Reduction, a.IgnoreIndex, a.LabelSmoothing)
	}
	return rt.CrossEntropy(x, target, a.Reduction)
}

// classDim is cross_entropy's class dimension.
func classDim(x *Tensor) int64 {
	if len(x.shape) == 1 {
		return 0
	}
	return 1
}

// crossEntropyLS is cross_entropy_loss_label_smoothing without weights.
func (rt *Runtime) crossEntropyLS(x, target *Tensor, reduction string, ignore int64, ls float64) (*Tensor, error) {
	cd := classDim(x)
	dt := x.dtype
	input, err := rt.Softmax(x, cd, true, &dt)
	if err != nil {
		return nil, err
	}
	var locals []*Tensor // released newest first at return
	defer func() {
		for i := len(locals) - 1; i >= 0; i-- {
			locals[i].Release()
		}
	}()
	locals = append(locals, input)
	nll, err := rt.NllLoss(input, target, reduction)
	if err != nil {
		return nil, err
	}
	locals = append(locals, nll)
	nClasses := input.shape[cd]
	// smooth_loss = -input.sum(class_dim)
	s, err := rt.Sum(input, []int64{cd}, false, nil)
	if err != nil {
		return nil, err
	}
	smooth, err := rt.Neg(s)
	s.Release()
	if err != nil {
		return nil, err
	}
	locals = append(locals, smooth)
	mask, err := rt.CompareNumber("eq", target, Int(ignore))
	if err != nil {
		return nil, err
	}
	locals = append(locals, mask)
	r, err := rt.MaskedFillInplace(smooth, mask, Float(0), nil)
	if err != nil {
		return nil, err
	}
	r.Release()
	var ret *Tensor
	switch reduction {
	case "mean":
		ret, err = rt.lsMean(smooth, mask)
	case "sum":
		ret, err = rt.Sum(smooth, nil, false, nil)
	default:
		ret, err = smooth.Retain(), nil
	}
	if err != nil {
		return nil, err
	}
	locals = append(locals, ret)
	// (1 - label_smoothing) * nllloss + ret * (label_smoothing / n_classes)
	b, err := rt.scalarOp1("mul", ret, ls/float64(nClasses))
	if err != nil {
		return nil, err
	}
	defer b.Release()
	a, err := rt.scalarOp1("mul", nll, 1-ls)
	if err != nil {
		return nil, err
	}
	defer a.Release()
	return rt.Add(a, b, 1)
}

// lsMean is label smoothing's mean without weights:
// smooth_loss.sum() / (~ignore_mask).sum().
func (rt *Runtime) lsMean(smooth, mask *Tensor) (*Tensor, error) {
	trueMask, err := rt.UnaryNoGrad("bitwise_not", mask)
	if err != nil {
		return nil, err
	}
	defer trueMask.Release()
	cnt, err := rt.Sum(trueMask, nil, false, nil)
	if err != nil {
		return nil, err
	}
	defer cnt.Release()
	tot, err := rt.Sum(smooth, nil, false, nil)
	if err != nil {
		return nil, err
	}
	defer tot.Release()
	return rt.Div(tot, cnt)
}

// crossEntropyProb is cross_entropy_loss_prob_target without weights.
func (rt *Runtime) crossEntropyProb(x, target *Tensor, reduction string, ls float64) (*Tensor, error) {
	cd := classDim(x)
	nClasses := x.shape[cd]
	if ls > 1 {
		return nil, Errorf(RuntimeError, "label_smoothing must be between 0.0 and 1.0. Got: %s", strconv.FormatFloat(ls, 'g', -1, 64))
	}
	dt := x.dtype
	input, err := rt.Softmax(x, cd, true, &dt)
	if err != nil {
		return nil, err
	}
	defer input.Release()
	tg := target.Retain()
	if ls > 0 {
		// target_ * (1 - label_smoothing) + (label_smoothing / n_classes)
		t1, err := rt.scalarOp1("mul", target, 1-ls)
		if err != nil {
			tg.Release()
			return nil, err
		}
		t2, err := rt.scalarOp1("add", t1, ls/float64(nClasses))
		t1.Release()
		tg.Release()
		if err != nil {
			return nil, err
		}
		tg = t2
	}
	defer tg.Release()
	p, err := rt.Mul(input, tg)
	if err != nil {
		return nil, err
	}
	defer p.Release()
	var dims []int64
	if reduction == "none" {
		dims = []int64{cd}
	}
	s, err := rt.Sum(p, dims, false, nil)
	if err != nil {
		return nil, err
	}
	defer s.Release()
	ng, err := rt.Neg(s)
	if err != nil || reduction != "mean" {
		return ng, err
	}
	defer ng.Release()
	if x.Numel() == 0 {
		return nil, Errorf(NotImplementedError, "cross_entropy of an empty input (NaN fill) is not simulated")
	}
	return rt.scalarOp1("div", ng, float64(x.Numel()/nClasses))
}

// scalarOp1 is a C++ `tensor op scalar` (mul/add/div .Scalar overloads:
// MulBackward1, AddBackward1, DivBackward1): one output like a; the
// gradient is grad scaled (mul, div) or passed through (add).
func (rt *Runtime) scalarOp1(op string, a *Tensor, s float64) (*Tensor, error) {
	out, err := rt.unaryOut(op, a, scalarResult(a, Float(s)))
	if err != nil {
		return nil, err
	}
	if rt.exec != nil {
		switch op {
		case "mul":
			rt.compute1(ExecAffine, out, []*Tensor{a}, s, 0)
		case "div":
			rt.compute1(ExecAffine, out, []*Tensor{a}, 1/s, 0)
		default:
			rt.compute1(ExecAffine, out, []*Tensor{a}, 1, s)
		}
	}
	name := map[string]string{"mul": "MulBackward1", "add": "AddBackward1", "div": "DivBackward1"}[op]
	n := rt.record(name, a)
	if op == "add" {
		n.finish(passThrough, out)
		return out, nil
	}
	n.finish(func(n *Node, g []*Tensor) ([]*Tensor, error) {
		// grad * other / grad / other (the .Scalar overloads, no grad mode)
		r, err := rt.scalarOp1(op, g[0], s)
		return []*Tensor{r}, err
	}, out)
	return out, nil
}
