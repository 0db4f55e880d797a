package torch

// scalarResult is the dtype of tensor ⊕ Python scalar.
func scalarResult(a *Tensor, s Scalar) DType { return ResultType([]*Tensor{a}, []ScalarKind{s.Kind}) }

// Add is torch.add(a, b, alpha=alpha).
func (rt *Runtime) Add(a, b *Tensor, alpha float64) (*Tensor, error) {
	out, err := rt.pointwiseOut("add", ResultType([]*Tensor{a, b}, nil), a, b)
	if err != nil {
		return nil, err
	}
	if rt.exec != nil {
		rt.compute1(ExecAdd, out, []*Tensor{a, b}, alpha)
	}
	n := rt.record("AddBackward0", a, b)
	n.finish(func(n *Node, g []*Tensor) ([]*Tensor, error) {
		res := make(gradSlot, 2)
		if n.needsInput(0) {
			res[0] = g[0].Retain()
		}
		if n.needsInput(1) {
			if alpha == 1 {
				res[1] = g[0].Retain()
			} else {
				r, err := rt.MulScalar(g[0], Float(alpha))
				if err != nil {
					return res.fail(err)
				}
				res[1] = r
			}
		}
		return res, nil
	}, out)
	return out, nil
}

// AddScalar is a + s (AddBackward1).
func (rt *Runtime) AddScalar(a *Tensor, s Scalar) (*Tensor, error) {
	out, err := rt.unaryOut("add", a, scalarResult(a, s))
	if err != nil {
		return nil, err
	}
	if rt.exec != nil {
		rt.numberValues(ExecAffine, out, a, Int(1), s)
	}
	n := rt.record("AddBackward1", a)
	n.finish(passThrough, out)
	return out, nil
}

// passThrough is a backward whose gradient is the incoming one.
func passThrough(n *Node, g []*Tensor) ([]*Tensor, error) {
	res := make([]*Tensor, len(n.next))
	if n.needsInput(0) {
		res[0] = g[0].Retain()
	}
	return res, nil
}

// Sub is torch.sub(a, b, alpha=alpha).
func (rt *Runtime) Sub(a, b *Tensor, alpha float64) (*Tensor, error) {
	if err := subCheck(a.dtype == Bool, b.dtype == Bool); err != nil {
		return nil, err
	}
	out, err := rt.pointwiseOut("sub", ResultType([]*Tensor{a, b}, nil), a, b)
	if err != nil {
		return nil, err
	}
	if rt.exec != nil {
		rt.compute1(ExecSub, out, []*Tensor{a, b}, alpha)
	}
	n := rt.record("SubBackward0", a, b)
	n.finish(func(n *Node, g []*Tensor) ([]*Tensor, error) {
		res := make(gradSlot, 2)
		if n.needsInput(0) {
			res[0] = g[0].Retain()
		}
		if n.needsInput(1) {
			r, err := rt.Neg(g[0])
			if err != nil {
				return res.fail(err)
			}
			if alpha != 1 {
				r2, err := rt.MulScalar(r, Float(alpha))
				r.Release()
				if err != nil {
					return res.fail(err)
				}
				r = r2
			}
			res[1] = r
		}
		return res, nil
	}, out)
	return out, nil
}

// SubScalar is a - s (SubBackward1).
func (rt *Runtime) SubScalar(a *Tensor, s Scalar) (*Tensor, error) {
	if err := subCheck(a.dtype == Bool, s.Kind == ScalarBool); err != nil {
		return nil, err
	}
	out, err := rt.unaryOut("sub", a, scalarResult(a, s))
	if err != nil {
		return nil, err
	}
	if rt.exec != nil {
		rt.numberValues(ExecAffine, out, a, Int(1), negScalar(s))
	}
	n := rt.record("SubBackward1", a)
	n.finish(passThrough, out)
	return out, nil
}

// RSubScalar is s - a (RsubBackward1).
func (rt *Runtime) RSubScalar(a *Tensor, s Scalar) (*Tensor, error) {
	if err := subCheck(s.Kind == ScalarBool, a.dtype == Bool); err != nil {
		return nil, err
	}
	out, err := rt.unaryOut("rsub", a, scalarResult(a, s))
	if err != nil {
		return nil, err
	}
	if rt.exec != nil {
		rt.numberValues(ExecAffine, out, a, Int(-1), s)
	}
	n := rt.record("RsubBackward1", a)
	n.finish(func(n *Node, g []*Tensor) ([]*Tensor, error) {
		r, err := rt.Neg(g[0])
		return []*Tensor{r}, err
	}, out)
	return out, nil
}

