package torch

// Tensor.register_hook (PyTorch 2.11's torch/_tensor.py and
// PyFunctionTensorPreHook): a leaf's hooks live on the tensor and run
// before its AccumulateGrad; a non-leaf's are registered on its grad_fn
// for its output number and outlive the tensor. Hooks run in registration
// order, each on the previous one's result; a hook's replacement dies when
// the next one replaces it, the original gradient after the last hook.

// GradHook is a function registered with Tensor.register_hook.
type GradHook interface {
	// Call runs the hook on grad (borrowed); it returns a replacement
	// gradient (owned) or nil to keep grad.
	Call(grad *Tensor) (*Tensor, error)
	// Release drops the hook's references when it is removed or its
	// tensor or node dies.
	Release()
}

// HookList is the ordered hooks of one tensor (its _backward_hooks dict):
// shared by the tensor and, for a non-leaf, its grad_fn.
type HookList struct {
	ids   []int
	hooks []GradHook
	next  int
}

// add appends h and returns its id.
func (l *HookList) add(h GradHook) int {
	l.next++
	l.ids = append(l.ids, l.next)
	l.hooks = append(l.hooks, h)
	return l.next
}

// Remove drops the hook with id (RemovableHandle.remove()); removing one
// twice, or from a released list, does nothing.
func (l *HookList) Remove(id int) {
	for i, v := range l.ids {
		if v == id {
			h := l.hooks[i]
			l.ids = append(l.ids[:i:i], l.ids[i+1:]...)
			l.hooks = append(l.hooks[:i:i], l.hooks[i+1:]...)
			h.Release()
			return
		}
	}
}

// Len is the number of hooks registered.
func (l *HookList) Len() int { return len(l.hooks) }

// run calls the hooks on grad (borrowed) and returns the final
// replacement (owned), or nil when every hook returned None.
func (l *HookList) run(grad *Tensor) (*Tensor, error) {
	var cur *Tensor
	hooks := append([]GradHook(nil), l.hooks...) // a hook may remove itself
	for _, h := range hooks {
		in := grad
		if cur != nil {
			in = cur
		}
		r, err := h.Call(in)
		if err != nil {
			cur.Release()
			return nil, err
		}
		if r == nil {
			continue
		}
		cur.Release()
		cur = r
	}
	return cur, nil
}

// release drops every hook.
func (l *HookList) release() {
	hs := l.hooks
	l.ids, l.hooks = nil, nil
	for _, h := range hs {
		h.Release()
	}
}

// nodeTensorHooks are the tensor pre-hooks of a node, by output number:
// the NodeHooks that register_hook on a non-leaf installs.
type nodeTensorHooks struct {
	lists map[int]*HookList
}

// PreHook runs the hooks of output nr.
func (p *nodeTensorHooks) PreHook(n *Node, nr int, grad *Tensor) (*Tensor, error) {
	if l := p.lists[nr]; l != nil {
		return l.run(grad)
	}
	return nil, nil
}

// Release drops the hooks when the node dies.
func (p *nodeTensorHooks) Release() {
	for _, l := range p.lists {
		l.release()
	}
}

// RegisterHook is Tensor.register_hook(h): it returns the tensor's hook
// list and h's id in it (for the handle's remove()).
func (rt *Runtime) RegisterHook(t *Tensor, h GradHook) (*HookList, int, error) {
	if !t.RequiresGrad() {
		return nil, 0, Errorf(RuntimeError, "cannot register a hook on a tensor that doesn't require gradient")
	}
	if t.gradFn == nil {
		if t.leafHooks == nil {
			t.leafHooks = &HookList{}
		}
		return t.leafHooks, t.leafHooks.add(h), nil
	}
	n := t.gradFn
	p, ok := n.Hooks.(*nodeTensorHooks)
	if !ok {
		if n.Hooks != nil {
			return nil, 0, Errorf(RuntimeError, "register_hook: the tensor's grad_fn already has hooks of another kind")
		}
		p = &nodeTensorHooks{lists: map[int]*HookList{}}
		n.Hooks = p
	}
	l := p.lists[t.outputNr]
	if l == nil {
		l = &HookList{}
		p.lists[t.outputNr] = l
	}
	return l, l.add(h), nil
}

// runLeafHooks runs the hooks of the AccumulateGrad node fn's variable
// (AccumulateGrad::tensor_pre_hooks reads them from the tensor).
func runLeafHooks(fn *Node, grad *Tensor) (*Tensor, error) {
	if v := fn.variable; v != nil && v.leafHooks != nil {
		return v.leafHooks.run(grad)
	}
	return nil, nil
}
