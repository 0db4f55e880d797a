package torch

// inplace prepares an in-place op on t: the leaf check and the version bump.
func (rt *Runtime) inplace(t *Tensor, others ...*Tensor) error {
	if err := rt.checkInplace(t); err != nil {
		return err
	}
	if len(others) > 0 {
		shapes := [][]int64{t.shape}
		for _, o := range others {
			if o != nil {
				shapes = append(shapes, o.shape)
			}
		}
		s, err := broadcastShapes(shapes...)
		if err != nil {
			return err
		}
		if !sameShape(s, t.shape) {
			return Errorf(RuntimeError, "output with shape %s doesn't match the broadcast shape %s", shapeList(t.shape), shapeList(s))
		}
		if _, err := commonDevice("inplace", append([]*Tensor{t}, others...)...); err != nil {
			return err
		}
	}
	t.bumpVersion()
	return nil
}

// addInPlace is a.add_(b) without autograd (engine and optimizer use).
func (rt *Runtime) addInPlace(a, b *Tensor) error {
	if err := rt.inplace(a, b); err != nil {
		return err
	}
	if rt.exec != nil {
		rt.compute1(ExecAdd, a, []*Tensor{a, b}, 1)
	}
	return nil
}

// InplaceBinary is a.op_(b) for add_/sub_/mul_/div_ with a tensor (b nil:
// a Python scalar). It returns a (a new reference).
func (rt *Runtime) InplaceBinary(op string, a, b *Tensor, s Scalar, alpha float64) (*Tensor, error) {
	if err := rt.inplace(a, b); err != nil {
		return nil, err
	}
	var n *Node
	switch op {
	case "add", "sub":
		name := "AddBackward0"
		if op == "sub" {
			name = "SubBackward0"
		}
		if b == nil {
			name = name[:len(name)-1] + "1"
			n = rt.record(name, a)
			n.rebase(passThrough, a)
		} else {
			n = rt.record(name, a, b)
			neg := op == "sub"
			n.rebase(func(n *Node, g []*Tensor) ([]*Tensor, error) {
				res := make(gradSlot, 2)
				if n.needsInput(0) {
					res[0] = g[0].Retain()
				}
				if n.needsInput(1) {
					if neg {
						r, err := rt.Neg(g[0])
						if err != nil {
							return res.fail(err)
						}
						res[1] = r
					} else if alpha != 1 {
						r, err := rt.MulScalar(g[0], Float(alpha))
						if err != nil {
							return res.fail(err)
						}
						res[1] = r
					} else {
						res[1] = g[0].Retain()
					}
				}
				return res, nil
			}, a)
		}
	case "mul", "div":
		name := "MulBackward0"
		if op == "div" {
			name = "DivBackward0"
		}
		if b == nil {
			n = rt.record(name, a, nil)
			n.rebase(func(n *Node, g []*Tensor) ([]*Tensor, error) {
				var r *Tensor
				var err error
				if op == "mul" {
					r, err = rt.MulScalar(g[0], s)
				} else {
					r, err = rt.DivScalar(g[0], s)
				}
				return []*Tensor{r, nil}, err
			}, a)
		} else {
			n = rt.record(name, a, b)
			if n != nil {
				// the original self is needed for other's gradient: saved as a clone
				var orig *Tensor
				if n.needsInput(1) {
					c, err := rt.cloneContiguous(a)
					if err != nil {
						return nil, err
					}
					orig = c
				}
				n.save(orig, false)
				orig.Release()
				n.save(b, false)
			}
			n.rebase(func(n *Node, g []*Tensor) ([]*Tensor, error) {
				if op == "div" {
					return rt.divBackward(n, g[0])
				}
				res := make(gradSlot, 2)
				other, err := n.unpack(1)
				if err != nil {
					return res.fail(err)
				}
				defer other.Release()
				if n.needsInput(0) {
					r, err := rt.Mul(g[0], other)
					if err != nil {
						return res.fail(err)
					}
					res[0] = r
				}
				if n.needsInput(1) {
					self, err := n.unpack(0)
					if err != nil {
						return res.fail(err)
					}
					r, err := rt.Mul(g[0], self)
					self.Release()
					if err != nil {
						return res.fail(err)
					}
					res[1] = r
				}
				return res, nil
			}, a)
		}
	default:
		return nil, Errorf(NotImplementedError, "in-place %s_ is not simulated", op)
	}
	// the values last: mul_/div_ save a clone of self's old values above
	if rt.exec != nil {
		rt.inplaceValues(op, a, b, s, alpha)
	}
	return a.Retain(), nil
}