// Mul is a * b (MulBackward0: saves other for self's gradient and self for
// other's).
func (rt *Runtime) Mul(a, b *Tensor) (*Tensor, error) {
	out, err := rt.pointwiseOut("mul", ResultType([]*Tensor{a, b}, nil), a, b)
	if err != nil {
		return nil, err
	}
	if rt.exec != nil {
		rt.compute1(ExecMul, out, []*Tensor{a, b})
	}
	n := rt.record("MulBackward0", a, b)
	if n != nil {
		n.saveIf(n.needsInput(1), a, false) // self, for other's gradient
		n.saveIf(n.needsInput(0), b, false) // other, for self's gradient
	}
	n.finish(func(n *Node, g []*Tensor) ([]*Tensor, error) {
		res := make(gradSlot, 2)
		// the generated MulBackward0 computes other's gradient before
		// self's (measured in q18: einsum "i,j->ij" and torch.outer free
		// self's broadcast gradient first after its sum_to)
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
		if n.needsInput(0) {
			other, err := n.unpack(1)
			if err != nil {
				return res.fail(err)
			}
			r, err := rt.Mul(g[0], other)
			other.Release()
			if err != nil {
				return res.fail(err)
			}
			res[0] = r
		}
		return res, nil
	}, out)
	return out, nil
}

// MulScalar is a * s (Python numbers are wrapped: MulBackward0 with a CPU
// scalar other; the gradient is grad * s).
func (rt *Runtime) MulScalar(a *Tensor, s Scalar) (*Tensor, error) {
	out, err := rt.unaryOut("mul", a, scalarResult(a, s))
	if err != nil {
		return nil, err
	}
	if rt.exec != nil {
		rt.numberValues(ExecAffine, out, a, s, Int(0))
	}
	n := rt.record("MulBackward0", a, nil)
	n.finish(func(n *Node, g []*Tensor) ([]*Tensor, error) {
		r, err := rt.MulScalar(g[0], s)
		return []*Tensor{r, nil}, err
	}, out)
	return out, nil
}

// Div is a / b (DivBackward0).
func (rt *Runtime) Div(a, b *Tensor) (*Tensor, error) {
	dt := ResultType([]*Tensor{a, b}, nil)
	if !dt.IsFloating() && !dt.IsComplex() {
		dt = Float32
	}
	out, err := rt.pointwiseOut("div", dt, a, b)
	if err != nil {
		return nil, err
	}
	if rt.exec != nil {
		rt.compute1(ExecDiv, out, []*Tensor{a, b})
	}
	n := rt.record("DivBackward0", a, b)
	if n != nil {
		n.saveIf(n.needsInput(1), a, false)
		n.saveIf(n.anyNeeded(0, 1), b, false)
	}
	n.finish(func(n *Node, g []*Tensor) ([]*Tensor, error) {
		return rt.divBackward(n, g[0])
	}, out)
	return out, nil
}

// divBackward is DivBackward0's gradients for a tensor divisor, with the
// dividend saved at 0 (only when the divisor needs a gradient; for div_ a
// clone of its values before the op) and the divisor at 1. PyTorch 2.11's
// generated code computes the divisor's gradient first (q036: its
// temporaries are gone before the dividend's gradient is allocated):
// div_tensor_other_backward, -grad * ((self / other) / other), whose
// temporaries live to the end of the expression, then
// div_tensor_self_backward, grad / other.
func (rt *Runtime) divBackward(n *Node, g *Tensor) ([]*Tensor, error) {
	res := make(gradSlot, 2)
	other, err := n.unpack(1)
	if err != nil {
		return res.fail(err)
	}
	defer other.Release()
	if n.needsInput(1) {
		self, err := n.unpack(0)
		if err != nil {
			return res.fail(err)
		}
		t1, err := rt.Neg(g)
		var t2, t3, r *Tensor
		if err == nil {
			t2, err = rt.Div(self, other)
		}
		if err == nil {
			t3, err = rt.Div(t2, other)
		}
		if err == nil {
			r, err = rt.Mul(t1, t3)
		}
		// C++ destroys the expression's temporaries last-first (q18)
		releaseAll([]*Tensor{t3, t2, t1, self})
		if err != nil {
			return res.fail(err)
		}
		res[1] = r
	}
	if n.needsInput(0) {
		r, err := rt.Div(g, other)
		if err != nil {
			return res.fail(err)
		}
		res[0] = r
	}
	return res, nil
}

