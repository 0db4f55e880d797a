package pybind

import (
	"github.com/gpumem/playground/sim/py"
	"github.com/gpumem/playground/sim/torch"
)

func init() {
	for name, op := range map[string]py.Op{"add": py.OpAdd, "sub": py.OpSub, "subtract": py.OpSub, "mul": py.OpMul,
		"multiply": py.OpMul, "div": py.OpTrueDiv, "divide": py.OpTrueDiv, "true_divide": py.OpTrueDiv,
		"pow": py.OpPow, "floor_divide": py.OpFloorDiv, "remainder": py.OpMod, "matmul": py.OpMatMul,
		"bitwise_and": py.OpAnd, "bitwise_or": py.OpOr} {
		both(name, binaryOp(name, op))
	}
	// logical_and/or/xor are comparison ops in PyTorch (comparison_op): a
	// bool result of the broadcast shape whatever the inputs' dtypes.
	for _, name := range []string{"logical_and", "logical_or", "logical_xor"} {
		both(name, func(h *Host, it *py.Interp, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
			x, err := self(name, args)
			if err != nil {
				return nil, err
			}
			other := argOr(args, kwargs, 1, "other")
			b, ok := tensorArg(other)
			if !ok {
				return nil, typeErr("%s(): argument 'other' (position 1) must be Tensor, not %s", name, typeName(other))
			}
			return h.wrapResult(h.rt.Compare(name, x.t, b))
		})
	}
	both("rsub", func(h *Host, it *py.Interp, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
		x, err := self("rsub", args)
		if err != nil {
			return nil, err
		}
		other := argOr(args, kwargs, 1, "other")
		r, err := h.arith(py.OpSub, x.t, other, true, 1)
		return h.finishArith("rsub", r, err, other)
	})
	for _, name := range []string{"eq", "ne", "lt", "le", "gt", "ge", "greater", "less"} {
		op := map[string]py.Op{"eq": py.OpEq, "ne": py.OpNe, "lt": py.OpLt, "le": py.OpLe, "gt": py.OpGt,
			"ge": py.OpGe, "greater": py.OpGt, "less": py.OpLt}[name]
		both(name, func(h *Host, it *py.Interp, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
			x, err := self(name, args)
			if err != nil {
				return nil, err
			}
			return x.Compare(it, op, argOr(args, kwargs, 1, "other"), false)
		})
	}
	unary := map[string]func(rt *torch.Runtime, t *torch.Tensor) (*torch.Tensor, error){
		"neg": (*torch.Runtime).Neg, "negative": (*torch.Runtime).Neg, "relu": (*torch.Runtime).Relu,
		"sigmoid": (*torch.Runtime).Sigmoid, "tanh": (*torch.Runtime).Tanh, "exp": (*torch.Runtime).Exp,
		"log": (*torch.Runtime).Log, "sqrt": (*torch.Runtime).Sqrt, "abs": (*torch.Runtime).Abs,
		"absolute": (*torch.Runtime).Abs,
		"square": func(rt *torch.Runtime, t *torch.Tensor) (*torch.Tensor, error) {
			return rt.PowScalar(t, torch.Int(2))
		},
		"rsqrt": (*torch.Runtime).Rsqrt,
		"sign":  func(rt *torch.Runtime, t *torch.Tensor) (*torch.Tensor, error) { return rt.RoundLike("sign", t) },
		"floor": func(rt *torch.Runtime, t *torch.Tensor) (*torch.Tensor, error) { return rt.RoundLike("floor", t) },
		"ceil":  func(rt *torch.Runtime, t *torch.Tensor) (*torch.Tensor, error) { return rt.RoundLike("ceil", t) },
		"trunc": func(rt *torch.Runtime, t *torch.Tensor) (*torch.Tensor, error) { return rt.RoundLike("trunc", t) },
		"round": func(rt *torch.Runtime, t *torch.Tensor) (*torch.Tensor, error) { return rt.RoundLike("round", t) },
		"isnan": func(rt *torch.Runtime, t *torch.Tensor) (*torch.Tensor, error) { return rt.CompareScalar("isnan", t) },
		"isinf": func(rt *torch.Runtime, t *torch.Tensor) (*torch.Tensor, error) { return rt.CompareScalar("isinf", t) },
		"logical_not": func(rt *torch.Runtime, t *torch.Tensor) (*torch.Tensor, error) {
			return rt.CompareScalar("logical_not", t)
		},
		"bitwise_not": func(rt *torch.Runtime, t *torch.Tensor) (*torch.Tensor, error) {
			return rt.UnaryNoGrad("bitwise_not", t)
		},
		"silu": (*torch.Runtime).Silu,
	}
	// autocastFP32 are the unary ops on autocast's fp32 list (square is
	// at::pow underneath).
	autocastFP32 := map[string]bool{"exp": true, "log": true, "rsqrt": true, "square": true}
	for name, f := range unary {
		both(name, func(h *Host, it *py.Interp, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
			x, err := self(name, args)
			if err != nil {
				return nil, err
			}
			if autocastFP32[name] {
				return h.wrapResult(h.rt.FP32(func(ts ...*torch.Tensor) (*torch.Tensor, error) {
					return f(h.rt, ts[0])
				}, x.t))
			}
			return h.wrapResult(f(h.rt, x.t))
		})
	}
	both("clamp", clampOp)
	both("clip", clampOp)
	both("where", func(h *Host, it *py.Interp, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
		c, err := self("where", args)
		if err != nil {
			return nil, err
		}
		a, ok1 := h.asTensor(argOr(args, kwargs, 1, "input"), c.t)
		b, ok2 := h.asTensor(argOr(args, kwargs, 2, "other"), c.t)
		if !ok1 || !ok2 {
			return nil, typeErr("where(): expected tensors or numbers for 'input' and 'other'")
		}
		defer a.Release()
		defer b.Release()
		// each number operand (other's first) is a 0-dim device tensor of
		// the result's dtype while the result is allocated (q23, measured)
		for _, v := range []py.Value{argOr(args, kwargs, 2, "other"), argOr(args, kwargs, 1, "input")} {
			if isTensorValue(v) || !c.t.Device().IsCUDA() {
				continue
			}
			z, err := h.rt.Factory("where", nil, torch.ResultType([]*torch.Tensor{a, b}, nil), c.t.Device(), false)
			if err != nil {
				return nil, pyErr(err)
			}
			defer z.Release()
		}
		return h.wrapResult(h.rt.Where(c.t, a, b))
	})
	// in place
	for _, name := range []string{"add_", "sub_", "mul_", "div_"} {
		base := name[:len(name)-1]
		method(name, func(h *Host, it *py.Interp, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
			x, err := self(name, args)
			if err != nil {
				return nil, err
			}
			if base == "div" {
				mode, err := roundingMode(kwargs)
				if err != nil {
					return nil, err
				}
				if mode != "" {
					return h.inplaceDiv(x, mode, argOr(args, kwargs, 1, "other"))
				}
			}
			alpha, err := floatOf(name, "alpha", argOr(nil, kwargs, -1, "alpha"), 1)
			if err != nil {
				return nil, err
			}
			r, err := h.inplaceBinary(base, x.t, argOr(args, kwargs, 1, "other"), alpha)
			if err != nil {
				return nil, err
			}
			return h.wrap(r), nil
		})
	}
	// random_ and bernoulli_: ops_random.go
	for _, name := range []string{"zero_", "fill_", "normal_", "uniform_", "exponential_"} {
		base := name[:len(name)-1]
		method(name, func(h *Host, it *py.Interp, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
			x, err := self(name, args)
			if err != nil {
				return nil, err
			}
			kind, sc := inplaceInit(base, args, kwargs)
			if g, err := genArg(it, kwargs); err != nil || g != nil {
				if err != nil {
					return nil, err
				}
				return h.wrapResult(h.rt.InplaceRandom(base, x.t, g, kind, nil, sc...))
			}
			if iv, ok := exactIntFill(h, x.t, base, argOr(args, kwargs, 1, "value")); ok {
				return h.wrapResult(h.rt.InplaceFillExact(base, x.t, iv))
			}
			return h.wrapResult(h.rt.InplaceUnaryInit(base, x.t, kind, sc...))
		})
	}
	method("relu_", func(h *Host, it *py.Interp, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
		x, err := self("relu_", args)
		if err != nil {
			return nil, err
		}
		return h.wrapResult(h.rt.ReluInplace(x.t))
	})
	for name, node := range map[string]string{"sigmoid_": "SigmoidBackward0", "tanh_": "TanhBackward0", "exp_": "ExpBackward0"} {
		method(name, func(h *Host, it *py.Interp, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
			x, err := self(name, args)
			if err != nil {
				return nil, err
			}
			return h.wrapResult(h.rt.UnaryInplaceResult(name[:len(name)-1], node, x.t))
		})
	}
	for _, name := range []string{"clamp_", "clip_"} {
		method(name, func(h *Host, it *py.Interp, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
			x, err := self(name, args)
			if err != nil {
				return nil, err
			}
			var bounds [2]*float64 // the values only: min and max as numbers
			for i, b := range []string{"min", "max"} {
				if s, ok := scalarArg(argOr(args, kwargs, i+1, b)); ok {
					v := s.Value()
					bounds[i] = &v
				}
			}
			lo, hi := torch.ClampBounds(bounds[0], bounds[1])
			return h.wrapResult(h.rt.ClampInplace(x.t, lo, hi))
		})
	}
	method("copy_", func(h *Host, it *py.Interp, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
		x, err := self("copy_", args)
		if err != nil {
			return nil, err
		}
		src, err := tensorOf("copy_", "src", argOr(args, kwargs, 1, "src"))
		if err != nil {
			return nil, err
		}
		return h.wrapResult(h.rt.CopyInplace(x.t, src))
	})
}

