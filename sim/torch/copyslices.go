package torch

// copySlices is what a CopySlices node keeps (torch/csrc/autograd/
// functions/tensor.h): the geometry of the base and of the view an in-place
// op wrote through, and that op's own node, fn, which CopySlices runs on the
// view's slice of the base's gradient. release_variables drops fn.
type copySlices struct {
	baseShape, baseStrides []int64
	viewShape, viewStrides []int64
	viewOffset             int64 // storage offset relative to the base's
	fn                     *Node // strong; nil once released
}

// geometry is an at::TensorGeometry: sizes, strides and storage offset.
type geometry struct {
	shape, strides []int64
	offset         int64
}

// copySlicesName is what Node::name() gives for CopySlices: it is a C++
// class, not a generated node, so its name is the demangled type name.
const copySlicesName = "torch::autograd::CopySlices"

// rebaseView is rebase_history for an in-place op on a differentiable view
// t: the op's node n is wrapped in a CopySlices node that becomes the
// grad_fn of t's base (its edge 0 goes to the base's previous history, the
// other edges are n's own), and t's grad_fn is regenerated from the base
// (VariableHooks::grad_fn). CUDA tensors support as_strided, so PyTorch
// keeps no view_fn and the view's new grad_fn is an AsStridedBackward0.
// Nodes are created in PyTorch's order: n (already), CopySlices, then
// AsStridedBackward0.
func (n *Node) rebaseView(t *Tensor) {
	rt := n.rt
	base := t.base
	n.inputs = []inputMeta{{cloneShape(t.shape), t.dtype, t.device}}
	cs := rt.newNode("CopySlices", base)
	for _, e := range n.next[min(1, len(n.next)):] {
		if e.Fn != nil {
			e.Fn.Retain()
		}
		cs.next = append(cs.next, e)
	}
	cs.inputs = []inputMeta{{cloneShape(base.shape), base.dtype, base.device}}
	cs.slices = &copySlices{
		baseShape: cloneShape(base.shape), baseStrides: cloneShape(base.strides),
		viewShape: cloneShape(t.shape), viewStrides: cloneShape(t.strides),
		viewOffset: t.offset - base.offset,
		fn:         n.Retain(),
	}
	cs.fn = copySlicesBackward
	n.outer = cs
	base.setGradFn(cs, 0)
	rt.regenerateViewGradFn(t)
	n.packDeferred()
}

// setGradFn makes fn (output nr) t's grad_fn (set_gradient_edge), moving a
// retain_grad hook from the previous grad_fn to the new one, as
// update_tensor_hooks_on_new_gradfn does.
func (t *Tensor) setGradFn(fn *Node, nr int) {
	old := t.gradFn
	if old != nil && t.retainsGrad {
		delete(old.retainGrad, t.outputNr)
		if fn.retainGrad == nil {
			fn.retainGrad = map[int]*Tensor{}
		}
		fn.retainGrad[nr] = t
	}
	t.gradFn = fn.Retain()
	t.outputNr = nr
	t.requiresGrad = false
	if old != nil {
		old.release()
	}
}

// regenerateViewGradFn gives the view t a new grad_fn built from its base's
// current history: AsStridedBackward0 with the base's geometry and t's
// (VariableHooks::grad_fn after an in-place op changed the version).
func (rt *Runtime) regenerateViewGradFn(t *Tensor) {
	base := t.base
	a := rt.newNode("AsStridedBackward0", base)
	a.inputs = []inputMeta{{cloneShape(t.shape), base.dtype, base.device}}
	in := geometry{cloneShape(base.shape), cloneShape(base.strides), base.offset}
	out := geometry{cloneShape(t.shape), cloneShape(t.strides), t.offset}
	a.fn = func(n *Node, g []*Tensor) ([]*Tensor, error) {
		if !n.needsInput(0) {
			return []*Tensor{nil}, nil
		}
		r, err := rt.asStridedBackward(g[0], in, out)
		return []*Tensor{r}, err
	}
	t.setGradFn(a, 0)
}