// DivScalar is a / s (DivBackward0 with a wrapped scalar: grad / s).
func (rt *Runtime) DivScalar(a *Tensor, s Scalar) (*Tensor, error) {
	dt := scalarResult(a, s)
	if !dt.IsFloating() && !dt.IsComplex() {
		dt = Float32
	}
	out, err := rt.unaryOut("div", a, dt)
	if err != nil {
		return nil, err
	}
	if rt.exec != nil {
		rt.compute1(ExecAffine, out, []*Tensor{a}, 1/s.Value(), 0)
	}
	n := rt.record("DivBackward0", a, nil)
	n.finish(func(n *Node, g []*Tensor) ([]*Tensor, error) {
		r, err := rt.DivScalar(g[0], s)
		return []*Tensor{r, nil}, err
	}, out)
	return out, nil
}

// RDivScalar is s / a (a.reciprocal() * s: ReciprocalBackward0 then MulBackward0).
func (rt *Runtime) RDivScalar(a *Tensor, s Scalar) (*Tensor, error) {
	r, err := rt.Reciprocal(a)
	if err != nil {
		return nil, err
	}
	defer r.Release()
	return rt.MulScalar(r, s)
}

// Reciprocal is a.reciprocal() (ReciprocalBackward0 saving the result).
func (rt *Runtime) Reciprocal(a *Tensor) (*Tensor, error) {
	return rt.unaryGrad("reciprocal", "ReciprocalBackward0", a, saveResult, func(g, self, result *Tensor) (*Tensor, error) {
		// -grad * (result * result).conj()
		t1, err := rt.Neg(g)
		if err != nil {
			return nil, err
		}
		defer t1.Release()
		t2, err := rt.Mul(result, result)
		if err != nil {
			return nil, err
		}
		defer t2.Release()
		return rt.Mul(t1, t2)
	})
}

// Neg is -a.
func (rt *Runtime) Neg(a *Tensor) (*Tensor, error) {
	if a.dtype == Bool {
		return nil, Errorf(RuntimeError, "Negation, the `-` operator, on a bool tensor is not supported. If you are trying to invert a mask, use the `~` or `logical_not()` operator instead.")
	}
	return rt.unaryGrad("neg", "NegBackward0", a, saveNone, func(g, _, _ *Tensor) (*Tensor, error) { return rt.Neg(g) })
}

// subCheck is sub_check (BinaryOps.h), which sub's meta function runs
// before allocating: no bool operand (a and b: whether each is bool).
func subCheck(a, b bool) error {
	switch {
	case a && b:
		return Errorf(RuntimeError, "Subtraction, the `-` operator, with two bool tensors is not supported. Use the `^` or `logical_xor()` operator instead.")
	case a || b:
		return Errorf(RuntimeError, "Subtraction, the `-` operator, with a bool tensor is not supported. If you are trying to invert a mask, use the `~` or `logical_not()` operator instead.")
	}
	return nil
}

// PowScalar is a ** e (PowBackward0 saves self).
func (rt *Runtime) PowScalar(a *Tensor, e Scalar) (*Tensor, error) {
	dt := scalarResult(a, e)
	out, err := rt.unaryOut("pow", a, dt)
	if err != nil {
		return nil, err
	}
	if rt.exec != nil {
		rt.compute1(ExecPow, out, []*Tensor{a}, e.Value())
	}
	n := rt.record("PowBackward0", a)
	if n != nil {
		n.save(a, false)
	}
	n.finish(func(n *Node, g []*Tensor) ([]*Tensor, error) {
		self, err := n.unpack(0)
		if err != nil {
			return nil, err
		}
		defer self.Release()
		if e.Value() == 0 {
			r, err := rt.ZerosLike(self)
			return []*Tensor{r}, err
		}
		// grad * (e * self.pow(e - 1)).conj()
		t1, err := rt.PowScalar(self, Float(e.Value()-1))
		if err != nil {
			return nil, err
		}
		defer t1.Release()
		t2, err := rt.MulScalar(t1, Float(e.Value()))
		if err != nil {
			return nil, err
		}
		defer t2.Release()
		r, err := rt.Mul(g[0], t2)
		return []*Tensor{r}, err
	}, out)
	return out, nil
}

