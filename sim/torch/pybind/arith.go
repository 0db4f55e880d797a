package pybind

import (
	"github.com/gpumem/playground/sim/py"
	"github.com/gpumem/playground/sim/torch"
)

// arith computes a ⊕ other for the arithmetic operators and torch.add & co.
// other is a tensor or a Python number; reflected means other ⊕ a. It
// returns (nil, nil) when other is neither (the operator is then
// NotImplemented).
func (h *Host) arith(op py.Op, a *torch.Tensor, other py.Value, reflected bool, alpha float64) (*torch.Tensor, error) {
	rt := h.rt
	if b, ok := tensorArg(other); ok {
		x, y := a, b
		if reflected {
			x, y = b, a
		}
		switch op {
		case py.OpAdd:
			return rt.Add(x, y, alpha)
		case py.OpSub:
			return rt.Sub(x, y, alpha)
		case py.OpMul:
			return rt.Mul(x, y)
		case py.OpTrueDiv:
			return rt.Div(x, y)
		case py.OpMatMul:
			return rt.LowerPrecision2("matmul", rt.Matmul, x, y)
		case py.OpFloorDiv, py.OpMod, py.OpAnd, py.OpOr, py.OpXor:
			return rt.BinaryNoGrad(opName(op), x, y)
		case py.OpPow:
			return rt.FP32(func(ts ...*torch.Tensor) (*torch.Tensor, error) {
				return rt.Pow(ts[0], ts[1]) // pow.Tensor_Tensor: autocast's fp32 list
			}, x, y)
		}
		return nil, nil
	}
	s, ok := scalarArg(other)
	if !ok {
		return nil, nil
	}
	switch op {
	case py.OpAdd:
		if alpha != 1 {
			s = torch.Float(s.Value() * alpha)
		}
		return rt.AddScalar(a, s)
	case py.OpSub:
		if reflected {
			return rt.RSubScalar(a, s)
		}
		if alpha != 1 {
			s = torch.Float(s.Value() * alpha)
		}
		return rt.SubScalar(a, s)
	case py.OpMul:
		return rt.MulScalar(a, s)
	case py.OpTrueDiv:
		if reflected {
			return rt.RDivScalar(a, s)
		}
		return rt.DivScalar(a, s)
	case py.OpPow:
		// pow.Scalar and pow.Tensor_Scalar are on autocast's fp32 list
		return rt.FP32(func(ts ...*torch.Tensor) (*torch.Tensor, error) {
			if reflected {
				return rt.RPowScalar(ts[0], s)
			}
			return rt.PowScalar(ts[0], s)
		}, a)
	case py.OpFloorDiv, py.OpMod:
		return rt.DivScalarOp(opName(op), a, s, reflected)
	case py.OpAnd, py.OpOr, py.OpXor:
		return rt.ScalarNoGrad(opName(op), a, s)
	}
	return nil, nil
}

func opName(op py.Op) string {
	switch op {
	case py.OpFloorDiv:
		return "floor_divide"
	case py.OpMod:
		return "remainder"
	case py.OpAnd:
		return "bitwise_and"
	case py.OpOr:
		return "bitwise_or"
	case py.OpXor:
		return "bitwise_xor"
	case py.OpEq:
		return "eq"
	case py.OpNe:
		return "ne"
	case py.OpLt:
		return "lt"
	case py.OpLe:
		return "le"
	case py.OpGt:
		return "gt"
	case py.OpGe:
		return "ge"
	}
	return "op"
}

// Binary implements the arithmetic operators of tensors.
func (x *Tensor) Binary(it *py.Interp, op py.Op, other py.Value, reflected bool) (py.Value, error) {
	return x.h.opDone(x.binary(op, other, reflected))
}

func (x *Tensor) binary(op py.Op, other py.Value, reflected bool) (py.Value, error) {
	r, err := x.h.arith(op, x.t, other, reflected, 1)
	if err != nil {
		return nil, pyErr(err)
	}
	if r == nil {
		return py.NotImplemented, nil
	}
	return x.h.wrap(r), nil
}

// Inplace implements +=, -=, *=, /= keeping the tensor's identity.
func (x *Tensor) Inplace(it *py.Interp, op py.Op, other py.Value) (py.Value, error) {
	return x.h.opDone(x.inplace(op, other))
}

func (x *Tensor) inplace(op py.Op, other py.Value) (py.Value, error) {
	var name string
	switch op {
	case py.OpAdd:
		name = "add"
	case py.OpSub:
		name = "sub"
	case py.OpMul:
		name = "mul"
	case py.OpTrueDiv:
		name = "div"
	case py.OpFloorDiv, py.OpMod:
		return x.h.inplaceDiv(x, opName(op), other)
	default:
		return py.NotImplemented, nil
	}
	r, err := x.h.inplaceBinary(name, x.t, other, 1)
	if err != nil {
		return nil, err
	}
	r.Release()
	return py.IncRef(x), nil
}

// inplaceBinary is t.add_(other) & co. (a new reference to t).
func (h *Host) inplaceBinary(name string, t *torch.Tensor, other py.Value, alpha float64) (*torch.Tensor, error) {
	if b, ok := tensorArg(other); ok {
		r, err := h.rt.InplaceBinary(name, t, b, torch.Scalar{}, alpha)
		return r, pyErr(err)
	}
	s, ok := scalarArg(other)
	if !ok {
		return nil, typeErr("%s_(): argument 'other' (position 1) must be Tensor, not %s", name, typeName(other))
	}
	if alpha != 1 {
		s = torch.Float(s.Value() * alpha)
	}
	r, err := h.rt.InplaceBinary(name, t, nil, s, 1)
	return r, pyErr(err)
}

// Compare implements ==, !=, <, <=, >, >= elementwise (bool tensors).
func (x *Tensor) Compare(it *py.Interp, op py.Op, other py.Value, reflected bool) (py.Value, error) {
	name := opName(op)
	if b, ok := tensorArg(other); ok {
		return x.h.wrapResult(x.h.rt.Compare(name, x.t, b))
	}
	if s, ok := scalarArg(other); ok {
		return x.h.wrapResult(x.h.rt.CompareNumber(name, x.t, s))
	}
	return py.NotImplemented, nil
}

// Unary implements -t, +t and ~t.
func (x *Tensor) Unary(it *py.Interp, op py.Op) (py.Value, error) {
	return x.h.opDone(x.unary(op))
}

func (x *Tensor) unary(op py.Op) (py.Value, error) {
	switch op {
	case py.OpNeg:
		return x.h.wrapResult(x.h.rt.Neg(x.t))
	case py.OpPos:
		return py.IncRef(x), nil
	case py.OpInvert:
		// Tensor.__invert__ checks the dtype in Python before bitwise_not
		if !x.t.DType().IsIntegral(true) {
			return nil, typeErr("~ (operator.invert) is only implemented on integer and Boolean-type tensors")
		}
		return x.h.wrapResult(x.h.rt.UnaryNoGrad("bitwise_not", x.t))
	}
	return py.NotImplemented, nil
}