// asStridedBackward is as_strided_backward (FunctionsManual.cpp) for an
// output geometry out taken from an input geometry in: expanded dims of the
// gradient are summed, a zeroed flat "storage" spanning both geometries is
// allocated, the gradient is copied into it through out, and the result is
// the storage viewed through in. Geometries whose non-expanded dims
// overlap (index_add_ over an arange) never come from the view ops here.
func (rt *Runtime) asStridedBackward(g *Tensor, in, out geometry) (*Tensor, error) {
	for _, s := range append(cloneShape(out.shape), in.shape...) {
		if s == 0 {
			r, err := rt.empty("as_strided_backward", in.shape, nil, g.dtype, g.device)
			if err == nil && rt.exec != nil {
				rt.compute1(ExecFill, r, nil, 0)
			}
			return r, err
		}
	}
	src := g.Retain()
	defer func() { src.Release() }()
	reduced := cloneShape(out.shape)
	expanded := false
	for i, s := range out.shape {
		if s > 1 && out.strides[i] == 0 {
			reduced[i] = 1
			expanded = true
		}
	}
	if expanded {
		r, err := rt.sumTo(g, reduced)
		if err != nil {
			return nil, err
		}
		src.Release()
		src = r
	}
	shared := min(in.offset, out.offset)
	inOff, outOff := in.offset-shared, out.offset-shared
	size := max(minStorageSize(in.shape, in.strides, inOff), minStorageSize(reduced, out.strides, outOff))
	storage, err := rt.empty("as_strided_backward", []int64{size}, nil, g.dtype, g.device)
	if err != nil {
		return nil, err
	}
	defer storage.Release()
	if rt.exec != nil {
		rt.zeroAndCopyInto(storage, out.strides, outOff, src)
	}
	return storage.stridedAlias(in.shape, in.strides, inOff), nil
}

// minStorageSize is _min_storage_size: the elements a geometry spans from
// the start of its storage.
func minStorageSize(shape, strides []int64, offset int64) int64 {
	n := offset + 1
	for i, s := range shape {
		n += (s - 1) * strides[i]
	}
	return n
}

// stridedAlias is t.as_strided(shape, strides, t.offset+offset) outside
// autograd (backward formulas run without recording): a new tensor on t's
// storage and version counter.
func (t *Tensor) stridedAlias(shape, strides []int64, offset int64) *Tensor {
	t.storage.retain()
	v := t.rt.newTensorOn(t.storage, cloneShape(shape), cloneShape(strides), t.offset+offset, t.dtype)
	v.version = t.version
	v.isView = true
	return v
}

// copySlicesBackward is CopySlices::apply: the base's gradient is copied
// into a new tensor with the base's sizes and strides (result); the view's
// slice of it is cloned (contiguous) and given to fn; fn's gradient for the
// view is copied back into the slice and result flows to the base's
// previous history, fn's other gradients to its other inputs. The clone
// dies when fn returns (unless fn passes it on), fn's view gradient when
// this returns.
func copySlicesBackward(n *Node, grads []*Tensor) ([]*Tensor, error) {
	rt := n.rt
	out := make(gradSlot, len(n.next))
	g := grads[0]
	if g == nil {
		return out, nil
	}
	cs := n.slices
	if cs.fn == nil {
		return nil, Errorf(RuntimeError, "Trying to backward through the graph a second time (or directly access saved tensors after they have already been freed). Saved intermediate values of the graph are freed when you call .backward() or autograd.grad(). Specify retain_graph=True if you need to backward through the graph a second time or if you need to access saved tensors after calling backward.")
	}
	result, err := rt.empty("CopySlices", cs.baseShape, cs.baseStrides, g.dtype, g.device)
	if err != nil {
		return nil, err
	}
	// locals die in reverse order: res, the slice, then result (if unused)
	defer func() { result.Release() }()
	if rt.exec != nil {
		rt.compute1(ExecCopy, result, []*Tensor{g})
	}
	slice := result.stridedAlias(cs.viewShape, cs.viewStrides, cs.viewOffset)
	defer slice.Release()
	clone, err := rt.cloneContiguous(slice)
	if err != nil {
		return nil, err
	}
	res, err := cs.fn.fn(cs.fn, []*Tensor{clone})
	clone.Release()
	if err != nil {
		releaseAll(res)
		return nil, err
	}
	defer releaseAll(res)
	for i, r := range res {
		if i >= len(out) || r == nil || !n.needsInput(i) {
			continue
		}
		if i == 0 {
			if rt.exec != nil {
				rt.compute1(ExecCopy, slice, []*Tensor{r})
			}
			out[0] = result
			result = nil
			continue
		}
		out[i] = r.Retain()
	}
	return out, nil
}
