package pybind

import (
	"github.com/gpumem/playground/sim/py"
	"github.com/gpumem/playground/sim/torch"
)

// FunctionCtx is the ctx of a torch.autograd.Function: the object passed to
// forward and backward (in PyTorch the node's THPFunction). It carries the
// script's attributes (ctx.run_function = ...), save_for_backward's tensors
// until apply turns them into saved variables of the node, and
// needs_input_grad. The node owns the ctx (PyNode holds it), so the
// attributes live as long as the graph; the ctx only points back at the
// node weakly.
type FunctionCtx struct {
	py.Base
	h       *Host
	cls     *py.Class
	node    *torch.Node // weak; nil when the forward was not recorded
	attrs   *py.Dict
	toSave  []py.Value // save_for_backward's arguments (owned) until apply ends
	nonDiff []*torch.Tensor
	dirty   []*torch.Tensor
	needs   []bool // needs_input_grad, one per forward argument
	isInput []bool // which forward arguments are tensors (the node's inputs)
}

var functionCtxClass = py.NewHostClass(py.ClassSpec{
	Name: "FunctionCtx", Module: "torch.autograd.function",
	Methods: map[string]py.MethodFunc{
		"save_for_backward": func(it *py.Interp, s py.Value, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
			c := s.(*FunctionCtx)
			for _, a := range args {
				if _, ok := tensorArg(a); !ok && a != py.None {
					return nil, typeErr("save_for_backward can only save variables, but argument %d is of type %s", len(c.toSave), typeName(a))
				}
			}
			c.dropSaved(it)
			for _, a := range args {
				c.toSave = append(c.toSave, py.IncRef(a))
			}
			return py.None, nil
		},
		"mark_non_differentiable": func(it *py.Interp, s py.Value, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
			c := s.(*FunctionCtx)
			for _, a := range args {
				t, err := tensorOf("mark_non_differentiable", "args", a)
				if err != nil {
					return nil, err
				}
				c.nonDiff = append(c.nonDiff, t)
			}
			return py.None, nil
		},
		"mark_dirty": func(it *py.Interp, s py.Value, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
			c := s.(*FunctionCtx)
			for _, a := range args {
				t, err := tensorOf("mark_dirty", "args", a)
				if err != nil {
					return nil, err
				}
				c.dirty = append(c.dirty, t)
			}
			return py.None, nil
		},
		"set_materialize_grads": func(it *py.Interp, s py.Value, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
			c := s.(*FunctionCtx)
			b, err := boolOf(it, argOr(args, kwargs, 0, "value"), true)
			if err == nil && c.node != nil {
				c.node.SetMaterializeGrads(b)
			}
			return py.None, err
		},
	},
	Props: map[string]py.PropSpec{
		"saved_tensors": {Get: func(it *py.Interp, s py.Value) (py.Value, error) {
			c := s.(*FunctionCtx)
			if c.node == nil {
				return it.NewTuple(incRefAll(c.toSave)), nil
			}
			ts, err := c.node.SavedTensors()
			if err != nil {
				return nil, pyErr(err)
			}
			return c.h.wrapTuple(ts), nil
		}},
		"needs_input_grad": {Get: func(it *py.Interp, s py.Value) (py.Value, error) {
			c := s.(*FunctionCtx)
			vs := make([]py.Value, len(c.needs))
			for i, b := range c.needs {
				vs[i] = py.Bool(b)
			}
			return it.NewTuple(vs), nil
		}},
	},
})

// Type is FunctionCtx.
func (*FunctionCtx) Type() *py.Class { return functionCtxClass }

// Repr is <CheckpointFunctionBackward object at 0x...>, the node's name.
func (c *FunctionCtx) Repr(it *py.Interp) (string, error) {
	if c.node != nil {
		return c.node.String(), nil
	}
	return "<torch.autograd.function." + c.cls.Name + "Backward object>", nil
}

// Attr reads an attribute the script set (ctx.run_function).
func (c *FunctionCtx) Attr(it *py.Interp, name string) (py.Value, bool, error) {
	v, ok, err := c.attrs.GetItem(it, py.Str(name))
	if err != nil || !ok {
		return nil, false, err
	}
	return py.IncRef(v), true, nil
}

