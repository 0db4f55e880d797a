package torch

import (
	"container/heap"
)

// graphTask is torch::autograd::GraphTask: one call of backward() or grad().
type graphTask struct {
	keepGraph   bool
	createGraph bool
	deps        map[*Node]int
	notReady    map[*Node][]*Tensor
	queue       readyQueue
	// exec info (autograd.grad / backward(inputs=...)): nil means run all
	needed   map[*Node]bool
	captures map[*Node][]capture
	captured []*Tensor
}

type capture struct{ inputNr, outputIdx int }

type nodeTask struct {
	fn     *Node
	inputs []*Tensor
	order  int
}

// readyQueue orders tasks like PyTorch's ReadyQueue: AccumulateGrad
// (sequence number UINT64_MAX) first, then the most recently created node.
type readyQueue []nodeTask

func (q readyQueue) Len() int { return len(q) }
func (q readyQueue) Less(i, j int) bool {
	if q[i].fn.seq != q[j].fn.seq {
		return q[i].fn.seq > q[j].fn.seq
	}
	return q[i].order < q[j].order
}
func (q readyQueue) Swap(i, j int) { q[i], q[j] = q[j], q[i] }
func (q *readyQueue) Push(x any)   { *q = append(*q, x.(nodeTask)) }
func (q *readyQueue) Pop() any {
	old := *q
	t := old[len(old)-1]
	*q = old[:len(old)-1]
	return t
}

// BackwardOptions are the arguments of torch.autograd.backward/grad.
type BackwardOptions struct {
	RetainGraph bool
	CreateGraph bool
	// Inputs, if set, restrict accumulation (backward(inputs=...)) or, with
	// Capture, are the tensors whose gradients autograd.grad returns.
	Inputs      []*Tensor
	Capture     bool
	AllowUnused bool
}

// RunBackward is Engine::execute for roots with their gradients (borrowed;
// nil gradient entries are an error here: the caller makes them with
// _make_grads). With opts.Capture it returns the gradients of opts.Inputs
// (owned; nil where unused), else it accumulates into leaves' .grad.
func (rt *Runtime) RunBackward(roots, grads []*Tensor, opts BackwardOptions) ([]*Tensor, error) {
	edges := make([]Edge, len(roots))
	for i, r := range roots {
		if !r.RequiresGrad() {
			return nil, Errorf(RuntimeError, "element %d of tensors does not require grad and does not have a grad_fn", i)
		}
		e := gradientEdge(r)
		edges[i] = e
	}
	defer func() {
		for _, e := range edges {
			if e.Fn != nil {
				e.Fn.release()
			}
		}
	}()
	task := &graphTask{keepGraph: opts.RetainGraph, createGraph: opts.CreateGraph,
		deps: map[*Node]int{}, notReady: map[*Node][]*Tensor{}}

	// The graph root: the single root's node itself, or a GraphRoot node
	// whose outputs are the given gradients.
	var root *Node
	var rootInputs []*Tensor
	if len(edges) == 1 {
		root = edges[0].Fn
		rootInputs = make([]*Tensor, len(root.inputs))
		if edges[0].InputNr < len(rootInputs) {
			rootInputs[edges[0].InputNr] = grads[0].Retain()
		}
	} else {
		root = &Node{rt: rt, name: "GraphRoot", seq: ^uint64(0), addr: rt.FakeAddress()}
		root.next = make([]Edge, len(edges))
		for i, e := range edges {
			root.next[i] = Edge{e.Fn.Retain(), e.InputNr}
		}
		gs := make([]*Tensor, len(grads))
		for i, g := range grads {
			gs[i] = g.Retain()
		}
		root.fn = func(n *Node, in []*Tensor) ([]*Tensor, error) {
			out := gs
			gs = nil
			return out, nil
		}
		root.refs = 1
		defer root.release()
	}
	task.computeDependencies(root)
	if len(opts.Inputs) > 0 {
		if err := task.initExecInfo(root, opts); err != nil {
			releaseAll(rootInputs)
			return nil, err
		}
	}

	prevTh, prevGrad, prevTask, prevEval := rt.th, rt.gradMode, rt.task, rt.evalNode
	rt.gradMode, rt.task = opts.CreateGraph, task
	defer func() { rt.th, rt.gradMode, rt.task, rt.evalNode = prevTh, prevGrad, prevTask, prevEval }()

	order := 0
	heap.Push(&task.queue, nodeTask{root, rootInputs, order})
	var firstErr error
	for task.queue.Len() > 0 {
		nt := heap.Pop(&task.queue).(nodeTask)
		if firstErr != nil {
			releaseAll(nt.inputs)
			continue
		}
		if err := rt.evaluate(task, nt.fn, nt.inputs, &order); err != nil {
			firstErr = err
		}
	}
	for _, buf := range task.notReady {
		releaseAll(buf)
	}
	if firstErr != nil {
		releaseAll(task.captured)
		return nil, firstErr
	}
	if opts.Capture {
		for i, g := range task.captured {
			if g == nil && !opts.AllowUnused {
				releaseAll(task.captured)
				return nil, Errorf(RuntimeError, "One of the differentiated Tensors appears to not have been used in the graph. Set allow_unused=True if this is the desired behavior.")
			}
			_ = i
		}
		return task.captured, nil
	}
	return nil, nil
}