// saveKind says what a unary op keeps for its backward.
type saveKind uint8

const (
	saveNone saveKind = iota
	saveSelf
	saveResult
)

// unaryGrad runs a dtype-preserving unary op named op with backward node
// name whose gradient is bw(grad, self, result) (self/result nil unless saved).
func (rt *Runtime) unaryGrad(op, name string, a *Tensor, save saveKind, bw func(g, self, result *Tensor) (*Tensor, error)) (*Tensor, error) {
	dt := a.dtype
	if !dt.IsFloating() && !dt.IsComplex() && op != "neg" && op != "relu" && op != "abs" {
		dt = Float32
	}
	return rt.unaryGradDT(op, name, a, dt, save, bw)
}

// unaryGradDT is unaryGrad with the output's dtype given.
func (rt *Runtime) unaryGradDT(op, name string, a *Tensor, dt DType, save saveKind, bw func(g, self, result *Tensor) (*Tensor, error)) (*Tensor, error) {
	return rt.unaryGradKind(op, ExecKind(op), name, a, dt, save, bw)
}

// unaryGradKind is unaryGradDT with the values' kind given (op names the
// allocation).
func (rt *Runtime) unaryGradKind(op string, kind ExecKind, name string, a *Tensor, dt DType, save saveKind, bw func(g, self, result *Tensor) (*Tensor, error)) (*Tensor, error) {
	out, err := rt.unaryOut(op, a, dt)
	if err != nil {
		return nil, err
	}
	if rt.exec != nil {
		rt.compute1(kind, out, []*Tensor{a})
	}
	n := rt.record(name, a)
	if n != nil {
		switch save {
		case saveSelf:
			n.save(a, false)
		case saveResult:
			n.save(out, true)
		}
	}
	n.finish(func(n *Node, g []*Tensor) ([]*Tensor, error) {
		var self, result *Tensor
		if save != saveNone {
			t, err := n.unpack(0)
			if err != nil {
				return nil, err
			}
			defer t.Release()
			if save == saveSelf {
				self = t
			} else {
				result = t
			}
		}
		r, err := bw(g[0], self, result)
		return []*Tensor{r}, err
	}, out)
	return out, nil
}

// gradLike allocates a backward kernel's output shaped like g (and x).
func (rt *Runtime) gradLike(op string, g, x *Tensor) (*Tensor, error) {
	out, err := rt.pointwiseOut(op, g.dtype, g, x)
	if err == nil && rt.exec != nil {
		kind := ExecKind(op)
		if op == "threshold_backward" {
			kind = ExecReluBack
		}
		rt.compute1(kind, out, []*Tensor{g, x})
	}
	return out, err
}

// Relu is torch.relu (ReluBackward0 saves result; threshold_backward).
func (rt *Runtime) Relu(a *Tensor) (*Tensor, error) {
	return rt.unaryGrad("relu", "ReluBackward0", a, saveResult, func(g, _, r *Tensor) (*Tensor, error) { return rt.gradLike("threshold_backward", g, r) })
}

// Sigmoid is torch.sigmoid.
func (rt *Runtime) Sigmoid(a *Tensor) (*Tensor, error) {
	return rt.unaryGrad("sigmoid", "SigmoidBackward0", a, saveResult, func(g, _, r *Tensor) (*Tensor, error) { return rt.gradLike("sigmoid_backward", g, r) })
}

// Tanh is torch.tanh.
func (rt *Runtime) Tanh(a *Tensor) (*Tensor, error) {
	return rt.unaryGrad("tanh", "TanhBackward0", a, saveResult, func(g, _, r *Tensor) (*Tensor, error) { return rt.gradLike("tanh_backward", g, r) })
}

