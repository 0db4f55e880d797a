package torch

// Loss functions beyond mse/nll (ops_nn.go), following PyTorch 2.11's ATen
// implementations allocation by allocation.

// lossReduce is apply_loss_reduction below autograd: unreduced.mean() or
// .sum() (the output, then the reduction's scratch buffers).
func (rt *Runtime) lossReduce(op string, t *Tensor, reduction string) (*Tensor, error) {
	dt := t.dtype
	if reduction == "sum" {
		dt = sumDType(dt)
	}
	out, err := rt.reduceOut(op, t, nil, false, dt)
	if err != nil {
		return nil, err
	}
	if err := rt.reduceKernel(t, nil, accSize(t.dtype)); err != nil {
		out.Release()
		return nil, err
	}
	return out, nil
}

// L1Loss is F.l1_loss. In 2.11 aten::l1_loss is CompositeImplicitAutograd:
// apply_loss_reduction((input - target).abs(), reduction), so the
// autograd graph is SubBackward0 -> AbsBackward0 (saves the difference)
// -> MeanBackward0/SumBackward0; the abs result is a temporary.
func (rt *Runtime) L1Loss(x, target *Tensor, reduction string) (*Tensor, error) {
	ins, release, err := rt.autocastFP32(x, target)
	if err != nil {
		return nil, err
	}
	if release != nil {
		defer release()
		x, target = ins[0], ins[1]
	}
	diff, err := rt.Sub(x, target, 1)
	if err != nil {
		return nil, err
	}
	abs, err := rt.Abs(diff)
	diff.Release()
	if err != nil || reduction == "none" {
		return abs, err
	}
	defer abs.Release()
	if reduction == "sum" {
		return rt.Sum(abs, nil, false, nil)
	}
	return rt.Mean(abs, nil, false, nil)
}

// BinaryCrossEntropy is F.binary_cross_entropy on CUDA
// (binary_cross_entropy_cuda): loss = empty_like(input) is filled
// elementwise, multiplied in place by weight, and for mean/sum reduced into
// a fresh zero-dim tensor that is copied back into loss after
// loss.resize_as_(reduced) — so the returned zero-dim loss keeps its
// input-sized storage for as long as it lives. BinaryCrossEntropyBackward0
// saves self, target and weight; binary_cross_entropy_backward allocates
// grad_input = empty_like(input) and scales it in place.
func (rt *Runtime) BinaryCrossEntropy(x, target, weight *Tensor, reduction string) (*Tensor, error) {
	if rt.autocast.enabled {
		return nil, Errorf(RuntimeError, "torch.nn.functional.binary_cross_entropy and torch.nn.BCELoss are unsafe to autocast.\nMany models use a sigmoid layer right before the binary cross entropy layer.\nIn this case, combine the two layers using torch.nn.functional.binary_cross_entropy_with_logits\nor torch.nn.BCEWithLogitsLoss.  binary_cross_entropy_with_logits and BCEWithLogits are\nsafe to autocast.")
	}
	if !sameShape(x.shape, target.shape) {
		return nil, Errorf(ValueError, "Using a target size (torch.Size(%s)) that is different to the input size (torch.Size(%s)) is deprecated. Please ensure they have the same size.", shapeList(target.shape), shapeList(x.shape))
	}
	if _, err := commonDevice("binary_cross_entropy", x, target, weight); err != nil {
		return nil, err
	}
	loss, err := rt.unaryOut("binary_cross_entropy", x, x.dtype)
	if err != nil {
		return nil, err
	}
	if reduction != "none" {
		red, err := rt.lossReduce("binary_cross_entropy", loss, reduction)
		if err != nil {
			loss.Release()
			return nil, err
		}
		red.Release()
		loss.shape, loss.strides = nil, nil
	}
	if rt.exec != nil {
		rt.computeOpt(ExecBCE, []*Tensor{loss}, []*Tensor{x, target, weight}, nil, []int64{reductionCode(reduction)})
	}
	n := rt.record("BinaryCrossEntropyBackward0", x, target, weight)
	if n != nil {
		n.save(x, false)
		n.save(target, false)
		n.save(weight, false)
	}
	n.finish(func(n *Node, g []*Tensor) ([]*Tensor, error) {
		res := make(gradSlot, 3)
		for i := 0; i < 2; i++ {
			if !n.needsInput(i) {
				continue
			}
			// self: binary_cross_entropy_backward (empty_like(self));
			// target: binary_cross_entropy_target_backward, modelled
			// as its one target-sized result.
			t, err := n.unpack(i)
			if err != nil {
				return res.fail(err)
			}
			r, err := rt.unaryOut("binary_cross_entropy_backward", t, t.dtype)
			t.Release()
			if err != nil {
				return res.fail(err)
			}
			res[i] = r
			if rt.exec != nil {
				rt.bceGradValues(n, i, r, g[0], reduction)
			}
		}
		return res, nil
	}, loss)
	return loss, nil
}