func releaseAll(ts []*Tensor) {
	for _, t := range ts {
		t.Release()
	}
}

// computeDependencies counts, for every node reachable from root, how many
// edges point at it.
func (task *graphTask) computeDependencies(root *Node) {
	seen := map[*Node]bool{root: true}
	stack := []*Node{root}
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, e := range n.next {
			if e.Fn == nil {
				continue
			}
			task.deps[e.Fn]++
			if !seen[e.Fn] {
				seen[e.Fn] = true
				stack = append(stack, e.Fn)
			}
		}
	}
}

// initExecInfo marks the nodes on a path to the inputs (GraphTask::init_to_execute).
func (task *graphTask) initExecInfo(root *Node, opts BackwardOptions) error {
	task.needed = map[*Node]bool{}
	task.captures = map[*Node][]capture{}
	targets := map[*Node]bool{}
	for i, in := range opts.Inputs {
		e := gradientEdge(in)
		if e.Fn == nil {
			if opts.Capture {
				return Errorf(RuntimeError, "One of the differentiated Tensors does not require grad")
			}
			continue
		}
		if opts.Capture {
			task.captures[e.Fn] = append(task.captures[e.Fn], capture{e.InputNr, i})
		} else {
			task.needed[e.Fn] = true
		}
		targets[e.Fn] = true
		e.Fn.release()
	}
	if opts.Capture {
		task.captured = make([]*Tensor, len(opts.Inputs))
	}
	// a node is needed if a target is reachable from it
	memo := map[*Node]bool{}
	var visit func(n *Node) bool
	visit = func(n *Node) bool {
		if v, ok := memo[n]; ok {
			return v
		}
		memo[n] = false
		r := false
		for _, e := range n.next {
			if e.Fn != nil && visit(e.Fn) {
				r = true
			}
		}
		if task.needed[n] {
			r = true
		}
		if targets[n] {
			r = r || task.needed[n]
			if opts.Capture {
				r = r || len(task.captures[n]) > 0
			}
		}
		memo[n] = r
		return r
	}
	visit(root)
	for n, v := range memo {
		if v {
			task.needed[n] = true
		}
	}
	// captured-only nodes are not executed
	if opts.Capture {
		for n := range task.captures {
			if !hasNeededChild(n, task.needed) {
				delete(task.needed, n)
			}
		}
	}
	task.needed[root] = true
	return nil
}

func hasNeededChild(n *Node, needed map[*Node]bool) bool {
	for _, e := range n.next {
		if e.Fn != nil && needed[e.Fn] {
			return true
		}
	}
	return false
}

