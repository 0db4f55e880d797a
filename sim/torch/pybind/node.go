package pybind

import (
	"fmt"
	"sync"

	"github.com/gpumem/playground/sim/py"
	"github.com/gpumem/playground/sim/torch"
)

// NodeObj is a grad_fn object (AddmmBackward0, AccumulateGrad, ...). It
// holds a reference to the node, so a Python variable keeping grad_fn
// keeps the graph (and its saved tensors) alive, as in PyTorch.
type NodeObj struct {
	py.Base
	h    *Host
	n    *torch.Node
	dead bool
}

var nodeClasses sync.Map // node name → *py.Class (immutable, shared by runs)

// Type is a class named after the node, so type(t.grad_fn).__name__ is
// "AddmmBackward0".
func (o *NodeObj) Type() *py.Class { return nodeClass(o.n.ClassName()) }

func nodeClass(name string) *py.Class {
	if c, ok := nodeClasses.Load(name); ok {
		return c.(*py.Class)
	}
	c := py.NewHostClass(py.ClassSpec{
		Name: name, Module: "torch.autograd.graph",
		Methods: map[string]py.MethodFunc{
			"name": func(it *py.Interp, self py.Value, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
				return py.Str(self.(*NodeObj).n.Name()), nil
			},
		},
		Props: map[string]py.PropSpec{
			"next_functions": {Get: func(it *py.Interp, self py.Value) (py.Value, error) {
				o := self.(*NodeObj)
				var vs []py.Value
				for _, e := range o.n.NextFunctions() {
					var fn py.Value = py.None
					if e.Fn != nil {
						fn = o.h.wrapNode(e.Fn.Retain())
					}
					vs = append(vs, it.NewTuple([]py.Value{fn, py.Int(e.InputNr)}))
				}
				return it.NewTuple(vs), nil
			}},
			"variable": {Get: func(it *py.Interp, self py.Value) (py.Value, error) {
				o := self.(*NodeObj)
				if v := o.n.Variable(); v != nil {
					return o.h.wrapBorrowed(v), nil
				}
				return nil, py.NewException(py.AttributeError, fmt.Sprintf("'%s' object has no attribute 'variable'", o.n.Name()))
			}},
		},
	})
	actual, _ := nodeClasses.LoadOrStore(name, c)
	return actual.(*py.Class)
}

// Repr is <AddmmBackward0 object at 0x7f3a00000040>.
func (o *NodeObj) Repr(it *py.Interp) (string, error) { return o.n.String(), nil }

// Hash is identity of the node.
func (o *NodeObj) Hash(it *py.Interp) (int64, error) { return int64(o.n.Addr()), nil }

// Compare makes two wrappers of one node equal.
func (o *NodeObj) Compare(it *py.Interp, op py.Op, other py.Value, reflected bool) (py.Value, error) {
	p, ok := other.(*NodeObj)
	if !ok || (op != py.OpEq && op != py.OpNe) {
		return py.NotImplemented, nil
	}
	return py.Bool((p.n == o.n) == (op == py.OpEq)), nil
}

// Finalize drops the reference to the node (the graph may die here).
func (o *NodeObj) Finalize(it *py.Interp) {
	if !o.dead {
		o.dead = true
		o.n.Release()
	}
}

// wrapNode wraps a node, taking over the caller's reference.
func (h *Host) wrapNode(n *torch.Node) py.Value { return &NodeObj{h: h, n: n} }
