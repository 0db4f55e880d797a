package torch

import "fmt"

// Edge points at input InputNr of the node Fn (torch::autograd::Edge).
type Edge struct {
	Fn      *Node
	InputNr int
}

// inputMeta describes what a gradient flowing into a node must look like
// (torch::autograd::InputMetadata): the forward output's shape, dtype, device.
type inputMeta struct {
	shape  []int64
	dtype  DType
	device Device
}

// backwardFunc computes a node's gradient outputs (one per next edge, nil for
// undefined) from its gradient inputs (borrowed). Returned tensors are owned.
type backwardFunc func(n *Node, grads []*Tensor) ([]*Tensor, error)

// Node is torch::autograd::Node: one backward function of the graph. Nodes
// are shared (std::shared_ptr): tensors' grad_fn and other nodes' edges hold
// references; the last release frees the saved tensors and the edges.
type Node struct {
	rt     *Runtime
	refs   int32
	name   string
	seq    uint64
	addr   uint64
	next   []Edge
	inputs []inputMeta
	saved  []*SavedVar
	fn     backwardFunc
	module string

	variable *Tensor // AccumulateGrad: the leaf it accumulates into (strong)

	// retainGrad maps an output number to the tensor that called
	// retain_grad() (weak; cleared when the tensor dies).
	retainGrad map[int]*Tensor
	// Hooks are Python hooks registered on the node or its outputs; the
	// binding runs them. Their Release is called when the node dies.
	Hooks NodeHooks

	released bool // release_variables() ran
	data     any  // op-specific data: sizes, flags

	// custom is set on the node of a torch.autograd.Function (PyNode).
	custom *customFn

	// slices is set on a CopySlices node (an in-place op on a view);
	// outer, on the in-place op's own node that a CopySlices wraps (weak):
	// that node's outputs are needed as the CopySlices's are.
	slices *copySlices
	outer  *Node
}

// NodeHooks lets the binding attach Python hooks to a node.
type NodeHooks interface {
	// PreHook runs before the node on the grads of output nr (register_hook on
	// a non-leaf tensor); it returns a replacement (owned) or nil.
	PreHook(n *Node, nr int, grad *Tensor) (*Tensor, error)
	// Release drops the hooks' Python references.
	Release()
}

// Name is Node::name(), e.g. "AddmmBackward0"; for CopySlices, a C++
// class rather than a generated node, "torch::autograd::CopySlices".
func (n *Node) Name() string {
	if n.slices != nil {
		return copySlicesName
	}
	return n.name
}

// ClassName is the node's Python class name (type(grad_fn).__name__ and
// its repr), e.g. "AddmmBackward0" or "CopySlices".
func (n *Node) ClassName() string { return n.name }

// Addr is the node's deterministic fake address for reprs.
func (n *Node) Addr() uint64 { return n.addr }

// Seq is the node's sequence number.
func (n *Node) Seq() uint64 { return n.seq }

// NextFunctions lists the next edges (borrowed nodes; nil Fn for none).
func (n *Node) NextFunctions() []Edge { return n.next }

// Variable is the leaf of an AccumulateGrad node (borrowed).
func (n *Node) Variable() *Tensor { return n.variable }

// Retain adds a reference.
func (n *Node) Retain() *Node { n.refs++; return n }

// Release drops a reference held by the binding.
func (n *Node) Release() { n.release() }

func (n *Node) release() {
	n.refs--
	if n.refs > 0 {
		return
	}
	if n.refs < 0 {
		n.refs = 0
		n.rt.bug("node released too often: " + n.name)
		return
	}
	deleteNode(n)
}

// deleteNode is torch::autograd::deleteNode: it releases the graph below a
// dying node iteratively (saved variables of each node, then its edges;
// edges held only by this node are deleted next, last edge first).
func deleteNode(n *Node) {
	var stack []*Node
	gatherNodes(n, &stack)
	destroyNode(n)
	for len(stack) > 0 {
		f := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		gatherNodes(f, &stack)
		f.refs--
		if f.refs == 0 {
			destroyNode(f)
		}
	}
}

func gatherNodes(f *Node, stack *[]*Node) {
	f.releaseVariables()
	for i := range f.next {
		e := f.next[i].Fn
		if e == nil {
			continue
		}
		f.next[i].Fn = nil
		if e.refs == 1 {
			*stack = append(*stack, e)
		} else {
			e.refs--
		}
	}
}

