package torch

// needsGrad reports whether an op on inputs records a backward node
// (compute_requires_grad under grad mode).
func (rt *Runtime) needsGrad(inputs ...*Tensor) bool {
	if !rt.gradMode {
		return false
	}
	for _, t := range inputs {
		if t != nil && t.RequiresGrad() {
			return true
		}
	}
	return false
}

// record creates the backward node of an op if any input requires grad
// (nil otherwise). The caller saves tensors, sets fn, and calls setHistory.
func (rt *Runtime) record(name string, inputs ...*Tensor) *Node {
	if !rt.needsGrad(inputs...) {
		return nil
	}
	return rt.newNode(name, inputs...)
}

// finish sets n's backward function and history (no-op for a nil node).
func (n *Node) finish(fn backwardFunc, outputs ...*Tensor) {
	if n == nil {
		return
	}
	n.fn = fn
	n.setHistory(outputs...)
}

// saveIf saves t when cond holds (derivative formulas that need t), else an
// undefined slot, and returns the slot index. Errors of pack hooks are kept
// on the node and reported by the op.
func (n *Node) saveIf(cond bool, t *Tensor, isOutput bool) (int, error) {
	if !cond {
		return n.save(nil, false)
	}
	return n.save(t, isOutput)
}

// checkInplace is check_inplace: a leaf that requires grad cannot be
// modified in place while grad mode is on.
func (rt *Runtime) checkInplace(t *Tensor) error {
	if rt.gradMode && t.isView && t.base != nil && t.RequiresGrad() && t.base.IsLeaf() {
		return Errorf(RuntimeError, "a view of a leaf Variable that requires grad is being used in an in-place operation.")
	}
	if rt.gradMode && t.multiOutput && t.isView && t.gradFn != nil && t.RequiresGrad() {
		// handle_view_on_rebase, CreationMeta::MULTI_OUTPUT_NODE
		return Errorf(RuntimeError, "Output %d of %s is a view and is being modified inplace. This view is the output of a function that returns multiple views. Such functions do not allow the output views to be modified inplace. You should replace the inplace operation by an out-of-place one.", t.outputNr, t.gradFn.name)
	}
	if rt.gradMode && t.IsLeaf() && t.requiresGrad {
		return Errorf(RuntimeError, "a leaf Variable that requires grad is being used in an in-place operation.")
	}
	return nil
}

// rebase records an in-place op's node on t (rebase_history): t's history
// becomes n (whose edge 0 already points at t's previous history). On a
// differentiable view, n is wrapped in a CopySlices node on the view's
// base instead (rebaseView).
func (n *Node) rebase(fn backwardFunc, t *Tensor) {
	if n == nil {
		return
	}
	n.fn = fn
	if t.isView && t.base != nil {
		n.rebaseView(t)
		return
	}
	n.setHistory(t)
}

// gradSlot collects a backward's outputs, releasing them all on error.
type gradSlot []*Tensor

func (g gradSlot) fail(err error) ([]*Tensor, error) {
	releaseAll(g)
	return nil, err
}
