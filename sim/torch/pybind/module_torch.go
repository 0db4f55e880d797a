package pybind

import (
	"sort"

	"github.com/gpumem/playground/sim/py"
	"github.com/gpumem/playground/sim/torch"
)

// Submodules lists the modules a run imports before the script (parents
// first): torch, torch.cuda, torch._sim (the prelude's hooks), and torch.nn
// with what it imports (Module, Linear, functional, init). The other
// modules, Go (torch.autograd, torch.linalg, torch.cuda.memory, torch._C)
// and prelude (torch.optim, torch.utils.data, torch.utils.checkpoint,
// torch.amp, torch.cuda.amp, torch.backends, the other layers of torch.nn,
// ...), load on first access, as attributes (torch.optim.AdamW) or by an
// import statement: a loaded package's registered submodules are
// attributes that load themselves (sim/py lazy.go), so `import torch` alone
// still gives them, as in PyTorch, and a first run builds only what its
// script uses.
var Submodules = []string{"torch", "torch._sim", "torch.cuda", "torch.nn", "torch.nn.functional", "torch.nn.init"}

func (h *Host) buildTorch(it *py.Interp) (*py.Module, error) {
	m := it.NewModule("torch")
	m.Add(it, "__version__", py.Str(h.prof.TorchVersion))
	names := make([]string, 0)
	for name := range torch.DTypeNames() {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		d, _ := torch.ParseDType(name)
		m.Add(it, name, h.dtype(d))
	}
	initClasses()
	m.Set(it, "Tensor", tensorClassV)
	m.Set(it, "Size", sizeClass)
	m.Set(it, "device", deviceClass)
	m.Set(it, "dtype", dtypeClass)
	addMemoryFormats(it, m)
	addLayouts(it, m)
	m.Set(it, "OutOfMemoryError", OutOfMemoryError)
	m.Set(it, "AcceleratorError", AcceleratorError)
	for _, k := range []modeKind{modeNoGrad, modeEnableGrad, modeSetGrad, modeInference, modeAutocast} {
		m.Set(it, modeClasses[k].Name, modeClasses[k])
	}
	h.addFunctions(it, m)
	h.addRNG(it, m)
	fn := func(name string, f py.CallFunc) { m.Add(it, name, py.NewBuiltin(name, f)) }
	fn("is_grad_enabled", func(it *py.Interp, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
		return py.Bool(h.rt.GradEnabled()), nil
	})
	fn("is_inference_mode_enabled", func(it *py.Interp, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
		return py.Bool(h.rt.InferenceMode()), nil
	})
	fn("is_autocast_enabled", func(it *py.Interp, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
		return py.Bool(h.rt.AutocastEnabled()), nil
	})
	fn("is_tensor", func(it *py.Interp, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
		_, ok := tensorArg(argOr(args, kwargs, 0, "obj"))
		return py.Bool(ok), nil
	})
	fn("is_floating_point", func(it *py.Interp, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
		t, err := tensorOf("is_floating_point", "input", argOr(args, kwargs, 0, "input"))
		if err != nil {
			return nil, err
		}
		return py.Bool(t.DType().IsFloating()), nil
	})
	fn("get_default_dtype", func(it *py.Interp, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
		return h.dtype(torch.Float32), nil
	})
	fn("set_default_dtype", func(it *py.Interp, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
		d, ok, err := dtypeArg(argOr(args, kwargs, 0, "d"))
		if err != nil {
			return nil, err
		}
		if ok && d != torch.Float32 {
			return nil, runtimeErr("set_default_dtype: only torch.float32 is simulated")
		}
		return py.None, nil
	})
	fn("clear_autocast_cache", func(it *py.Interp, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
		h.rt.ClearAutocastCache()
		return py.None, nil
	})
	return m, nil
}

func (h *Host) buildC(it *py.Interp) (*py.Module, error) {
	m := it.NewModule("torch._C")
	m.Add(it, "_cuda_clearCublasWorkspaces", py.NewBuiltin("_cuda_clearCublasWorkspaces", func(it *py.Interp, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
		h.rt.ClearCublasWorkspaces()
		return py.None, nil
	}))
	m.Add(it, "_set_grad_enabled", py.NewBuiltin("_set_grad_enabled", func(it *py.Interp, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
		b, err := boolOf(it, argOr(args, kwargs, 0, "enabled"), true)
		h.rt.SetGradEnabled(b)
		return py.None, err
	}))
	return m, nil
}
