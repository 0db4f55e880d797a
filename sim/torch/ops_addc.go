package torch

// torch.addcmul/addcdiv/lerp out of place (PyTorch 2.11): one
// TensorIterator output; their backwards as derivatives.yaml writes them,
// in the order measured in q18 (tensor1's gradient before tensor2's,
// self's passed through; the engine sums broadcast gradients back).

// Addcmul is torch.addcmul(self, t1, t2, value): AddcmulBackward0 saves
// t1 and t2 (each only when the other's gradient is needed); t1's
// gradient is grad * (t2 * value), t2's grad * (t1 * value).
func (rt *Runtime) Addcmul(self, t1, t2 *Tensor, value float64) (*Tensor, error) {
	return rt.addc("addcmul", "AddcmulBackward0", self, t1, t2, func(n *Node, g *Tensor, res gradSlot) error {
		for i := 1; i <= 2; i++ {
			if !n.needsInput(i) {
				continue
			}
			other, err := n.unpack(2 - i) // t1's gradient uses t2 (slot 1)
			if err != nil {
				return err
			}
			r, err := rt.gradTimes(g, other, 1)
			other.Release()
			if err != nil {
				return err
			}
			res[i] = r
		}
		return nil
	})
}

// Addcdiv is torch.addcdiv(self, t1, t2, value): t1's gradient is
// grad * (value / t2) (one temporary), t2's -grad * (value * t1 /
// (t2 * t2)) (four temporaries alive until the product exists).
func (rt *Runtime) Addcdiv(self, t1, t2 *Tensor, value float64) (*Tensor, error) {
	if !t1.dtype.IsFloating() && !t2.dtype.IsFloating() {
		return nil, Errorf(RuntimeError, "Integer division with addcdiv is no longer supported, and in a future release addcdiv will perform a true division of tensor1 and tensor2. The historic addcdiv behavior can be implemented as (input + value * torch.trunc(tensor1 / tensor2)).to(input.dtype) for integer inputs and as (input + value * tensor1 / tensor2) for float inputs. The future addcdiv behavior is just the latter implementation: (input + value * tensor1 / tensor2), for all dtypes.")
	}
	return rt.addc("addcdiv", "AddcdivBackward0", self, t1, t2, func(n *Node, g *Tensor, res gradSlot) error {
		if !n.anyNeeded(1, 2) {
			return nil
		}
		t2s, err := n.unpack(1)
		if err != nil {
			return err
		}
		defer t2s.Release()
		if n.needsInput(1) {
			r, err := rt.gradTimes(g, t2s, 1)
			if err != nil {
				return err
			}
			res[1] = r
		}
		if n.needsInput(2) {
			t1s, err := n.unpack(0)
			if err != nil {
				return err
			}
			defer t1s.Release()
			var tmp []*Tensor
			defer func() {
				for i := len(tmp) - 1; i >= 0; i-- {
					tmp[i].Release()
				}
			}()
			for _, ins := range [][]*Tensor{{g}, {t1s}, {t2s, t2s}, {t1s, t2s}} {
				t, err := rt.pointwiseOut("addcdiv_backward", g.dtype, ins...)
				if err != nil {
					return err
				}
				tmp = append(tmp, t)
			}
			r, err := rt.pointwiseOut("mul", g.dtype, g, tmp[3])
			if err != nil {
				return err
			}
			res[2] = r
		}
		return nil
	})
}

// addc is the shared forward of addcmul/addcdiv: the output over the
// three inputs, the node saving t1 and t2 when needed.
func (rt *Runtime) addc(op, node string, self, t1, t2 *Tensor, bw func(n *Node, g *Tensor, res gradSlot) error) (*Tensor, error) {
	out, err := rt.pointwiseOut(op, ResultType([]*Tensor{self, t1, t2}, nil), self, t1, t2)
	if err != nil {
		return nil, err
	}
	n := rt.record(node, self, t1, t2)
	if n != nil {
		n.saveIf(n.anyNeeded(1, 2), t1, false)
		n.saveIf(n.anyNeeded(1, 2), t2, false)
	}
	n.finish(func(n *Node, g []*Tensor) ([]*Tensor, error) {
		res := make(gradSlot, 3)
		if err := bw(n, g[0], res); err != nil {
			return res.fail(err)
		}
		if n.needsInput(0) {
			res[0] = g[0].Retain()
		}
		return res, nil
	}, out)
	return out, nil
}

// gradTimes is grad * f(x) for a pointwise f of x with temps temporaries
// (x * value, value / x, ...): the temporary is x-shaped, the result
// broadcast; the temporary is freed before returning.
func (rt *Runtime) gradTimes(g, x *Tensor, temps int) (*Tensor, error) {
	var tmp []*Tensor
	defer func() { releaseAll(tmp) }()
	for i := 0; i < temps; i++ {
		t, err := rt.pointwiseOut("mul", g.dtype, x)
		if err != nil {
			return nil, err
		}
		tmp = append(tmp, t)
	}
	return rt.pointwiseOut("mul", g.dtype, g, x)
}

// Lerp is torch.lerp(self, end, weight): a number weight gives
// LerpBackward0 (grad * (1 - w) and grad * w, one allocation each), a
// tensor weight LerpBackward1 saving all three (end's grad * weight, then
// self's grad * (1 - weight) and weight's grad * (end - self), one
// temporary each).
func (rt *Runtime) Lerp(self, end *Tensor, w *Tensor, wNum float64) (*Tensor, error) {
	ins := []*Tensor{self, end}
	if w != nil {
		ins = append(ins, w)
	}
	if self.dtype != end.dtype {
		return nil, Errorf(RuntimeError, "expected dtype %s for `end` but got dtype %s", self.dtype.cppName(), end.dtype.cppName())
	}
	out, err := rt.pointwiseOut("lerp", self.dtype, ins...)
	if err != nil {
		return nil, err
	}
	if w == nil {
		n := rt.record("LerpBackward0", self, end)
		n.finish(func(n *Node, g []*Tensor) ([]*Tensor, error) {
			res := make(gradSlot, 2)
			for i := 0; i < 2; i++ {
				if n.needsInput(i) {
					r, err := rt.pointwiseOut("mul", g[0].dtype, g[0])
					if err != nil {
						return res.fail(err)
					}
					res[i] = r
				}
			}
			return res, nil
		}, out)
		return out, nil
	}
	n := rt.record("LerpBackward1", self, end, w)
	if n != nil {
		n.saveIf(n.needsInput(2), self, false)
		n.saveIf(n.needsInput(2), end, false)
		n.saveIf(n.anyNeeded(0, 1), w, false)
	}
	n.finish(func(n *Node, g []*Tensor) ([]*Tensor, error) {
		res := make(gradSlot, 3)
		if n.needsInput(1) {
			r, err := rt.pointwiseOut("mul", g[0].dtype, g[0], w)
			if err != nil {
				return res.fail(err)
			}
			res[1] = r
		}
		if n.needsInput(0) {
			r, err := rt.gradTimes(g[0], w, 1)
			if err != nil {
				return res.fail(err)
			}
			res[0] = r
		}
		if n.needsInput(2) {
			r, err := rt.gradTimes(g[0], w, 1)
			if err != nil {
				return res.fail(err)
			}
			res[2] = r
		}
		return res, nil
	}, out)
	return out, nil
}