// SetAttr stores (or, v nil, deletes) a script attribute.
func (c *FunctionCtx) SetAttr(it *py.Interp, name string, v py.Value) error {
	if v == nil {
		found, err := c.attrs.DelItem(it, py.Str(name))
		if err == nil && !found {
			return py.NewException(py.AttributeError, name)
		}
		return err
	}
	c.attrs.SetStr(it, name, v)
	return nil
}

// Release is called by the node when it dies (torch.Releaser).
func (c *FunctionCtx) Release() {
	c.node = nil
	c.h.it.DecRef(c)
}

func (c *FunctionCtx) dropSaved(it *py.Interp) {
	s := c.toSave
	c.toSave = nil
	for _, v := range s {
		it.DecRef(v)
	}
}

// Finalize drops the attributes and pending saved tensors.
func (c *FunctionCtx) Finalize(it *py.Interp) {
	c.dropSaved(it)
	if d := c.attrs; d != nil {
		c.attrs = nil
		it.DecRef(d)
	}
}

// Traverse shows the collector the attributes.
func (c *FunctionCtx) Traverse(visit func(py.Value)) {
	if c.attrs != nil {
		visit(c.attrs)
	}
	for _, v := range c.toSave {
		visit(v)
	}
}

// Clear breaks cycles through the attributes.
func (c *FunctionCtx) Clear(it *py.Interp) { c.Finalize(it) }

// functionClass builds torch.autograd.Function for this run: a base class
// whose apply classmethod runs forward and records the node.
func (h *Host) functionClass(it *py.Interp) (*py.Class, error) {
	apply := py.NewBuiltin("apply", func(it *py.Interp, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
		if len(args) == 0 {
			return nil, typeErr("apply() needs the Function class")
		}
		cls, ok := args[0].(*py.Class)
		if !ok {
			return nil, typeErr("apply() must be called on a Function class")
		}
		return h.functionApply(it, cls, args[1:], kwargs)
	})
	cm, err := it.Call(py.ClassMethodClass, []py.Value{apply}, nil)
	it.DecRef(apply)
	if err != nil {
		return nil, err
	}
	defer it.DecRef(cm)
	return py.NewHostClass(py.ClassSpec{Name: "Function", Module: "torch.autograd.function",
		Attrs: map[string]py.Value{"apply": cm}}), nil
}

// functionApply is Function.apply (THPFunction_apply): forward runs under
// no_grad; when grad mode is on and a tensor argument requires grad, a node
// named <Class>Backward gets edges to the tensor arguments, becomes the
// grad_fn of the tensor outputs, and then keeps save_for_backward's tensors
// as saved variables.
func (h *Host) functionApply(it *py.Interp, cls *py.Class, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
	ctx := &FunctionCtx{h: h, cls: cls, attrs: it.NewDict(), needs: make([]bool, len(args)), isInput: make([]bool, len(args))}
	it.Track(ctx)
	defer it.DecRef(ctx)
	var inputs []*torch.Tensor
	for i, a := range args {
		if t, ok := tensorArg(a); ok {
			ctx.isInput[i] = true
			inputs = append(inputs, t)
		}
	}
	node := h.rt.NewCustomNode(cls.Name+"Backward", inputs)
	if node != nil {
		defer node.Release()
		ctx.node = node
		k := 0
		for i := range args {
			if ctx.isInput[i] {
				ctx.needs[i] = node.NeedsInputGrad(k)
				k++
			}
		}
	}
	forward, err := it.GetAttr(cls, "forward")
	if err != nil {
		return nil, err
	}
	prev := h.rt.SetGradEnabled(false)
	out, err := it.Call(forward, append([]py.Value{ctx}, args...), kwargs)
	h.rt.SetGradEnabled(prev)
	it.DecRef(forward)
	if err != nil || node == nil {
		ctx.dropSaved(it)
		return out, err
	}
	out, err = h.wrapFunctionOutputs(it, ctx, inputs, out)
	if err != nil {
		return nil, err
	}
	saved := make([]*torch.Tensor, len(ctx.toSave))
	for i, v := range ctx.toSave {
		saved[i], _ = tensorArg(v)
	}
	err = node.SaveForBackward(saved)
	ctx.dropSaved(it)
	if err != nil {
		it.DecRef(out)
		return nil, pyErr(err)
	}
	node.SetCustom(py.IncRef(ctx).(*FunctionCtx), h.functionBackward(ctx))
	return out, nil
}

