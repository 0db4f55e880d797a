package pybind

import (
	"math"

	"github.com/gpumem/playground/sim/py"
	"github.com/gpumem/playground/sim/torch"
)

// Tensor is the Python object of a torch.Tensor (or nn.Parameter). It owns
// one reference to t, released by Finalize.
type Tensor struct {
	py.Base
	h *Host
	t *torch.Tensor
}

// Type is torch.Tensor, or torch.nn.Parameter for parameters.
func (x *Tensor) Type() *py.Class {
	initClasses()
	if x.t != nil && x.t.IsParameter() {
		return parameterClass
	}
	return tensorClassV
}

// Finalize drops the object's reference to the tensor: its memory is freed
// here if nothing else (a graph, a .grad) holds it.
func (x *Tensor) Finalize(it *py.Interp) {
	t := x.t
	x.t = nil
	if t == nil {
		return
	}
	if t.Py == x {
		t.Py = nil
	}
	t.Release()
}

// wrap returns the Python object for t, taking over the caller's reference
// to t (a new reference to the object is returned).
func (h *Host) wrap(t *torch.Tensor) py.Value {
	if t == nil {
		return py.None
	}
	if x, ok := t.Py.(*Tensor); ok && x.t == t {
		t.Release() // the wrapper already holds one
		return py.IncRef(x)
	}
	x := &Tensor{h: h, t: t}
	t.Py = x
	return x
}

// wrapBorrowed returns the Python object for a tensor the caller keeps.
func (h *Host) wrapBorrowed(t *torch.Tensor) py.Value {
	if t == nil {
		return py.None
	}
	return h.wrap(t.Retain())
}

// wrapResult wraps an op's result, converting its error.
func (h *Host) wrapResult(t *torch.Tensor, err error) (py.Value, error) {
	if err != nil {
		return nil, pyErr(err)
	}
	return h.wrap(t), nil
}

// wrapList wraps owned tensors in a Python tuple.
func (h *Host) wrapTuple(ts []*torch.Tensor) py.Value {
	vs := make([]py.Value, len(ts))
	for i, t := range ts {
		vs[i] = h.wrap(t)
	}
	return h.it.NewTuple(vs) // takes over the references
}

// Repr is repr(tensor).
func (x *Tensor) Repr(it *py.Interp) (string, error) {
	if x.t == nil {
		return "tensor(<released>)", nil
	}
	return x.t.Repr(), nil
}

// Hash is id-based, as for torch.Tensor.
func (x *Tensor) Hash(it *py.Interp) (int64, error) { return int64(x.t.ID()), nil }

// Len is len(tensor): the first dimension.
func (x *Tensor) Len(it *py.Interp) (int, error) {
	if x.t.Dim() == 0 {
		return 0, typeErr("len() of a 0-d tensor")
	}
	return int(x.t.Shape()[0]), nil
}

// Truth is bool(tensor): only one-element tensors have a truth value
// (values are not simulated: False).
func (x *Tensor) Truth(it *py.Interp) (bool, error) {
	if x.t.Numel() != 1 {
		return false, runtimeErr("Boolean value of Tensor with more than one value is ambiguous")
	}
	if vals, err := x.t.Values(); err == nil && len(vals) == 1 {
		return vals[0] != 0, nil
	}
	if x.t.Computing() {
		return false, notComputedErr(x.t)
	}
	return false, nil
}

// Number is int(tensor) and float(tensor) (Tensor.__int__/__float__):
// the item of a one-element tensor (values are not simulated: 0).
func (x *Tensor) Number(it *py.Interp) (py.Value, error) {
	if x.t.Numel() != 1 {
		return nil, py.NewException(py.ValueError, "only one element tensors can be converted to Python scalars")
	}
	return itemValue(x.t)
}

// Index is Tensor.__index__ (range(t), a list index): only one-element
// integer tensors convert.
func (x *Tensor) Index(it *py.Interp) (py.Value, error) {
	if x.t.Numel() != 1 || !x.t.DType().IsIntegral(true) {
		return nil, typeErr("only integer tensors of a single element can be converted to an index")
	}
	return itemValue(x.t)
}

// Format is format(tensor, spec): one-element tensors format as their
// (unsimulated) value.
func (x *Tensor) Format(it *py.Interp, spec string) (string, error) {
	if spec == "" {
		return x.t.Repr(), nil
	}
	if x.t.Numel() != 1 {
		return "", typeErr("unsupported format string passed to Tensor.__format__")
	}
	v, err := itemValue(x.t)
	if err != nil {
		return "", err
	}
	return it.Format(v, spec)
}

// Iter is iter(tensor): the tensors along the first dimension.
func (x *Tensor) Iter(it *py.Interp) (py.Value, error) {
	if x.t.Dim() == 0 {
		return nil, typeErr("iteration over a 0-d tensor")
	}
	n := x.t.Shape()[0]
	i := int64(0)
	t := x.t.Retain()
	return it.NewIterator(func(it *py.Interp) (py.Value, bool, error) {
		if i >= n {
			return nil, false, nil
		}
		r, err := x.h.rt.Select(t, 0, i)
		i++
		if err != nil {
			return nil, false, pyErr(err)
		}
		return x.h.wrap(r), true, nil
	}, func(it *py.Interp) { t.Release() }), nil
}

// itemValue is the value of a one-element tensor: the computed one on a
// GPU run; in the simulator (no values) 0, 0.0 or False. On a GPU run
// whose value was not computed a float is NaN and an integer or bool is
// an error (no integer means "unknown": 0 would be a wrong number).
func itemValue(t *torch.Tensor) (py.Value, error) {
	if t.DType().IsIntegral(false) {
		if ints, err := t.IntValues(); err == nil && len(ints) == 1 {
			return py.Int(ints[0]), nil // exact beyond 2^53
		}
	}
	vals, err := t.Values()
	if err == nil && len(vals) == 1 {
		// A GPU run computed the value (float32 widened exactly to a
		// Python float, as .item() does).
		switch {
		case t.DType() == torch.Bool:
			return py.Bool(vals[0] != 0), nil
		case t.DType().IsIntegral(false):
			return py.Int(int64(vals[0])), nil
		}
		return py.Float(vals[0]), nil
	}
	if t.Computing() {
		if t.DType().IsFloating() {
			return py.Float(math.NaN()), nil
		}
		return nil, notComputedErr(t)
	}
	switch {
	case t.DType() == torch.Bool:
		return py.False, nil
	case t.DType().IsIntegral(false):
		return py.Int(0), nil
	}
	return py.Float(0), nil
}

// notComputedErr is the error of reading a value the GPU backend did not
// compute where no placeholder exists (an integer, a truth value).
func notComputedErr(t *torch.Tensor) error {
	return runtimeErr("the values of this %s tensor were not computed on the GPU backend (an op before it has no kernels)", t.DType())
}

// tensorArg returns the tensor a Value holds.
func tensorArg(v py.Value) (*torch.Tensor, bool) {
	x, ok := v.(*Tensor)
	if !ok || x.t == nil {
		return nil, false
	}
	return x.t, true
}
