package torch

// soft_margin_loss and multi_margin_loss: ATen ops with their own autograd
// nodes (PyTorch 2.11's Loss.cpp and cuda/MultiMarginLoss.cu), allocation
// by allocation. Both are on autocast's fp32 list; their values are not
// computed on the GPU backend.

// SoftMarginLoss is torch._C._nn.soft_margin_loss (CompositeExplicit):
// output = empty({0}); neg_out(output, input).mul_(target).exp_().log1p_()
// (an input-sized result), and for mean/sum tmp = output.mean()/sum(),
// output.resize_({}), output.copy_(tmp): the zero-dim loss keeps its
// input-sized storage while it lives. SoftMarginLossBackward0 saves self
// and target.
func (rt *Runtime) SoftMarginLoss(x, target *Tensor, reduction string) (*Tensor, error) {
	return rt.withFP32(func(ts []*Tensor) (*Tensor, error) {
		x, target := ts[0], ts[1]
		if rt.gradMode && target.RequiresGrad() {
			return nil, Errorf(RuntimeError, "The function 'soft_margin_loss' is not differentiable with respect to argument 'target'. This input cannot have requires_grad True.")
		}
		if !x.dtype.IsFloating() {
			return nil, Errorf(NotImplementedError, "\"exp_vml_cpu\" not implemented for '%s'", x.dtype.cppName())
		}
		out, err := rt.unaryOut("soft_margin_loss", x, x.dtype)
		if err != nil {
			return nil, err
		}
		if err := rt.inplace(out, target); err != nil { // mul_(target) broadcasts into the output
			out.Release()
			return nil, err
		}
		if reduction != "none" {
			tmp, err := rt.applyLossReduction(out, reduction)
			if err != nil {
				out.Release()
				return nil, err
			}
			tmp.Release()
			out.shape, out.strides = nil, nil
		}
		if rt.exec != nil {
			rt.markNotComputed(out)
		}
		n := rt.record("SoftMarginLossBackward0", x)
		if n != nil {
			n.save(x, false)
			n.save(target, false)
		}
		n.finish(func(n *Node, g []*Tensor) ([]*Tensor, error) {
			r, err := rt.softMarginBackward(n)
			return []*Tensor{r}, err
		}, out)
		return out, nil
	}, x, target)
}

// softMarginBackward is soft_margin_loss_backward: z = exp(-target *
// input) (the negation and the product are statement temporaries), then
// grad_input = mul_out(target, z) scaled in place; z dies on return.
func (rt *Runtime) softMarginBackward(n *Node) (*Tensor, error) {
	self, err := n.unpack(0)
	if err != nil {
		return nil, err
	}
	defer self.Release()
	target, err := n.unpack(1)
	if err != nil {
		return nil, err
	}
	defer target.Release()
	var tmp lossLocals
	nt, err := rt.unaryOut("neg", target, target.dtype)
	if err != nil {
		return nil, err
	}
	tmp.keep(nt)
	m, err := rt.pointwiseOut("mul", ResultType([]*Tensor{nt, self}, nil), nt, self)
	if err != nil {
		tmp.drop()
		return nil, err
	}
	tmp.keep(m)
	z, err := rt.unaryOut("exp", m, m.dtype)
	tmp.drop()
	if err != nil {
		return nil, err
	}
	defer z.Release()
	gi, err := rt.pointwiseOut("mul", self.dtype, target, z)
	if err == nil && rt.exec != nil {
		rt.markNotComputed(gi)
	}
	return gi, err
}