// evaluate is Engine::evaluate_function + call_function: it runs fn on its
// gradient inputs (owned here), releases them and (unless the graph is
// kept) the node's saved tensors, then passes each output to the next
// node's input buffer.
func (rt *Runtime) evaluate(task *graphTask, fn *Node, inputs []*Tensor, order *int) error {
	if task.captures != nil {
		for _, c := range task.captures[fn] {
			if c.inputNr < len(inputs) && inputs[c.inputNr] != nil {
				task.captured[c.outputIdx].Release()
				task.captured[c.outputIdx] = rt.runRetainHooks(fn, c.inputNr, inputs[c.inputNr].Retain())
			}
		}
	}
	if task.needed != nil && !task.needed[fn] {
		releaseAll(inputs)
		return nil
	}
	rt.th = mainThread
	if len(fn.inputs) > 0 && fn.inputs[0].device.IsCUDA() {
		rt.th = autogradThread
	} else if fn.variable != nil && fn.variable.device.IsCUDA() {
		rt.th = autogradThread
	}
	// tensor pre-hooks: Python hooks and retain_grad
	for i := range inputs {
		if inputs[i] == nil {
			continue
		}
		if fn.Hooks != nil {
			r, err := fn.Hooks.PreHook(fn, i, inputs[i])
			if err != nil {
				releaseAll(inputs)
				return err
			}
			if r != nil {
				inputs[i].Release()
				inputs[i] = r
			}
		}
		if fn.variable != nil {
			r, err := runLeafHooks(fn, inputs[i])
			if err != nil {
				releaseAll(inputs)
				return err
			}
			if r != nil {
				inputs[i].Release()
				inputs[i] = r
			}
		}
		if t := fn.retainGrad[i]; t != nil {
			if err := retainGradHook(t, inputs[i]); err != nil {
				releaseAll(inputs)
				return err
			}
		}
	}
	if fn.fn == nil {
		releaseAll(inputs)
		return Errorf(RuntimeError, "internal: node %s has no backward", fn.name)
	}
	var outputs []*Tensor
	var err error
	prevEval := rt.evalNode
	rt.evalNode = fn
	if fn.variable != nil {
		// AccumulateGrad moves its input out of the buffer (std::move).
		outputs, err = fn.fn(fn, inputs)
		inputs = nil
	} else {
		outputs, err = fn.fn(fn, inputs)
	}
	rt.evalNode = prevEval
	if err == nil {
		err = rt.validateOutputs(fn, outputs)
	}
	releaseAll(inputs)
	if err != nil {
		releaseAll(outputs)
		return err
	}
	if !task.keepGraph {
		fn.releaseVariables()
	}
	for i, out := range outputs {
		if i >= len(fn.next) || fn.next[i].Fn == nil {
			out.Release()
			continue
		}
		next := fn.next[i]
		ready := false
		if d, ok := task.deps[next.Fn]; ok {
			d--
			if d == 0 {
				delete(task.deps, next.Fn)
				ready = true
			} else {
				task.deps[next.Fn] = d
			}
		}
		buf, has := task.notReady[next.Fn]
		if !has {
			buf = make([]*Tensor, max(len(next.Fn.inputs), next.InputNr+1))
		}
		if err := rt.accumulateInput(task, buf, next.InputNr, out); err != nil {
			return err
		}
		if ready {
			delete(task.notReady, next.Fn)
			*order++
			heap.Push(&task.queue, nodeTask{next.Fn, buf, *order})
		} else {
			task.notReady[next.Fn] = buf
		}
	}
	return nil
}

// runRetainHooks lets retain_grad see a captured gradient.
func (rt *Runtime) runRetainHooks(fn *Node, nr int, g *Tensor) *Tensor { return g }