// Gelu is F.gelu: approximate "none" is the erf form, "tanh" the tanh
// approximation (same memory; other kernels on a GPU run).
func (rt *Runtime) Gelu(a *Tensor, approximate string) (*Tensor, error) {
	kind, back := ExecKind("gelu"), "gelu_backward"
	switch approximate {
	case "none":
	case "tanh":
		kind, back = ExecGeluTanh, "gelu_tanh_backward"
	default:
		return nil, Errorf(RuntimeError, "approximate argument must be either none or tanh.")
	}
	dt := a.dtype
	if !dt.IsFloating() {
		dt = Float32
	}
	return rt.unaryGradKind("gelu", kind, "GeluBackward0", a, dt, saveSelf, func(g, s, _ *Tensor) (*Tensor, error) {
		return rt.gradLike(back, g, s)
	})
}

// Silu is F.silu.
func (rt *Runtime) Silu(a *Tensor) (*Tensor, error) {
	return rt.unaryGrad("silu", "SiluBackward0", a, saveSelf, func(g, s, _ *Tensor) (*Tensor, error) { return rt.gradLike("silu_backward", g, s) })
}

// Exp is torch.exp (saves result; grad * result).
func (rt *Runtime) Exp(a *Tensor) (*Tensor, error) {
	return rt.unaryGrad("exp", "ExpBackward0", a, saveResult, func(g, _, r *Tensor) (*Tensor, error) { return rt.Mul(g, r) })
}

// Log is torch.log (saves self; grad / self).
func (rt *Runtime) Log(a *Tensor) (*Tensor, error) {
	return rt.unaryGrad("log", "LogBackward0", a, saveSelf, func(g, s, _ *Tensor) (*Tensor, error) { return rt.Div(g, s) })
}

// Sqrt is torch.sqrt (saves result; grad / (2 * result)).
func (rt *Runtime) Sqrt(a *Tensor) (*Tensor, error) {
	return rt.unaryGrad("sqrt", "SqrtBackward0", a, saveResult, func(g, _, r *Tensor) (*Tensor, error) {
		t, err := rt.MulScalar(r, Float(2))
		if err != nil {
			return nil, err
		}
		defer t.Release()
		return rt.Div(g, t)
	})
}

// Rsqrt is torch.rsqrt (RsqrtBackward0 saves the result: -0.5 * grad *
// result.pow(3); GCC evaluates the right operand, the power, first).
func (rt *Runtime) Rsqrt(a *Tensor) (*Tensor, error) {
	return rt.unaryGrad("rsqrt", "RsqrtBackward0", a, saveResult, func(g, _, r *Tensor) (*Tensor, error) {
		p, err := rt.PowScalar(r, Int(3))
		if err != nil {
			return nil, err
		}
		defer p.Release()
		h, err := rt.MulScalar(g, Float(-0.5))
		if err != nil {
			return nil, err
		}
		defer h.Release()
		return rt.Mul(h, p)
	})
}

// Abs is torch.abs (saves self; grad * self.sgn()).
func (rt *Runtime) Abs(a *Tensor) (*Tensor, error) {
	return rt.unaryGrad("abs", "AbsBackward0", a, saveSelf, func(g, s, _ *Tensor) (*Tensor, error) {
		t, err := rt.unaryOut("sgn", s, s.dtype)
		if err != nil {
			return nil, err
		}
		defer t.Release()
		if rt.exec != nil {
			rt.compute1(ExecSgn, t, []*Tensor{s})
		}
		return rt.Mul(g, t)
	})
}

// Compare is a comparison (eq, ne, lt, le, gt, ge) of two tensors: a bool
// tensor, no gradient.
func (rt *Runtime) Compare(op string, a, b *Tensor) (*Tensor, error) {
	out, err := rt.pointwiseOut(op, Bool, a, b)
	if err == nil && rt.exec != nil {
		rt.compute1(ExecKind(op), out, []*Tensor{a, b})
	}
	return out, err
}

// CompareScalar compares a tensor with a number.
// The values of isnan, isinf, isfinite and logical_not are computed; a
// comparison with a number needs the number (CompareNumber).
func (rt *Runtime) CompareScalar(op string, a *Tensor) (*Tensor, error) {
	out, err := rt.unaryOut(op, a, Bool)
	if err == nil && rt.exec != nil {
		switch op {
		case "isnan", "isinf", "isfinite", "logical_not":
			rt.compute1(ExecKind(op), out, []*Tensor{a})
		default:
			rt.markNotComputed(out)
		}
	}
	return out, err
}
