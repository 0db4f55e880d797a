package torch

// Tri is torch.tril (upper false) / torch.triu (upper true) with diagonal k
// (aten tril/triu, TriangularOps.cu): a structured kernel whose output is a
// new contiguous tensor of the input's shape and dtype (set_output_raw_strided
// with no strides), whatever the input's layout; the kernel reads the input
// through its strides, so nothing else is allocated. TrilBackward0 /
// TriuBackward0 keep nothing and allocate one gradient, grad.tril(k) (or
// triu).
func (rt *Runtime) Tri(t *Tensor, upper bool, k int64) (*Tensor, error) {
	op := triName(upper)
	if len(t.shape) < 2 {
		return nil, Errorf(RuntimeError, "%s: input tensor must have at least 2 dimensions", op)
	}
	out, err := rt.empty(op, t.shape, nil, t.dtype, t.device)
	if err != nil {
		return nil, err
	}
	if rt.exec != nil {
		rt.computeTri(out, t, upper, k)
	}
	n := rt.record(triNode(upper), t)
	n.finish(rt.triBackward(upper, k), out)
	return out, nil
}

// TriInplace is Tensor.tril_ / triu_: the kernel writes t in place (no
// allocation). Under autograd the node replaces t's history (a view's base
// gets CopySlices, as for every in-place op). Returns t (a new reference).
func (rt *Runtime) TriInplace(t *Tensor, upper bool, k int64) (*Tensor, error) {
	op := triName(upper)
	if len(t.shape) < 2 {
		return nil, Errorf(RuntimeError, "%s: input tensor must have at least 2 dimensions", op)
	}
	if err := rt.inplace(t); err != nil {
		return nil, err
	}
	if rt.exec != nil {
		rt.computeTri(t, t, upper, k)
	}
	if rt.needsGrad(t) {
		n := rt.record(triNode(upper), t)
		n.rebase(rt.triBackward(upper, k), t)
	}
	return t.Retain(), nil
}

// triBackward is TrilBackward0/TriuBackward0: grad.tril(k) / grad.triu(k).
func (rt *Runtime) triBackward(upper bool, k int64) backwardFunc {
	return func(n *Node, g []*Tensor) ([]*Tensor, error) {
		r, err := rt.Tri(g[0], upper, k)
		return []*Tensor{r}, err
	}
}

func triName(upper bool) string {
	if upper {
		return "triu"
	}
	return "tril"
}

func triNode(upper bool) string {
	if upper {
		return "TriuBackward0"
	}
	return "TrilBackward0"
}

// ExecKinds of torch.tril/triu: Out = In[0] with the elements of each
// matrix (the last two dims, row i, column j) zeroed where j − i > Ints[0]
// (tril) or j − i < Ints[0] (triu). Out may be In[0] (tril_/triu_).
const (
	ExecTril ExecKind = "tril"
	ExecTriu ExecKind = "triu"
)

// computeTri hands tril/triu's values to the executor.
func (rt *Runtime) computeTri(out, in *Tensor, upper bool, k int64) {
	kind := ExecTril
	if upper {
		kind = ExecTriu
	}
	rt.compute(kind, []*Tensor{out}, []*Tensor{in}, nil, []int64{k})
}