// MultiMarginLoss is torch._C._nn.multi_margin_loss on CUDA: the result
// (zero-dim, or [nframe] for reduction "none" with a 1-d target) is
// allocated first, then contiguous copies of input, target and weight
// where they are not contiguous; for a 2-d input with mean/sum the kernel
// writes an [nframe] temporary that is summed into the result.
// MultiMarginLossBackward0 saves self, target and weight.
func (rt *Runtime) MultiMarginLoss(x, target *Tensor, p int64, margin float64, weight *Tensor, reduction string) (*Tensor, error) {
	return rt.withFP32(func(ts []*Tensor) (*Tensor, error) {
		x, target, weight := ts[0], ts[1], ts[2]
		if p != 1 && p != 2 {
			return nil, Errorf(RuntimeError, "multi_margin_loss: Invalid p, expected 1 or 2 but got %d", p)
		}
		nframe, err := multiMarginCheck(x, target, weight)
		if err != nil {
			return nil, err
		}
		if _, err := commonDevice("multi_margin_loss", x, target, weight); err != nil {
			return nil, err
		}
		if !x.dtype.IsFloating() {
			return nil, Errorf(NotImplementedError, "\"multi_margin_loss_cuda\" not implemented for '%s'", x.dtype.cppName())
		}
		if target.dtype != Int64 {
			return nil, Errorf(RuntimeError, "expected scalar type Long but found %s", target.dtype.cppName())
		}
		var shape []int64
		if reduction == "none" && len(target.shape) > 0 {
			shape = []int64{nframe}
		}
		out, err := rt.empty("multi_margin_loss", shape, nil, x.dtype, x.device)
		if err != nil {
			return nil, err
		}
		if x.Numel() > 0 {
			var tmp lossLocals
			if err := rt.contiguousCopies(&tmp, x, target, weight); err != nil {
				tmp.drop()
				out.Release()
				return nil, err
			}
			if len(x.shape) == 2 && reduction != "none" {
				t, err := rt.empty("multi_margin_loss", []int64{nframe}, nil, x.dtype, x.device)
				if err == nil {
					err = rt.reduceKernel(t, nil, accSize(t.dtype))
					t.Release()
				}
				if err != nil {
					tmp.drop()
					out.Release()
					return nil, err
				}
			}
			tmp.drop()
		}
		if rt.exec != nil {
			rt.markNotComputed(out)
		}
		n := rt.record("MultiMarginLossBackward0", x, weight)
		if n != nil {
			n.save(x, false)
			n.save(target, false)
			n.save(weight, false)
		}
		n.finish(func(n *Node, g []*Tensor) ([]*Tensor, error) {
			res := make(gradSlot, 2)
			if n.needsInput(1) {
				return res.fail(Errorf(RuntimeError, "the derivative for 'weight' is not implemented."))
			}
			r, err := rt.multiMarginBackward(n, g[0])
			if err != nil {
				return res.fail(err)
			}
			res[0] = r
			return res, nil
		}, out)
		return out, nil
	}, x, target, weight)
}

// multiMarginCheck is multi_margin_loss_shape_check; it returns nframe.
func multiMarginCheck(x, target, weight *Tensor) (int64, error) {
	nd := len(x.shape)
	if !((nd == 2 && x.shape[1] != 0) || (nd == 1 && x.shape[0] != 0) || nd == 0) {
		return 0, Errorf(RuntimeError, "Expected non-empty vector or matrix with optional 0-dim batch size, but got: %s", shapeList(x.shape))
	}
	nframe, dim := int64(1), int64(1)
	switch nd {
	case 1:
		dim = x.shape[0]
	case 2:
		nframe, dim = x.shape[0], x.shape[1]
	}
	if len(target.shape) > 1 || target.Numel() != nframe {
		return 0, Errorf(RuntimeError, "inconsistent target size, expected %d but got %s", nframe, shapeList(target.shape))
	}
	if weight != nil && (len(weight.shape) > 1 || weight.Numel() != dim) {
		return 0, Errorf(RuntimeError, "inconsistent weight size, expected %d but got %s", dim, shapeList(weight.shape))
	}
	return nframe, nil
}

// contiguousCopies appends to tmp a contiguous copy of each non-contiguous
// tensor of ts (nil ones skipped), in order: a kernel's .contiguous() calls.
func (rt *Runtime) contiguousCopies(tmp *lossLocals, ts ...*Tensor) error {
	for _, t := range ts {
		if t == nil || t.IsContiguous() {
			continue
		}
		c, err := rt.cloneContiguous(t)
		if err != nil {
			return err
		}
		tmp.keep(c)
	}
	return nil
}

// multiMarginBackward is multi_margin_loss_cuda_backward: grad_input
// (input-sized) first, then contiguous copies of input, grad_output,
// target and weight, freed on return.
func (rt *Runtime) multiMarginBackward(n *Node, g *Tensor) (*Tensor, error) {
	var saved lossLocals
	defer saved.drop()
	for i := 0; i < 3; i++ {
		t, err := n.unpack(i)
		if err != nil {
			return nil, err
		}
		saved.keep(t)
	}
	x, target, weight := saved[0], saved[1], saved[2]
	gi, err := rt.empty("multi_margin_loss_backward", x.shape, nil, x.dtype, x.device)
	if err != nil {
		return nil, err
	}
	if x.Numel() > 0 {
		var tmp lossLocals
		err = rt.contiguousCopies(&tmp, x, g, target, weight)
		tmp.drop()
		if err != nil {
			gi.Release()
			return nil, err
		}
	}
	if rt.exec != nil {
		rt.markNotComputed(gi)
	}
	return gi, nil
}