// InplaceUnary is an in-place op that keeps no history of its own values
// (zero_, fill_, normal_, uniform_, random_...): ZeroBackward-like nodes whose
// gradient is zero. It returns t (new reference).
func (rt *Runtime) InplaceUnary(op string, t *Tensor) (*Tensor, error) {
	if op == "zero" {
		return rt.InplaceUnaryInit(op, t, ExecFill, 0)
	}
	// random_, bernoulli_... have no kernels.
	return rt.InplaceUnaryInit(op, t, "")
}

// InplaceUnaryInit is InplaceUnary whose values a GPU run computes as the
// factory kind with its scalars (fill_ and t[i] = v: ExecFill; normal_,
// uniform_); kind "" marks t not computed (no kernels, or a value that is
// not known, such as a fill value from a tensor without values).
func (rt *Runtime) InplaceUnaryInit(op string, t *Tensor, kind ExecKind, scalars ...float64) (*Tensor, error) {
	return rt.inplaceUnaryInit(op, t, kind, scalars, nil)
}

// inplaceUnaryInit is InplaceUnaryInit with the scalars' exact integers
// (ExecOp.Ints; nil when they are not all Python integers).
func (rt *Runtime) inplaceUnaryInit(op string, t *Tensor, kind ExecKind, scalars []float64, ints []int64) (*Tensor, error) {
	if err := rt.inplace(t); err != nil {
		return nil, err
	}
	if rt.exec != nil {
		if kind != "" {
			rt.compute(kind, []*Tensor{t}, nil, scalars, ints)
		} else {
			rt.markNotComputed(t)
		}
	}
	if t.RequiresGrad() && rt.gradMode {
		name := map[string]string{"zero": "ZeroBackward0", "fill": "FillBackward0", "normal": "NormalBackward0", "uniform": "UniformBackward0"}[op]
		if name == "" {
			name = "ZeroBackward0"
		}
		n := rt.record(name, t)
		n.rebase(func(n *Node, g []*Tensor) ([]*Tensor, error) {
			r, err := rt.ZerosLike(g[0])
			return []*Tensor{r}, err
		}, t)
	}
	return t.Retain(), nil
}

// ReluInplace is relu_ (ReluBackward0 saving the result).
func (rt *Runtime) ReluInplace(t *Tensor) (*Tensor, error) {
	if err := rt.inplace(t); err != nil {
		return nil, err
	}
	if rt.exec != nil {
		rt.compute1(ExecRelu, t, []*Tensor{t})
	}
	n := rt.record("ReluBackward0", t)
	if n != nil {
		// saved before the history is set, so a pack hook runs once it is
		// (setHistory or rebaseView), as PyTorch saves the result after
		// rebase_history
		n.save(t, true)
		n.rebase(func(n *Node, g []*Tensor) ([]*Tensor, error) {
			r, err := n.unpack(0)
			if err != nil {
				return nil, err
			}
			defer r.Release()
			o, err := rt.gradLike("threshold_backward", g[0], r)
			return []*Tensor{o}, err
		}, t)
	}
	return t.Retain(), nil
}

// CopyInplace is dst.copy_(src): no allocation when devices and dtypes are
// handled by the kernel (cross-device copies go through no temporary).
func (rt *Runtime) CopyInplace(dst, src *Tensor) (*Tensor, error) {
	if err := rt.checkInplace(dst); err != nil {
		return nil, err
	}
	if !expandable(src.shape, dst.shape) {
		return nil, Errorf(RuntimeError, "The size of tensor a (%d) must match the size of tensor b (%d) at non-singleton dimension %d", lastOr(dst.shape), lastOr(src.shape), max(len(dst.shape)-1, 0))
	}
	dst.bumpVersion()
	if rt.exec != nil {
		rt.compute1(ExecCopy, dst, []*Tensor{src})
	}
	if rt.needsGrad(dst, src) {
		n := rt.record("CopyBackwards", dst, src)
		srcDT, srcDev := src.dtype, src.device
		n.rebase(func(n *Node, g []*Tensor) ([]*Tensor, error) {
			res := make(gradSlot, 2)
			if n.needsInput(0) {
				z, err := rt.ZerosLike(g[0])
				if err != nil {
					return res.fail(err)
				}
				res[0] = z
			}
			if n.needsInput(1) {
				r, err := rt.To(g[0], srcDT, srcDev, false)
				if err != nil {
					return res.fail(err)
				}
				res[1] = r
			}
			return res, nil
		}, dst)
	}
	return dst.Retain(), nil
}

func lastOr(s []int64) int64 {
	if len(s) == 0 {
		return 1
	}
	return s[len(s)-1]
}
