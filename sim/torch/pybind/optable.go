package pybind

import (
	"github.com/gpumem/playground/sim/py"
)

// opFunc implements an operation shared by the Tensor method and the torch
// function of the same name: args[0] is the tensor (self).
type opFunc func(h *Host, it *py.Interp, args []py.Value, kwargs []py.Kwarg) (py.Value, error)

// opSpec says where an operation is exposed.
type opSpec struct {
	fn       opFunc
	fnFunc   opFunc // the torch function when it differs from the method (nil: fn)
	method   bool   // Tensor.name
	function bool   // torch.name
}

// ops is the table of tensor operations; filled by the ops_*.go files'
// init functions, one family per file.
var ops = map[string]opSpec{}

func def(name string, method, function bool, fn opFunc) {
	ops[name] = opSpec{fn: fn, method: method, function: function}
}

// both registers a Tensor method that is also a torch function.
func both(name string, fn opFunc) { def(name, true, true, fn) }

// bothApart registers a Tensor method and a torch function of the same name
// whose argument errors differ (PyTorch's parser lists the function's
// signatures with "Tensor input", the method's without).
func bothApart(name string, methodFn, funcFn opFunc) {
	ops[name] = opSpec{fn: methodFn, fnFunc: funcFn, method: true, function: true}
}

// method registers a Tensor method only.
func method(name string, fn opFunc) { def(name, true, false, fn) }

// self returns the tensor of args[0] or a TypeError naming the op.
func self(name string, args []py.Value) (*Tensor, error) {
	if len(args) == 0 {
		return nil, typeErr("%s() missing 1 required positional argument: \"input\"", name)
	}
	x, ok := args[0].(*Tensor)
	if !ok || x.t == nil {
		return nil, typeErr("%s(): argument 'input' (position 1) must be Tensor, not %s", name, typeName(args[0]))
	}
	return x, nil
}

// tensorMethods builds the method table of the Tensor class from ops.
func tensorMethods() map[string]py.MethodFunc {
	m := map[string]py.MethodFunc{}
	for name, spec := range ops {
		if !spec.method {
			continue
		}
		fn := spec.fn
		m[name] = func(it *py.Interp, s py.Value, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
			x := s.(*Tensor)
			if x.t == nil {
				return nil, runtimeErr("internal: a released tensor was used")
			}
			all := make([]py.Value, 0, len(args)+1)
			all = append(all, s)
			all = append(all, args...)
			return x.h.opDone(fn(x.h, it, all, kwargs))
		}
	}
	return m
}

// addFunctions adds the torch.name functions of ops to module m.
func (h *Host) addFunctions(it *py.Interp, m *py.Module) {
	for name, spec := range ops {
		if !spec.function {
			continue
		}
		fn := spec.fn
		if spec.fnFunc != nil {
			fn = spec.fnFunc
		}
		m.Add(it, name, py.NewBuiltin(name, func(it *py.Interp, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
			return h.opDone(fn(h, it, args, kwargs))
		}))
	}
}