// wrapFunctionOutputs is _wrap_outputs: the tensor outputs get the node as
// grad_fn (an output that is an unmodified input is first aliased with
// view_as; non-differentiable outputs get none). It returns the value apply
// returns (out's reference is taken over).
func (h *Host) wrapFunctionOutputs(it *py.Interp, ctx *FunctionCtx, inputs []*torch.Tensor, out py.Value) (py.Value, error) {
	single := false
	var items []py.Value
	if tup, ok := out.(*py.Tuple); ok {
		items = incRefAll(tup.Elems())
		it.DecRef(out)
	} else {
		single = true
		items = []py.Value{out}
	}
	fail := func(err error) (py.Value, error) {
		for _, v := range items {
			it.DecRef(v)
		}
		return nil, err
	}
	hist := make([]*torch.Tensor, len(items))
	for i, v := range items {
		t, ok := tensorArg(v)
		if !ok {
			continue
		}
		if containsTensor(ctx.nonDiff, t) {
			continue
		}
		if containsTensor(inputs, t) && !containsTensor(ctx.dirty, t) {
			alias, err := h.rt.View(t, t.Shape())
			if err != nil {
				return fail(pyErr(err))
			}
			it.DecRef(v)
			items[i] = h.wrap(alias)
			t = alias
		}
		hist[i] = t
	}
	ctx.node.SetOutputs(hist)
	if single {
		return items[0], nil
	}
	return it.NewTuple(items), nil
}

func containsTensor(ts []*torch.Tensor, t *torch.Tensor) bool {
	for _, x := range ts {
		if x == t {
			return true
		}
	}
	return false
}

// functionBackward is PyNode::apply: cls.backward(ctx, *grads) must return
// one gradient per forward argument (None for non-tensor arguments; extra
// trailing Nones are allowed).
func (h *Host) functionBackward(ctx *FunctionCtx) torch.CustomBackward {
	return func(grads []*torch.Tensor) ([]*torch.Tensor, error) {
		it := h.it
		name := ctx.cls.Name + "Backward"
		backward, err := it.GetAttr(ctx.cls, "backward")
		if err != nil {
			return nil, err
		}
		defer it.DecRef(backward)
		args := make([]py.Value, 0, len(grads)+1)
		args = append(args, py.IncRef(ctx))
		for _, g := range grads {
			args = append(args, h.wrapBorrowed(g))
		}
		r, err := it.Call(backward, args, nil)
		for _, a := range args {
			it.DecRef(a)
		}
		if err != nil {
			return nil, err
		}
		defer it.DecRef(r)
		vals := []py.Value{r}
		if tup, ok := r.(*py.Tuple); ok {
			vals = tup.Elems()
		}
		n := len(ctx.isInput)
		for len(vals) > n && vals[len(vals)-1] == py.None {
			vals = vals[:len(vals)-1]
		}
		if len(vals) != n {
			return nil, runtimeErr("function %s returned an incorrect number of gradients (expected %d, got %d)", name, n, len(vals))
		}
		var out []*torch.Tensor
		for i, v := range vals {
			if !ctx.isInput[i] {
				if v != py.None {
					return nil, runtimeErr("function %s returned a gradient different than None at position %d, but the corresponding forward input was not a Variable", name, i+1)
				}
				continue
			}
			if v == py.None {
				out = append(out, nil)
				continue
			}
			t, ok := tensorArg(v)
			if !ok {
				return nil, typeErr("function %s returned a gradient of type %s at position %d, expected a Tensor or None", name, typeName(v), i+1)
			}
			out = append(out, t.Retain())
		}
		return out, nil
	}
}

// incRefAll copies vs, taking a new reference to each.
func incRefAll(vs []py.Value) []py.Value {
	out := make([]py.Value, len(vs))
	for i, v := range vs {
		out[i] = py.IncRef(v)
	}
	return out
}
