package pybind

import (
	"github.com/gpumem/playground/sim/py"
	"github.com/gpumem/playground/sim/torch"
)

// Tensor.register_hook(hook) and the torch.utils.hooks.RemovableHandle it
// returns (handle.remove(), handle.id). The hook runs in backward on the
// tensor's gradient; a tensor it returns replaces the gradient
// (sim/torch/tensor_hooks.go).
func init() {
	method("register_hook", func(h *Host, it *py.Interp, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
		x, err := self("register_hook", args)
		if err != nil {
			return nil, err
		}
		fn := argOr(args, kwargs, 1, "hook")
		if fn == nil {
			return nil, typeErr("register_hook() missing 1 required positional argument: 'hook'")
		}
		hook := &pyGradHook{h: h, fn: py.IncRef(fn)}
		list, id, err := h.rt.RegisterHook(x.t, hook)
		if err != nil {
			hook.Release()
			return nil, pyErr(err)
		}
		return &RemovableHandle{list: list, id: id}, nil
	})
}

// pyGradHook is a Python callable registered with register_hook.
type pyGradHook struct {
	h  *Host
	fn py.Value
}

// Call runs hook(grad): None keeps the gradient, a tensor of the same
// size replaces it (PyFunctionTensorPreHook's check_single_result).
func (p *pyGradHook) Call(grad *torch.Tensor) (*torch.Tensor, error) {
	it := p.h.it
	arg := p.h.wrapBorrowed(grad)
	r, err := it.Call(p.fn, []py.Value{arg}, nil)
	it.DecRef(arg)
	if err != nil {
		return nil, err
	}
	defer it.DecRef(r)
	if r == py.None {
		return nil, nil
	}
	t, ok := tensorArg(r)
	if !ok {
		return nil, typeErr("expected Variable or None (got %s)", typeName(r))
	}
	if !sameSize(t.Shape(), grad.Shape()) {
		return nil, runtimeErr("hook '%s' has changed the size of value", p.name())
	}
	return t.Retain(), nil
}

// name is the hook's __name__ ("<lambda>"), for error messages.
func (p *pyGradHook) name() string {
	v, err := p.h.it.GetAttr(p.fn, "__name__")
	if err != nil {
		return "hook"
	}
	defer p.h.it.DecRef(v)
	if s, ok := v.(py.Str); ok {
		return string(s)
	}
	return "hook"
}

// Release drops the callable.
func (p *pyGradHook) Release() {
	if p.fn != nil {
		p.h.it.DecRef(p.fn)
		p.fn = nil
	}
}

func sameSize(a, b []int64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// RemovableHandle is torch.utils.hooks.RemovableHandle for a tensor hook.
type RemovableHandle struct {
	py.Base
	list *torch.HookList
	id   int
}

var removableHandleClass = py.NewHostClass(py.ClassSpec{
	Name: "RemovableHandle", Module: "torch.utils.hooks",
	Methods: map[string]py.MethodFunc{
		"remove": func(it *py.Interp, s py.Value, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
			r := s.(*RemovableHandle)
			if r.list != nil {
				r.list.Remove(r.id)
				r.list = nil
			}
			return py.None, nil
		},
	},
	Props: map[string]py.PropSpec{
		"id": {Get: func(it *py.Interp, s py.Value) (py.Value, error) { return py.Int(s.(*RemovableHandle).id), nil }},
	},
})

// Type is torch.utils.hooks.RemovableHandle.
func (r *RemovableHandle) Type() *py.Class { return removableHandleClass }
