package pybind

import (
	"github.com/gpumem/playground/sim/py"
	"github.com/gpumem/playground/sim/torch"
	"github.com/gpumem/playground/sim/trace"
)

func (h *Host) buildSim(it *py.Interp) (*py.Module, error) {
	m := it.NewModule("torch._sim")
	initClasses()
	m.Set(it, "Parameter", parameterClass)
	fn := func(name string, f py.CallFunc) { m.Add(it, name, py.NewBuiltin(name, f)) }
	fn("label", func(it *py.Interp, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
		var t py.Value
		var kind, name, detail string
		if err := py.UnpackArgs("label", args, kwargs, "tensor", &t, "kind", &kind, "name", &name, "detail?", &detail); err != nil {
			return nil, err
		}
		x, ok := tensorArg(t)
		if !ok {
			return py.None, nil // labels of non-tensors (None) are ignored
		}
		if detail == "" {
			detail = kind + " " + name
		}
		x.SetName(name, trace.LabelKind(kind), detail)
		return py.None, nil
	})
	fn("push_module", func(it *py.Interp, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
		var name string
		if err := py.UnpackArgs("push_module", args, kwargs, "name", &name); err != nil {
			return nil, err
		}
		h.rt.PushModule(name)
		return py.None, nil
	})
	fn("pop_module", func(it *py.Interp, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
		h.rt.PopModule()
		return py.None, nil
	})
	// computes: whether tensor values are computed (the GPU backend) or
	// not (the simulator); the prelude's data-dependent decisions ask.
	fn("computes", func(it *py.Interp, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
		return py.Bool(h.rt.Computing()), nil
	})
	fn("is_parameter", func(it *py.Interp, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
		t, ok := tensorArg(argOr(args, kwargs, 0, "t"))
		return py.Bool(ok && t.IsParameter()), nil
	})
	fn("set_data", func(it *py.Interp, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
		t, err := tensorOf("set_data", "t", argOr(args, kwargs, 0, "t"))
		if err != nil {
			return nil, err
		}
		o, err := tensorOf("set_data", "other", argOr(args, kwargs, 1, "other"))
		if err != nil {
			return nil, err
		}
		return py.None, pyErr(h.rt.SetData(t, o))
	})
	// torch.Generator's hooks (prelude torch/_generator.py): a new
	// generator's id, and its manual_seed.
	fn("new_generator", func(it *py.Interp, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
		cuda, err := boolOf(it, argOr(args, kwargs, 0, "cuda"), false)
		if err != nil {
			return nil, err
		}
		return py.Int(h.rt.NewGenerator(cuda).ID), nil
	})
	fn("seed_generator", func(it *py.Interp, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
		id, err := intOf("seed_generator", "id", argOr(args, kwargs, 0, "id"), 0)
		if err != nil {
			return nil, err
		}
		cuda, err := boolOf(it, argOr(args, kwargs, 1, "cuda"), false)
		if err != nil {
			return nil, err
		}
		seed, err := intOf("seed_generator", "seed", argOr(args, kwargs, 2, "seed"), 0)
		if err != nil {
			return nil, err
		}
		h.rt.SeedGenerator(&torch.Generator{ID: id, CUDA: cuda}, seed)
		return py.None, nil
	})
	return m, nil
}