func destroyNode(f *Node) {
	if v := f.variable; v != nil {
		f.variable = nil
		if v.gradAcc == f {
			v.gradAcc = nil
		}
		v.Release()
	}
	if f.Hooks != nil {
		h := f.Hooks
		f.Hooks = nil
		h.Release()
	}
	if c := f.custom; c != nil && c.owner != nil {
		o := c.owner
		c.owner = nil
		o.Release()
	}
}

// releaseVariables is Node::release_variables: saved tensors are dropped.
func (n *Node) releaseVariables() {
	if n.released {
		return
	}
	n.released = true
	for _, s := range n.saved {
		s.reset()
	}
	if cs := n.slices; cs != nil && cs.fn != nil {
		// CopySlices::release_variables: fn = nullptr
		fn := cs.fn
		cs.fn = nil
		fn.outer = nil
		fn.release()
	}
}

// newNode creates a node with the next sequence number and edges to the
// given inputs (collect_next_edges). Edges hold references.
func (rt *Runtime) newNode(name string, inputs ...*Tensor) *Node {
	n := &Node{rt: rt, refs: 0, name: name, seq: rt.nextSeq(), addr: rt.FakeAddress(), module: rt.module()}
	n.next = make([]Edge, len(inputs))
	for i, t := range inputs {
		n.next[i] = gradientEdge(t)
	}
	return n
}

// gradientEdge is the edge a gradient for t flows along: its grad_fn, or its
// AccumulateGrad if it is a leaf that requires grad.
func gradientEdge(t *Tensor) Edge {
	if t == nil || !t.RequiresGrad() {
		return Edge{}
	}
	if t.gradFn != nil {
		return Edge{t.gradFn.Retain(), t.outputNr}
	}
	return Edge{t.gradAccumulator().Retain(), 0}
}

// gradAccumulator returns the leaf's AccumulateGrad node, creating it if
// needed (the tensor caches it weakly; the node owns the tensor). The
// returned node is borrowed: whoever stores it must Retain it.
func (t *Tensor) gradAccumulator() *Node {
	if t.gradAcc != nil {
		return t.gradAcc
	}
	n := &Node{rt: t.rt, name: "AccumulateGrad", seq: ^uint64(0), addr: t.rt.FakeAddress()}
	n.variable = t.Retain()
	n.inputs = []inputMeta{{cloneShape(t.shape), t.dtype, t.device}}
	n.fn = accumulateGrad
	t.gradAcc = n
	return n
}

// needsInput reports whether gradient output i is needed: its edge is
// valid and, while the engine runs this node for autograd.grad or
// backward(inputs=...), the next node will execute
// (task_should_compute_output with the graph task's exec_info).
func (n *Node) needsInput(i int) bool {
	if n.outer != nil {
		// CopySlices::update_exec_info: fn's edge 0 is needed when the
		// CopySlices's is; its other edges are the CopySlices's own
		return n.outer.needsInput(i)
	}
	if i >= len(n.next) || n.next[i].Fn == nil {
		return false
	}
	if t := n.rt.task; t != nil && t.needed != nil && n.rt.evalNode == n {
		f := n.next[i].Fn
		return t.needed[f] || len(t.captures[f]) > 0
	}
	return true
}

// anyNeeded reports whether any of the listed gradient outputs is needed.
func (n *Node) anyNeeded(is ...int) bool {
	for _, i := range is {
		if n.needsInput(i) {
			return true
		}
	}
	return false
}

// setHistory makes n the grad_fn of outputs (set_history): output i gets
// output_nr i, and n records each output's metadata.
func (n *Node) setHistory(outputs ...*Tensor) {
	n.inputs = make([]inputMeta, len(outputs))
	for i, o := range outputs {
		if o == nil {
			continue
		}
		n.inputs[i] = inputMeta{cloneShape(o.shape), o.dtype, o.device}
		o.setGradFn(n, i)
	}
	n.packDeferred()
}

func (n *Node) String() string {
	if n.custom != nil {
		// a custom Function's node is a Python class of that module
		return fmt.Sprintf("<torch.autograd.function.%s object at %#x>", n.name, n.addr)
	}
	return fmt.Sprintf("<%s object at %#x>", n.name, n.addr)
}