// binaryOp builds torch.add(input, other, alpha=1) & co.
func binaryOp(name string, op py.Op) opFunc {
	return func(h *Host, it *py.Interp, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
		if len(args) > 0 {
			if _, ok := args[0].(*Tensor); !ok && (op == py.OpAdd || op == py.OpMul) && len(args) > 1 {
				args = []py.Value{args[1], args[0]}
			}
		}
		x, err := self(name, args)
		if err != nil {
			return nil, err
		}
		alpha, err := floatOf(name, "alpha", argOr(nil, kwargs, -1, "alpha"), 1)
		if err != nil {
			return nil, err
		}
		other := argOr(args, kwargs, 1, "other")
		if other == nil {
			other = argOr(nil, kwargs, -1, "exponent")
		}
		if op == py.OpTrueDiv {
			mode, err := roundingMode(kwargs)
			if err != nil {
				return nil, err
			}
			if mode != "" {
				return h.divOp(mode, x.t, other)
			}
		}
		r, err := h.arith(op, x.t, other, false, alpha)
		return h.finishArith(name, r, err, other)
	}
}

func (h *Host) finishArith(name string, r *torch.Tensor, err error, other py.Value) (py.Value, error) {
	if err != nil {
		return nil, pyErr(err)
	}
	if r == nil {
		return nil, typeErr("%s(): argument 'other' (position 2) must be Tensor, not %s", name, typeName(other))
	}
	return h.wrap(r), nil
}