// BCEWithLogits is F.binary_cross_entropy_with_logits (2.11's Loss.cpp):
// log_sigmoid(input) (its CUDA buffer output is empty), with pos_weight
// log_weight = (pos_weight - 1).mul(target) scaled in place, then
// loss = (1 - target) updated in place, reduced by apply_loss_reduction;
// the temporaries die when the function returns (loss, then
// log_sigmoid_input). BinaryCrossEntropyWithLogitsBackward0 saves self,
// target, weight and pos_weight; its backward allocates input.sigmoid()
// (pos_weight: t = pos_weight * target and t + 1 first) and works in
// place when grad mode is off.
func (rt *Runtime) BCEWithLogits(x, target, weight, posWeight *Tensor, reduction string) (*Tensor, error) {
	if !sameShape(x.shape, target.shape) {
		return nil, Errorf(ValueError, "Target size (torch.Size(%s)) must be the same as input size (torch.Size(%s))", shapeList(target.shape), shapeList(x.shape))
	}
	ins, release, err := rt.autocastFP32(x, target, weight, posWeight)
	if err != nil {
		return nil, err
	}
	if release != nil {
		defer release()
		x, target, weight, posWeight = ins[0], ins[1], ins[2], ins[3]
	}
	if _, err := commonDevice("binary_cross_entropy_with_logits", x, target, weight, posWeight); err != nil {
		return nil, err
	}
	var tmps []*Tensor
	defer func() { releaseAll(tmps) }()
	alloc := func(op string, dt DType, ins ...*Tensor) (*Tensor, error) {
		t, err := rt.pointwiseOut(op, dt, ins...)
		if err == nil {
			tmps = append([]*Tensor{t}, tmps...) // released newest first
		}
		return t, err
	}
	if _, err := alloc("log_sigmoid_forward", x.dtype, x); err != nil {
		return nil, err
	}
	if posWeight != nil {
		pw, err := rt.unaryOut("sub", posWeight, posWeight.dtype)
		if err != nil {
			return nil, err
		}
		lw, err := rt.pointwiseOut("mul", ResultType([]*Tensor{pw, target}, nil), pw, target)
		pw.Release()
		if err != nil {
			return nil, err
		}
		lw.Release()
	}
	if _, err := alloc("rsub", target.dtype, target); err != nil {
		return nil, err
	}
	loss := tmps[0].Retain()
	if reduction != "none" {
		red, err := rt.lossReduce("binary_cross_entropy_with_logits", loss, reduction)
		loss.Release()
		if err != nil {
			return nil, err
		}
		loss = red
	}
	if rt.exec != nil {
		rt.computeOpt(ExecBCELogits, []*Tensor{loss}, []*Tensor{x, target, weight, posWeight}, nil, []int64{reductionCode(reduction)})
	}
	n := rt.record("BinaryCrossEntropyWithLogitsBackward0", x, target, weight, posWeight)
	if n != nil {
		n.save(x, false)
		n.save(target, false)
		n.save(weight, false)
		n.save(posWeight, false)
	}
	n.finish(func(n *Node, g []*Tensor) ([]*Tensor, error) {
		res := make(gradSlot, 4)
		if !n.anyNeeded(0, 1) {
			return res, nil
		}
		self, err := n.unpack(0)
		if err != nil {
			return res.fail(err)
		}
		defer self.Release()
		tg, err := n.unpack(1)
		if err != nil {
			return res.fail(err)
		}
		defer tg.Release()
		pw, err := n.unpack(3)
		if err != nil {
			return res.fail(err)
		}
		if pw != nil {
			defer pw.Release()
		}
		for i := 0; i < 2; i++ {
			if !n.needsInput(i) {
				continue
			}
			r, err := rt.bceLogitsGrad(self, tg, pw)
			if err != nil {
				return res.fail(err)
			}
			res[i] = r
			if rt.exec != nil {
				rt.bceLogitsGradValues(n, i, r, g[0], self, tg, pw, reduction)
			}
		}
		return res, nil
	}, loss)
	return loss, nil
}

// bceLogitsGrad allocates binary_cross_entropy_with_logits_backward's
// temporaries and result (in-place updates allocate nothing).
func (rt *Runtime) bceLogitsGrad(self, target, pw *Tensor) (*Tensor, error) {
	if pw == nil {
		return rt.unaryOut("sigmoid", self, self.dtype)
	}
	t, err := rt.pointwiseOut("mul", ResultType([]*Tensor{pw, target}, nil), pw, target)
	if err != nil {
		return nil, err
	}
	defer t.Release()
	r, err := rt.unaryOut("add", t, t.dtype)
	if err != nil {
		return nil, err
	}
	s, err := rt.unaryOut("sigmoid", self, self.dtype)
	if err != nil {
		r.Release()
		return nil, err
	}
	s.Release()
	return r, nil
}

// bceGradValues computes binary_cross_entropy's grad_input (input i = 0)
// from the saved input, target and weight; the target's gradient is not
// computed.
func (rt *Runtime) bceGradValues(n *Node, i int, r, g *Tensor, reduction string) {
	ts, release, ok := unpackOpt(n, 0, 1, 2)
	if !ok || i != 0 {
		rt.markNotComputed(r)
		return
	}
	defer release()
	rt.computeOpt(ExecBCEBack, []*Tensor{r}, []*Tensor{g, ts[0], ts[1], ts[2]}, nil, []int64{reductionCode(reduction)})
}

// bceLogitsGradValues computes binary_cross_entropy_with_logits' grad_input
// (input i = 0); the target's gradient is not computed.
func (rt *Runtime) bceLogitsGradValues(n *Node, i int, r, g, self, tg, pw *Tensor, reduction string) {
	ws, release, ok := unpackOpt(n, 2)
	if !ok || i != 0 {
		rt.markNotComputed(r)
		return
	}
	defer release()
	rt.computeOpt(ExecBCELogitsBack, []*Tensor{r}, []*Tensor{g, self, tg, ws[0], pw}, nil, []int64{reductionCode(reduction)})
}
