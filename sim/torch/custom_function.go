package torch

// Releaser is a value a node keeps alive until it dies (a custom Function's
// Python ctx object, which PyTorch's PyNode holds).
type Releaser interface{ Release() }

// CustomBackward computes a custom Function's gradients for its tensor
// inputs (one per input, nil where none; owned) from the gradients of its
// outputs (borrowed; materialized as zeros unless disabled).
type CustomBackward func(grads []*Tensor) ([]*Tensor, error)

// customFn is the state of a torch.autograd.Function node.
type customFn struct {
	owner       Releaser
	backward    CustomBackward
	materialize bool
	defined     []bool // which outputs are differentiable tensors
}

// NewCustomNode makes the node of one torch.autograd.Function.apply
// (PyNode named e.g. "CheckpointFunctionBackward") with edges to the tensor
// inputs, or returns nil when nothing requires grad under grad mode (the
// forward is then not recorded). The returned node is a new reference.
func (rt *Runtime) NewCustomNode(name string, inputs []*Tensor) *Node {
	if !rt.needsGrad(inputs...) {
		return nil
	}
	n := rt.newNode(name, inputs...)
	n.refs = 1
	n.custom = &customFn{materialize: true}
	n.fn = func(n *Node, grads []*Tensor) ([]*Tensor, error) { return n.runCustom(grads) }
	return n
}

// SetCustom installs the backward and the owner (released when the node
// dies) of a custom node.
func (n *Node) SetCustom(owner Releaser, fn CustomBackward) {
	n.custom.owner, n.custom.backward = owner, fn
}

// SetMaterializeGrads is ctx.set_materialize_grads(v).
func (n *Node) SetMaterializeGrads(v bool) { n.custom.materialize = v }

// NeedsInputGrad reports whether tensor input i gets a gradient.
func (n *Node) NeedsInputGrad(i int) bool { return n.needsInput(i) }

// SetOutputs makes n the grad_fn of outputs (nil entries: outputs that are
// not differentiable tensors keep their position number).
func (n *Node) SetOutputs(outputs []*Tensor) {
	n.custom.defined = make([]bool, len(outputs))
	for i, o := range outputs {
		n.custom.defined[i] = o != nil
	}
	n.setHistory(outputs...)
}

// SaveForBackward turns ctx.save_for_backward's tensors into saved
// variables (nil: None). It runs after SetOutputs, as in PyTorch, so an
// output is saved as an output (no reference cycle) and pack hooks see it.
func (n *Node) SaveForBackward(ts []*Tensor) error {
	for _, t := range ts {
		if _, err := n.save(t, t != nil && t.gradFn == n); err != nil {
			return err
		}
	}
	return nil
}

// SavedTensors is ctx.saved_tensors: the unpacked saved variables (owned;
// nil for None). It fails once the buffers were freed by a backward.
func (n *Node) SavedTensors() ([]*Tensor, error) {
	out := make([]*Tensor, len(n.saved))
	for i := range n.saved {
		if n.released && n.saved[i].defined {
			releaseAll(out)
			return nil, Errorf(RuntimeError, "Trying to backward through the graph a second time (or directly access saved tensors after they have already been freed). Saved intermediate values of the graph are freed when you call .backward() or autograd.grad(). Specify retain_graph=True if you need to backward through the graph a second time or if you need to access saved tensors after calling backward.")
		}
		t, err := n.unpack(i)
		if err != nil {
			releaseAll(out)
			return nil, err
		}
		out[i] = t
	}
	return out, nil
}

// runCustom is PyNode::apply: undefined gradients become zeros of the
// output's metadata (materialize_grads), then the Python backward runs.
func (n *Node) runCustom(grads []*Tensor) ([]*Tensor, error) {
	c := n.custom
	if c.backward == nil {
		return nil, Errorf(RuntimeError, "internal: %s has no backward", n.name)
	}
	in := grads
	var zeros []*Tensor
	if c.materialize {
		in = make([]*Tensor, len(grads))
		copy(in, grads)
		for i, g := range in {
			if g != nil || i >= len(c.defined) || !c.defined[i] {
				continue
			}
			m := n.inputs[i]
			z, err := n.rt.Factory("zeros", m.shape, m.dtype, m.device, false)
			if err != nil {
				releaseAll(zeros)
				return nil, err
			}
			zeros = append(zeros, z)
			in[i] = z
		}
	}
	out, err := c.backward(in)
	releaseAll(zeros)
	if err != nil {
		return nil, err
	}
	if len(out) != len(n.next) {
		releaseAll(out)
		return nil, Errorf(RuntimeError, "function %s returned an incorrect number of gradients (expected %d, got %d)", n.name, len(n.next), len(out))
	}
	return out, nil
}