// asTensor converts a tensor or Python number (a zero-dim tensor on like's
// device is not allocated: numbers are wrapped scalars) to a new reference.
// isTensorValue reports whether v is a tensor.
func isTensorValue(v py.Value) bool {
	_, ok := tensorArg(v)
	return ok
}

func (h *Host) asTensor(v py.Value, like *torch.Tensor) (*torch.Tensor, bool) {
	if t, ok := tensorArg(v); ok {
		return t.Retain(), true
	}
	if s, ok := scalarArg(v); ok {
		return h.rt.ScalarTensor(s), true
	}
	return nil, false
}

func clampOp(h *Host, it *py.Interp, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
	x, err := self("clamp", args)
	if err != nil {
		return nil, err
	}
	if lo, hi, ok := clampTensorBounds(args, kwargs); ok { // ops_math_more.go
		return h.wrapResult(h.rt.ClampTensors(x.t, lo, hi))
	}
	var bounds [2]*float64 // the values only: min and max as numbers
	floatBound := false    // a Python float bound makes an integer tensor's result float
	for i, name := range []string{"min", "max"} {
		if s, ok := scalarArg(argOr(args, kwargs, i+1, name)); ok {
			v := s.Value()
			bounds[i] = &v
			if s.Kind == torch.ScalarFloat {
				floatBound = true
			}
		}
	}
	return h.wrapResult(h.rt.ClampNumbers(x.t, bounds[0], bounds[1], floatBound))
}

// inplaceInit is how a GPU run computes zero_, fill_, normal_ and uniform_
// (the factory kind and its scalars); "" for the others and for an
// argument whose value is not known (a tensor without values).
func inplaceInit(base string, args []py.Value, kwargs []py.Kwarg) (torch.ExecKind, []float64) {
	arg := func(i int, name string, def float64) (float64, bool) {
		v := argOr(args, kwargs, i, name)
		if v == nil || v == py.None {
			return def, true
		}
		return valueArg(v)
	}
	switch base {
	case "zero":
		return torch.ExecFill, []float64{0}
	case "fill":
		if v, ok := arg(1, "value", 0); ok {
			return torch.ExecFill, []float64{v}
		}
	case "normal", "uniform":
		kind, lo, hi := torch.ExecNormal, "mean", "std"
		if base == "uniform" {
			kind, lo, hi = torch.ExecUniform, "from", "to"
		}
		a0, ok0 := arg(1, lo, 0)
		a1, ok1 := arg(2, hi, 1)
		if ok0 && ok1 {
			return kind, []float64{a0, a1}
		}
	}
	return "", nil
}