// validateOutputs is validate_outputs: a gradient whose shape differs from
// the input it flows to is summed down to it (sum_to); a dtype mismatch is
// converted.
func (rt *Runtime) validateOutputs(fn *Node, outputs []*Tensor) error {
	for i, g := range outputs {
		if g == nil || i >= len(fn.next) || fn.next[i].Fn == nil {
			continue
		}
		e := fn.next[i]
		if e.InputNr >= len(e.Fn.inputs) {
			continue
		}
		meta := e.Fn.inputs[e.InputNr]
		if !sameShape(g.shape, meta.shape) {
			if !expandable(meta.shape, g.shape) {
				return Errorf(RuntimeError, "Function %s returned an invalid gradient at index %d - got %s but expected shape compatible with %s", fn.name, i, shapeList(g.shape), shapeList(meta.shape))
			}
			r, err := rt.sumTo(g, meta.shape)
			if err != nil {
				return err
			}
			g.Release()
			outputs[i] = r
			g = r
		}
		if g.dtype != meta.dtype {
			r, err := rt.toDType(g, meta.dtype)
			if err != nil {
				return err
			}
			g.Release()
			outputs[i] = r
		}
	}
	return nil
}

// accumulateInput is InputBuffer::add/accumulate: the first gradient is
// moved in; later ones are added in place when the buffer holds the only
// reference to a dense tensor, else out of place.
func (rt *Runtime) accumulateInput(task *graphTask, buf []*Tensor, pos int, g *Tensor) error {
	if g == nil {
		return nil
	}
	old := buf[pos]
	if old == nil {
		buf[pos] = g
		return nil
	}
	if !rt.gradMode && old.refs == 1 && old.storage != nil && old.storage.refs == 1 && isNonOverlappingAndDense(old.shape, old.strides) && sameShape(old.shape, g.shape) {
		err := rt.addInPlace(old, g)
		g.Release()
		return err
	}
	sum, err := rt.Add(old, g, 1)
	g.Release()
	if err != nil {
		return err
	}
	old.Release()
	buf[pos] = sum
	return nil
}

// retainGradHook is the retains_grad hook: the first gradient is cloned
// into .grad, later ones added out of place.
func retainGradHook(t *Tensor, g *Tensor) error {
	rt := t.rt
	if t.grad == nil {
		c, err := rt.cloneContiguous(g)
		if err != nil {
			return err
		}
		t.grad = c
		return nil
	}
	s, err := rt.Add(t.grad, g, 1)
	if err != nil {
		return err
	}
	old := t.grad
	t.grad = s
	old.Release()
	return nil
}

// accumulateGrad is AccumulateGrad::apply. grads[0] is owned (moved).
func accumulateGrad(n *Node, grads []*Tensor) ([]*Tensor, error) {
	g := grads[0]
	for _, o := range grads[1:] {
		o.Release()
	}
	if g == nil {
		return nil, nil
	}
	v := n.variable
	rt := n.rt
	if !v.requiresGrad {
		g.Release()
		return nil, nil
	}
	if v.grad == nil {
		if !rt.gradMode && g.refs <= 1 && obeysLayoutContract(g, v) {
			d := g.detachAlias()
			g.Release()
			v.grad = d
			v.labelGrad(d)
			return nil, nil
		}
		var c *Tensor
		var err error
		if isNonOverlappingAndDense(v.shape, v.strides) {
			c, err = rt.empty("AccumulateGrad", v.shape, v.strides, v.dtype, v.device)
		} else {
			c, err = rt.empty("AccumulateGrad", v.shape, nil, v.dtype, v.device)
		}
		if err != nil {
			g.Release()
			return nil, err
		}
		if rt.exec != nil {
			rt.compute1(ExecCopy, c, []*Tensor{g})
		}
		v.grad = c
		v.labelGrad(c)
		g.Release()
		return nil, nil
	}
	if !rt.gradMode {
		err := rt.addInPlace(v.grad, g)
		g.Release()
		return nil, err
	}
	s, err := rt.Add(v.grad, g, 1)
	g.Release()
	if err != nil {
		return nil, err
	}
	old := v.grad
	v.grad = s
	v.labelGrad(s)
	old.Release()
	return nil, nil
}

// obeysLayoutContract is utils::obeys_layout_contract.
func obeysLayoutContract(g, v *Tensor) bool {
	if isNonOverlappingAndDense(v.shape, v.strides) {
		for i, s := range g.shape {
			if s != 1 {
				if g.strides[i] != v.strides[i] {
					return false
				}
			} else if g.strides[i] == 0 {
				return false
			}
		}
		return true
	}
	return isContiguous(g.shape, g.strides)
}
