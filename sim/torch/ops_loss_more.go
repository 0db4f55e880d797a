package torch

// F.smooth_l1_loss and F.huber_loss (PyTorch 2.11's Loss.cpp), allocation
// by allocation. Both are on autocast's fp32 list. Their outputs are not
// computed on the GPU backend.

// SmoothL1Loss is torch._C._nn.smooth_l1_loss on broadcast inputs (F.smooth_l1_loss
// broadcasts first and sends beta == 0 to l1_loss). The op is structured
// like mse_loss: for mean/sum the meta function allocates a result of the
// broadcast shape and resizes it to zero dims (the storage stays), the impl
// runs the pointwise loss into a second broadcast-sized temporary and
// reduces it into the result, so the returned zero-dim loss holds an
// input-sized buffer while it lives: the first one, the temporary is freed
// (measured, q19_transformer_losses). SmoothL1LossBackward0
// saves self and target; each gradient is zeros_like(input) filled in place.
func (rt *Runtime) SmoothL1Loss(x, target *Tensor, reduction string, beta float64) (*Tensor, error) {
	if beta < 0 {
		return nil, Errorf(RuntimeError, "smooth_l1_loss does not support negative values for beta.")
	}
	if beta == 0 {
		return rt.L1Loss(x, target, reduction)
	}
	return rt.pointwiseLoss("smooth_l1_loss", "SmoothL1LossBackward0", x, target, reduction, true)
}

// HuberLoss is torch._C._nn.huber_loss: loss = empty_like(input) filled
// elementwise, then apply_loss_reduction (a fresh zero-dim result and the
// reduction's scratch; the input-sized loss dies when the op returns).
// HuberLossBackward0 saves self and target; each gradient is
// zeros_like(input) filled in place.
func (rt *Runtime) HuberLoss(x, target *Tensor, reduction string, delta float64) (*Tensor, error) {
	if delta <= 0 {
		return nil, Errorf(RuntimeError, "huber_loss does not support non-positive values for delta.")
	}
	return rt.pointwiseLoss("huber_loss", "HuberLossBackward0", x, target, reduction, false)
}

// pointwiseLoss is the shared body of SmoothL1Loss and HuberLoss: op's
// allocations (structured: the result keeps an input-sized storage), the
// node and its backward.
func (rt *Runtime) pointwiseLoss(op, node string, x, target *Tensor, reduction string, structured bool) (*Tensor, error) {
	if !x.dtype.IsFloating() || !target.dtype.IsFloating() {
		dt := x.dtype
		if dt.IsFloating() {
			dt = target.dtype
		}
		return nil, Errorf(NotImplementedError, "\"%s_cuda\" not implemented for '%s'", op, dt.cppName())
	}
	ins, release, err := rt.autocastFP32(x, target)
	if err != nil {
		return nil, err
	}
	if release != nil {
		defer release()
		x, target = ins[0], ins[1]
	}
	if _, err := commonDevice(op, x, target); err != nil {
		return nil, err
	}
	x, target, err = rt.broadcastPair(x, target)
	if err != nil {
		return nil, err
	}
	defer x.Release()
	defer target.Release()
	dt := ResultType([]*Tensor{x, target}, nil)
	loss, err := rt.pointwiseOut(op, dt, x, target)
	if err != nil {
		return nil, err
	}
	if reduction != "none" {
		if structured {
			tmp, err := rt.unaryOut(op, loss, loss.dtype)
			if err != nil {
				loss.Release()
				return nil, err
			}
			err = rt.reduceKernel(tmp, nil, accSize(tmp.dtype))
			tmp.Release()
			if err != nil {
				loss.Release()
				return nil, err
			}
			loss.shape, loss.strides = nil, nil
		} else {
			red, err := rt.lossReduce(op, loss, reduction)
			loss.Release()
			if err != nil {
				return nil, err
			}
			loss = red
		}
	}
	n := rt.record(node, x, target)
	if n != nil {
		n.save(x, false)
		n.save(target, false)
	}
	n.finish(func(n *Node, g []*Tensor) ([]*Tensor, error) {
		res := make(gradSlot, 2)
		for i := 0; i < 2; i++ {
			if !n.needsInput(i) {
				continue
			}
			// <op>_backward(grad, input i, the other, ...):
			// zeros_like(input i, contiguous), written in place.
			t, err := n.unpack(i)
			if err != nil {
				return res.fail(err)
			}
			r, err := rt.empty(op+"_backward", t.shape, nil, t.dtype, t.device)
			t.Release()
			if err != nil {
				return res.fail(err)
			}
			res[i] = r
		}
		return res, nil
	}, loss)
	return loss, nil
}

// broadcastPair is torch.broadcast_tensors(a, b) as F.*_loss call it: a
// tensor already of the broadcast shape is returned itself, the other is
// expanded (a view with ExpandBackward0). Both results are new references.
func (rt *Runtime) broadcastPair(a, b *Tensor) (*Tensor, *Tensor, error) {
	shape, err := broadcastShapes(a.shape, b.shape)
	if err != nil {
		return nil, nil, err
	}
	out := [2]*Tensor{a, b}
	for i, t := range out {
		if sameShape(t.shape, shape) {
			out[i] = t.Retain()
			continue
		}
		e, err := rt.Expand(t, shape)
		if err != nil {
			if i == 1 {
				out[0].Release()
			}
			return nil, nil, err
		}
		out[i] = e
	}
	return out[0], out[1], nil
}
