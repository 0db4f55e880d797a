package torch

// The division family without gradients in the model: // and
// torch.floor_divide, torch.div(rounding_mode="trunc"/"floor"), % and
// torch.remainder, torch.fmod, their in-place forms and the reflected
// forms of // and % (100 // t). Memory: one output of the promoted dtype
// (in place: none). Values: the ExecKinds below (gpu/gpuexec's division
// family), "_s" when the divisor is a Python number in Scalars[0],
// "r…_s" when the dividend is.

// Division family ExecKinds (the tensor forms: In[0] ⊘ In[1]).
const (
	ExecDivTrunc  ExecKind = "div_trunc" // trunc(a / b); integers: C division
	ExecDivFloor  ExecKind = "div_floor" // floor(a / b): //, floor_divide
	ExecRemainder ExecKind = "remainder" // a − floor(a / b)·b: %, remainder
	ExecFmod      ExecKind = "fmod"      // C fmod: the dividend's sign
)

// divKinds maps the ops' names to their kinds.
var divKinds = map[string]ExecKind{
	"floor_divide": ExecDivFloor, "div_floor": ExecDivFloor, "div_trunc": ExecDivTrunc,
	"remainder": ExecRemainder, "fmod": ExecFmod,
}

// IsDivFamily reports an op name of the division family.
func IsDivFamily(op string) bool { return divKinds[op] != "" }

// DivTensor is op(a, b) for an op of the division family (floor_divide,
// div_trunc, remainder, fmod) with two tensors.
func (rt *Runtime) DivTensor(op string, a, b *Tensor) (*Tensor, error) {
	out, err := rt.pointwiseOut(divLabel(op), ResultType([]*Tensor{a, b}, nil), a, b)
	if err == nil && rt.exec != nil {
		rt.divValues(op, out, a, b)
	}
	return out, err
}

// DivScalarOp is op(a, s) with a Python number (reflected: op(s, a), for
// // and % only).
func (rt *Runtime) DivScalarOp(op string, a *Tensor, s Scalar, reflected bool) (*Tensor, error) {
	out, err := rt.unaryOut(divLabel(op), a, scalarResult(a, s))
	if err == nil && rt.exec != nil {
		rt.divScalarValues(op, out, a, s, reflected)
	}
	return out, err
}

// DivInplace is a.op_(b) (b nil: the number s) for // =, %=,
// floor_divide_, remainder_, fmod_ and div_(rounding_mode=...): the
// result's dtype must cast to a's, as PyTorch checks.
func (rt *Runtime) DivInplace(op string, a, b *Tensor, s Scalar) (*Tensor, error) {
	res := scalarResult(a, s)
	if b != nil {
		res = ResultType([]*Tensor{a, b}, nil)
	}
	if !canCastTo(res, a.dtype) {
		return nil, Errorf(RuntimeError, "result type %s can't be cast to the desired output type %s", res.cppName(), a.dtype.cppName())
	}
	if err := rt.inplace(a, b); err != nil {
		return nil, err
	}
	if rt.exec != nil {
		if b != nil {
			rt.divValues(op, a, a, b)
		} else {
			rt.divScalarValues(op, a, a, s, false)
		}
	}
	return a.Retain(), nil
}

// canCastTo is c10::canCast: no float into an integer, nothing but bool
// into bool.
func canCastTo(from, to DType) bool {
	switch {
	case from.IsFloating() && to.IsIntegral(true):
		return false
	case from != Bool && to == Bool:
		return false
	}
	return true
}

// divLabel is the allocation's op name (PyTorch's div for the rounding
// modes).
func divLabel(op string) string {
	if op == "div_trunc" || op == "div_floor" {
		return "div"
	}
	return op
}

func (rt *Runtime) divValues(op string, out, a, b *Tensor) {
	if k := divKinds[op]; k != "" {
		rt.compute1(k, out, []*Tensor{a, b})
	} else {
		rt.markNotComputed(out)
	}
}

func (rt *Runtime) divScalarValues(op string, out, a *Tensor, s Scalar, reflected bool) {
	k := divKinds[op]
	switch {
	case k == "" || (reflected && k != ExecDivFloor && k != ExecRemainder):
		rt.markNotComputed(out)
	case reflected:
		rt.numberValues("r"+k+"_s", out, a, s)
	default:
		rt.numberValues(k+"_s", out, a, s)
	}
}
