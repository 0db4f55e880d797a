package pybind

import (
	"sync"

	"github.com/gpumem/playground/sim/py"
	"github.com/gpumem/playground/sim/torch"
)

var hosts sync.Map // *py.Interp → *Host, for constructors of shared host classes

// hostOf finds the binding of the interpreter running a constructor.
func hostOf(it *py.Interp) (*Host, error) {
	if h, ok := hosts.Load(it); ok {
		return h.(*Host), nil
	}
	return nil, runtimeErr("internal: torch is not bound to this interpreter")
}

// newParameter is nn.Parameter(data=None, requires_grad=True): a leaf
// sharing data's storage (Tensor._make_subclass), requiring grad.
func newParameter(it *py.Interp, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
	h, err := hostOf(it)
	if err != nil {
		return nil, err
	}
	var data, rg py.Value = py.None, py.True
	if err := py.UnpackArgs("Parameter", args, kwargs, "data?", &data, "requires_grad?", &rg); err != nil {
		return nil, err
	}
	b, err := it.Truth(rg)
	if err != nil {
		return nil, err
	}
	var t *torch.Tensor
	if data == py.None {
		if t, err = h.rt.Factory("empty", []int64{0}, torch.Float32, torch.CPUDevice, false); err != nil {
			return nil, pyErr(err)
		}
	} else {
		src, ok := tensorArg(data)
		if !ok {
			return nil, typeErr("Parameter(): argument 'data' must be Tensor, not %s", typeName(data))
		}
		t = h.rt.Detach(src)
	}
	if b && !t.DType().Differentiable() {
		t.Release()
		return nil, runtimeErr("Only Tensors of floating point and complex dtype can require gradients")
	}
	t.MarkParameter(b)
	return h.wrap(t), nil
}
