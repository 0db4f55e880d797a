package torch

import "github.com/gpumem/playground/sim/trace"

// SavedTensorHooks are a pack/unpack pair installed by
// torch.autograd.graph.saved_tensors_hooks (checkpointing uses them). The
// binding implements them with Python callables.
type SavedTensorHooks interface {
	// Pack is called when a tensor is saved (t borrowed); the returned handle
	// is kept instead of the tensor.
	Pack(t *Tensor) (any, error)
	// Unpack turns a handle back into a tensor (owned reference).
	Unpack(packed any) (*Tensor, error)
	// Drop releases a handle (the saved variable is freed).
	Drop(packed any)
}

// SavedVar is torch::autograd::SavedVariable: a tensor an op keeps for its
// backward. Inputs and leaves are kept as the tensor itself; an op's own
// output is kept as a shallow copy sharing storage (tensor_data), so that
// the graph holds no reference cycle.
type SavedVar struct {
	t        *Tensor
	hooks    SavedTensorHooks
	packed   any
	isOutput bool
	version  int64
	defined  bool
	released bool
	node     *Node

	// deferred is an op's own output whose pack hook runs once the op has
	// set its history (PyTorch saves outputs after set_history, so the hook
	// sees a tensor that requires grad and has its grad_fn).
	deferred  *Tensor
	deferHook SavedTensorHooks
}

// TakeError returns (and clears) the error a saved-tensor pack hook raised
// while an op ran. In PyTorch the exception unwinds the op, freeing its
// output; ops here finish, so the binding calls TakeError when an op
// returns, drops the result and raises the error instead.
func (rt *Runtime) TakeError() error {
	err := rt.packErr
	rt.packErr = nil
	return err
}

// PushSavedTensorHooks installs a hook pair (innermost wins).
func (rt *Runtime) PushSavedTensorHooks(h SavedTensorHooks) { rt.savedHooks = append(rt.savedHooks, h) }

// PopSavedTensorHooks removes the innermost hook pair.
func (rt *Runtime) PopSavedTensorHooks() {
	if len(rt.savedHooks) > 0 {
		rt.savedHooks = rt.savedHooks[:len(rt.savedHooks)-1]
	}
}

// save adds a saved variable for t (which may be nil: an undefined tensor)
// and returns its index. isOutput marks the op's own output.
func (n *Node) save(t *Tensor, isOutput bool) (int, error) {
	sv := &SavedVar{isOutput: isOutput, node: n}
	n.saved = append(n.saved, sv)
	idx := len(n.saved) - 1
	if t == nil {
		return idx, nil
	}
	sv.defined = true
	sv.version = *t.version
	if k := len(n.rt.savedHooks); k > 0 {
		if n.rt.packErr != nil {
			// the op already failed (PyTorch would have unwound): no more hooks
			sv.defined = false
			return idx, n.rt.packErr
		}
		h := n.rt.savedHooks[k-1]
		if isOutput && t.gradFn != n {
			sv.deferred, sv.deferHook = t.Retain(), h
			return idx, nil
		}
		p, err := h.Pack(t)
		if err != nil {
			sv.defined = false
			n.rt.packErr = err
			return idx, err
		}
		sv.hooks, sv.packed = h, p
		return idx, nil
	}
	// an op's own output gets its grad_fn right after it is saved, so it is
	// never a leaf here: keep a shallow copy to avoid the cycle
	if !isOutput {
		sv.t = t.Retain()
	} else {
		sv.t = t.tensorData()
	}
	n.labelSaved(sv.t)
	return idx, nil
}

// packDeferred runs the pack hooks of outputs saved before the op set its
// history (called by setHistory).
func (n *Node) packDeferred() {
	for _, sv := range n.saved {
		t := sv.deferred
		if t == nil {
			continue
		}
		h := sv.deferHook
		sv.deferred, sv.deferHook = nil, nil
		if n.rt.packErr != nil {
			sv.defined = false
			t.Release()
			continue
		}
		p, err := h.Pack(t)
		t.Release()
		if err != nil {
			sv.defined = false
			n.rt.packErr = err
			continue
		}
		sv.hooks, sv.packed = h, p
	}
}

// labelSaved names memory that now lives because a node saved it, unless it
// already has a name that says more (a parameter, a user variable).
func (n *Node) labelSaved(t *Tensor) {
	if t.storage == nil || t.storage.block == nil {
		return
	}
	k := t.storage.label.Kind
	if k == trace.LabelParameter || k == trace.LabelBuffer || k == trace.LabelGradient || k == trace.LabelOptimizer || k == trace.LabelSaved {
		return
	}
	if k == trace.LabelUser && t.name != "" {
		return
	}
	op := n.name
	detail := "saved by " + op + " for backward"
	if n.module != "" {
		detail = "saved by " + op + " in " + n.module + " for backward"
	}
	t.storage.relabel(trace.Label{Kind: trace.LabelSaved, Name: detail, Detail: detail})
}

// tensorData is Tensor::tensor_data(): a new TensorImpl sharing storage and
// version counter, without autograd history.
func (t *Tensor) tensorData() *Tensor {
	t.storage.retain()
	d := t.rt.newTensorOn(t.storage, cloneShape(t.shape), cloneShape(t.strides), t.offset, t.dtype)
	d.version = t.version
	d.name = t.name
	return d
}

// unpack returns saved variable i (owned reference; nil if undefined).
func (n *Node) unpack(i int) (*Tensor, error) {
	sv := n.saved[i]
	if !sv.defined {
		return nil, nil
	}
	if sv.released {
		return nil, Errorf(RuntimeError, "Trying to backward through the graph a second time (or directly access saved tensors after they have already been freed). Saved intermediate values of the graph are freed when you call .backward() or autograd.grad(). Specify retain_graph=True if you need to backward through the graph a second time or if you need to access saved tensors after calling backward.")
	}
	if sv.hooks != nil {
		return sv.hooks.Unpack(sv.packed)
	}
	if *sv.t.version != sv.version {
		return nil, Errorf(RuntimeError, "one of the variables needed for gradient computation has been modified by an inplace operation: [%s %s], which is output %d of %s, is at version %d; expected version %d instead. Hint: enable anomaly detection to find the operation that failed to compute its gradient, with torch.autograd.set_detect_anomaly(True).",
			sv.t.typeString(), shapeList(sv.t.shape), 0, n.name, *sv.t.version, sv.version)
	}
	return sv.t.Retain(), nil
}

// reset is SavedVariable::reset_data: the tensor (or packed handle) is let go.
func (sv *SavedVar) reset() {
	if !sv.defined || sv.released {
		return
	}
	sv.released = true
	if t := sv.deferred; t != nil {
		sv.deferred, sv.deferHook = nil, nil
		t.Release()
	}
	if sv.hooks != nil {
		h, p := sv.hooks, sv.packed
		sv.hooks, sv.packed = nil, nil
		h.Drop(p)
		return
	}
	if t := sv.t; t != nil {
		sv.t = nil
		t.Release()
	}
}

// typeString is e.g. "torch.cuda.FloatTensor".
func (t *Tensor) typeString() string {
	if t.device.IsCUDA() {
		return "torch.cuda." + t.dtype.TypeName()
	}
	return "torch." + t.dtype.TypeName()
}
