package torch

// Baddbmm is torch.baddbmm(self, b1, b2, beta, alpha) and, with inplace,
// Tensor.baddbmm_: one [B, N, P] output (self expanded is copied into it
// when beta != 0; no separate allocation) and the cuBLAS workspace.
// BaddbmmBackward0 (measured in q18) computes batch1's gradient
// grad.bmm(b2ᵀ), then batch2's b1ᵀ.bmm(grad), each times alpha when
// alpha != 1 (a second allocation, the first freed), then self's,
// grad * beta when beta != 1 (else grad itself); the engine sums a
// broadcast self's gradient back.
func (rt *Runtime) Baddbmm(self, b1, b2 *Tensor, beta, alpha float64, inplace bool) (*Tensor, error) {
	if len(b1.shape) != 3 || len(b2.shape) != 3 {
		return nil, Errorf(RuntimeError, "batch1 must be a 3D tensor")
	}
	if b1.shape[0] != b2.shape[0] || b1.shape[2] != b2.shape[1] {
		return nil, Errorf(RuntimeError, "Expected size for first two dimensions of batch2 tensor to be: [%d, %d] but got: [%d, %d].", b1.shape[0], b1.shape[2], b2.shape[0], b2.shape[1])
	}
	if b1.dtype != b2.dtype || self.dtype != b1.dtype {
		return nil, Errorf(RuntimeError, "expected scalar type %s but found %s", self.dtype.cppName(), b2.dtype.cppName())
	}
	shape := []int64{b1.shape[0], b1.shape[1], b2.shape[2]}
	var out *Tensor
	if inplace {
		if !sameShape(self.shape, shape) {
			return nil, Errorf(RuntimeError, "Expected self to have shape %s but got %s", shapeList(shape), shapeList(self.shape))
		}
		if err := rt.inplace(self); err != nil {
			return nil, err
		}
		if err := rt.workspace(false); err != nil {
			return nil, err
		}
		out = self
	} else {
		if !expandable(self.shape, shape) {
			return nil, Errorf(RuntimeError, "The expanded size of the tensor (%d) must match the existing size (%d) at non-singleton dimension %d.  Target sizes: %s.  Tensor sizes: %s", shape[2], lastOr(self.shape), len(self.shape)-1, shapeList(shape), shapeList(self.shape))
		}
		o, err := rt.gemmOut("baddbmm", shape, b1.dtype, b1.device, false)
		if err != nil {
			return nil, err
		}
		out = o
	}
	n := rt.record("BaddbmmBackward0", self, b1, b2)
	if n != nil {
		n.saveIf(n.needsInput(2), b1, false)
		n.saveIf(n.needsInput(1), b2, false)
	}
	bw := func(n *Node, g []*Tensor) ([]*Tensor, error) {
		res := make(gradSlot, 3)
		for i := 1; i <= 2; i++ {
			if !n.needsInput(i) {
				continue
			}
			o, err := n.unpack(2 - i) // batch1's gradient uses batch2 (slot 1)
			if err != nil {
				return res.fail(err)
			}
			ot, err := rt.Transpose(o, 1, 2)
			o.Release()
			if err != nil {
				return res.fail(err)
			}
			var r *Tensor
			if i == 1 {
				r, err = rt.Bmm(g[0], ot)
			} else {
				r, err = rt.Bmm(ot, g[0])
			}
			ot.Release()
			if err != nil {
				return res.fail(err)
			}
			if alpha != 1 {
				s, err := rt.MulScalar(r, Float(alpha))
				r.Release()
				if err != nil {
					return res.fail(err)
				}
				r = s
			}
			res[i] = r
		}
		if n.needsInput(0) {
			if beta != 1 {
				r, err := rt.MulScalar(g[0], Float(beta))
				if err != nil {
					return res.fail(err)
				}
				res[0] = r
			} else {
				res[0] = g[0].Retain()
			}
		}
		return res, nil
	}
	if inplace {
		n.rebase(bw, self)
		return self.Retain(), nil
	}
	n.finish(bw, out)
	return out, nil
}
