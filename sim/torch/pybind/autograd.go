package pybind

import (
	"errors"

	"github.com/gpumem/playground/sim/py"
	"github.com/gpumem/playground/sim/torch"
)

// tensorSeq reads a tensor or a sequence of tensors (None entries allowed
// when allowNone).
func tensorSeq(fn, what string, v py.Value, allowNone bool) ([]*torch.Tensor, error) {
	if v == nil || v == py.None {
		return nil, nil
	}
	if t, ok := tensorArg(v); ok {
		return []*torch.Tensor{t}, nil
	}
	es, ok := elems(v)
	if !ok {
		return nil, typeErr("%s(): %s must be a Tensor or a sequence of Tensors, not %s", fn, what, typeName(v))
	}
	out := make([]*torch.Tensor, len(es))
	for i, e := range es {
		if e == py.None && allowNone {
			continue
		}
		t, ok := tensorArg(e)
		if !ok {
			return nil, typeErr("%s(): expected Tensor as element %d of %s, but got %s", fn, i, what, typeName(e))
		}
		out[i] = t
	}
	return out, nil
}

// backward is torch.autograd.backward(tensors, grad_tensors, retain_graph,
// create_graph, inputs) and Tensor.backward.
func (h *Host) backward(tensors []py.Value, gradV, retainV, createV, inputsV py.Value) (py.Value, error) {
	it := h.it
	var roots []*torch.Tensor
	for _, v := range tensors {
		ts, err := tensorSeq("backward", "tensors", v, false)
		if err != nil {
			return nil, err
		}
		roots = append(roots, ts...)
	}
	grads, err := tensorSeq("backward", "grad_tensors", gradV, true)
	if err != nil {
		return nil, err
	}
	create, err := boolOf(it, createV, false)
	if err != nil {
		return nil, err
	}
	retain, err := boolOf(it, retainV, create)
	if err != nil {
		return nil, err
	}
	inputs, err := tensorSeq("backward", "inputs", inputsV, false)
	if err != nil {
		return nil, err
	}
	err = h.rt.Backward(roots, grads, torch.BackwardOptions{RetainGraph: retain, CreateGraph: create, Inputs: inputs})
	var bf *torch.BackwardFailure
	if errors.As(err, &bf) {
		return nil, h.keepWithException(pyErr(bf.Err), bf.Grads)
	}
	if err != nil {
		return nil, pyErr(err)
	}
	return py.None, nil
}

// keepWithException hands the gradients of a failed backward (owned) to
// the exception, which keeps them as PyTorch's traceback keeps the frame of
// torch.autograd.backward (its grad_tensors_): they are freed when the
// script lets go of the exception (the end of `except ... as e:`).
func (h *Host) keepWithException(err error, grads []*torch.Tensor) error {
	inst, ok := err.(*py.Instance)
	if !ok {
		for _, g := range grads {
			g.Release()
		}
		return err
	}
	t := h.wrapTuple(grads)
	if serr := h.it.SetAttr(inst, "_sim_backward_grads", t); serr != nil {
		h.it.DecRef(t)
		return err
	}
	h.it.DecRef(t)
	return err
}

func (h *Host) buildAutograd(it *py.Interp) (*py.Module, error) {
	m := it.NewModule("torch.autograd")
	m.Add(it, "backward", py.NewBuiltin("backward", func(it *py.Interp, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
		return h.backward([]py.Value{argOr(args, kwargs, 0, "tensors")}, argOr(args, kwargs, 1, "grad_tensors"),
			argOr(args, kwargs, 2, "retain_graph"), argOr(args, kwargs, 3, "create_graph"), argOr(args, kwargs, 5, "inputs"))
	}))
	m.Add(it, "grad", py.NewBuiltin("grad", func(it *py.Interp, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
		outs, err := tensorSeq("grad", "outputs", argOr(args, kwargs, 0, "outputs"), false)
		if err != nil {
			return nil, err
		}
		ins, err := tensorSeq("grad", "inputs", argOr(args, kwargs, 1, "inputs"), false)
		if err != nil {
			return nil, err
		}
		gs, err := tensorSeq("grad", "grad_outputs", argOr(args, kwargs, 2, "grad_outputs"), true)
		if err != nil {
			return nil, err
		}
		create, err := boolOf(it, argOr(args, kwargs, 4, "create_graph"), false)
		if err != nil {
			return nil, err
		}
		retain, err := boolOf(it, argOr(args, kwargs, 3, "retain_graph"), create)
		if err != nil {
			return nil, err
		}
		unused, err := boolOf(it, argOr(nil, kwargs, -1, "allow_unused"), false)
		if err != nil {
			return nil, err
		}
		r, err := h.rt.Grad(outs, ins, gs, torch.BackwardOptions{RetainGraph: retain, CreateGraph: create, AllowUnused: unused})
		if err != nil {
			return nil, pyErr(err)
		}
		return h.wrapTuple(r), nil
	}))
	for _, k := range []modeKind{modeNoGrad, modeEnableGrad, modeSetGrad, modeInference} {
		m.Set(it, modeClasses[k].Name, modeClasses[k])
	}
	fc, err := h.functionClass(it)
	if err != nil {
		return nil, err
	}
	m.Set(it, "Function", fc)
	return m, nil
}

func (h *Host) buildAutogradGraph(it *py.Interp) (*py.Module, error) {
	m := it.NewModule("torch.autograd.graph")
	m.Set(it, "saved_tensors_hooks", modeClasses[modeSavedHooks])
	return m, nil
}
