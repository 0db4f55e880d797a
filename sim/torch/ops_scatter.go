package torch

// gather, scatter, scatter_add and index_add (TensorAdvancedIndexing.cpp,
// derivatives.yaml). The out-of-place forms are structured kernels: a
// contiguous self-shaped output, self copied into it, then the in-place
// kernel (no temporaries on CUDA without deterministic algorithms).

// ScatterMode selects what Scatter writes at the index.
type ScatterMode int

// Scatter modes.
const (
	// ScatterSrc is scatter(dim, index, src): out(index along dim) = src.
	ScatterSrc ScatterMode = iota
	// ScatterValue is scatter(dim, index, value): the number value.
	ScatterValue
	// ScatterAdd is scatter_add(dim, index, src): out(index) += src.
	ScatterAdd
	// IndexAdd is index_add(dim, index, source, alpha): out.select(dim,
	// index[i]) += alpha·source.select(dim, i) with a 1-d index.
	IndexAdd
)

// Executor kinds of gather and scatter.
const (
	// ExecGather is gather(In[0], Ints[0], In[1]): Out has the index's
	// shape, Out(c) = In[0](c with dim d replaced by In[1](c)).
	ExecGather ExecKind = "gather"
	// ExecScatter writes into Out[0] (= In[0], holding self's values) at
	// In[1] (int64, Out's rank) along Ints[0]: In[2] (src, walked over the
	// index's shape) or, without it, the number Scalars[0]; Ints[1] = 1
	// adds (scatter_add) instead of writing.
	ExecScatter ExecKind = "scatter"
)

// checkScatterIndex checks gather/scatter's index: int64, self's rank and
// device (scatter_gather_dtype_check, gather_shape_check).
func checkScatterIndex(op string, x *Tensor, d int, idx *Tensor) error {
	if idx.dtype != Int64 {
		return Errorf(RuntimeError, "%s(): Expected dtype int64 for index", op)
	}
	if len(idx.shape) != len(x.shape) && !(len(idx.shape) <= 1 && len(x.shape) <= 1) {
		return Errorf(RuntimeError, "Index tensor must have the same number of dimensions as input tensor")
	}
	if idx.device != x.device {
		return Errorf(RuntimeError, "Expected all tensors to be on the same device, but found at least two devices, %s and %s!", x.device, idx.device)
	}
	for i := range idx.shape {
		if i != d && i < len(x.shape) && idx.shape[i] > x.shape[i] {
			return Errorf(RuntimeError, "Size does not match at dimension %d expected index %s to be no larger than self %s apart from dimension %d", i, shapeList(idx.shape), shapeList(x.shape), d)
		}
	}
	return nil
}

// Gather is torch.gather(x, dim, index): a tensor of the index's shape.
// GatherBackward0 saves self and the index; its backward is
// gather_backward: zeros like self (new_zeros), scatter_add_ of the
// gradient at the index.
func (rt *Runtime) Gather(x *Tensor, dim int64, idx *Tensor) (*Tensor, error) {
	d, err := wrapDim(dim, max(len(x.shape), 1))
	if err != nil {
		return nil, err
	}
	if err := checkScatterIndex("gather", x, d, idx); err != nil {
		return nil, err
	}
	out, err := rt.gatherRaw(x, d, idx)
	if err != nil {
		return nil, err
	}
	n := rt.record("GatherBackward0", x)
	if n != nil {
		n.save(x, false)
		n.save(idx, false)
	}
	xs := cloneShape(x.shape)
	n.finish(func(n *Node, g []*Tensor) ([]*Tensor, error) {
		r, err := rt.empty("new_zeros", xs, nil, g[0].dtype, g[0].device)
		if err != nil {
			return nil, err
		}
		if rt.exec != nil {
			rt.compute1(ExecFill, r, nil, 0)
			if sv, release, ok := rt.savedForValues(n, 1); ok {
				rt.compute(ExecScatter, []*Tensor{r}, []*Tensor{r, sv[0], g[0]}, nil, []int64{int64(d), 1})
				release()
			} else {
				rt.markNotComputed(r)
			}
		}
		return []*Tensor{r}, nil
	}, out)
	return out, nil
}

// gatherRaw is gather without history: the index-shaped output.
func (rt *Runtime) gatherRaw(x *Tensor, d int, idx *Tensor) (*Tensor, error) {
	out, err := rt.empty("gather", idx.shape, nil, x.dtype, x.device)
	if err != nil {
		return nil, err
	}
	if rt.exec != nil {
		rt.compute(ExecGather, []*Tensor{out}, []*Tensor{x, idx}, nil, []int64{int64(d)})
	}
	return out, nil
}

// scatterNode is the backward node name of mode.
func scatterNode(mode ScatterMode) string {
	switch mode {
	case ScatterValue:
		return "ScatterBackward1"
	case ScatterAdd:
		return "ScatterAddBackward0"
	case IndexAdd:
		return "IndexAddBackward0"
	}
	return "ScatterBackward0"
}

// Scatter is scatter/scatter_/scatter_add/scatter_add_/index_add/
// index_add_ (mode) of src (nil for ScatterValue: the number value) into
// x at idx along dim; inplace writes x itself, else a new contiguous
// self-shaped tensor holding a copy of x. alpha is index_add's factor.
// Backward (derivatives.yaml): self's gradient is grad (scatter_add,
// index_add) or grad.scatter(dim, index, 0) (a new tensor); src's is
// grad.gather(dim, index) (scatter, scatter_add) or
// grad.index_select(dim, index) (index_add, times alpha when alpha != 1).
// The node saves the index.
func (rt *Runtime) Scatter(mode ScatterMode, x *Tensor, dim int64, idx, src *Tensor, value, alpha float64, inplace bool) (*Tensor, error) {
	d, err := wrapDim(dim, max(len(x.shape), 1))
	if err != nil {
		return nil, err
	}
	if mode == IndexAdd {
		if len(idx.shape) > 1 || (idx.dtype != Int64 && idx.dtype != Int32) {
			return nil, Errorf(IndexError, "index_add_(): Index is supposed to be a vector")
		}
		if src == nil || src.dtype != x.dtype {
			return nil, Errorf(RuntimeError, "index_add_(): self and source expected to have the same dtype")
		}
	} else if err := checkScatterIndex("scatter", x, d, idx); err != nil {
		return nil, err
	}
	if src != nil && mode != IndexAdd && src.dtype != x.dtype {
		return nil, Errorf(RuntimeError, "scatter(): Expected self.dtype to be equal to src.dtype")
	}
	var out *Tensor
	if inplace {
		if err := rt.inplace(x); err != nil {
			return nil, err
		}
		out = x.Retain()
	} else {
		out, err = rt.empty(scatterNode(mode), x.shape, nil, x.dtype, x.device)
		if err != nil {
			return nil, err
		}
		if rt.exec != nil {
			rt.compute1(ExecCopy, out, []*Tensor{x})
		}
	}
	if rt.exec != nil {
		rt.scatterValues(mode, out, d, idx, src, value, alpha)
	}
	n := rt.record(scatterNode(mode), x, src)
	if n != nil {
		n.save(idx, false)
	}
	fn := func(n *Node, g []*Tensor) ([]*Tensor, error) {
		res := make(gradSlot, 2)
		if n.needsInput(0) {
			if mode == ScatterAdd || mode == IndexAdd {
				res[0] = g[0].Retain()
			} else {
				r, err := rt.scatterGrad(n, d, g[0])
				if err != nil {
					return res.fail(err)
				}
				res[0] = r
			}
		}
		if src != nil && n.needsInput(1) {
			r, err := rt.scatterSrcGrad(n, mode, d, g[0], alpha)
			if err != nil {
				return res.fail(err)
			}
			res[1] = r
		}
		return res, nil
	}
	if inplace {
		n.rebase(fn, out)
	} else {
		n.finish(fn, out)
	}
	return out, nil
}

// scatterValues computes a scatter's values into out (holding self's).
func (rt *Runtime) scatterValues(mode ScatterMode, out *Tensor, d int, idx, src *Tensor, value, alpha float64) {
	switch mode {
	case IndexAdd:
		if idx.dtype != Int64 {
			rt.markNotComputed(out)
			return
		}
		var scalars []float64
		if alpha != 1 {
			scalars = []float64{alpha}
		}
		rt.compute(ExecIndexPut, []*Tensor{out}, []*Tensor{out, idx, src}, scalars, []int64{int64(d), 1})
	case ScatterValue:
		rt.compute(ExecScatter, []*Tensor{out}, []*Tensor{out, idx}, []float64{value}, []int64{int64(d), 0})
	case ScatterAdd:
		rt.compute(ExecScatter, []*Tensor{out}, []*Tensor{out, idx, src}, nil, []int64{int64(d), 1})
	default:
		rt.compute(ExecScatter, []*Tensor{out}, []*Tensor{out, idx, src}, nil, []int64{int64(d), 0})
	}
}

// scatterGrad is grad.scatter(dim, index, 0): a copy of grad with zeros at
// the saved index.
func (rt *Runtime) scatterGrad(n *Node, d int, g *Tensor) (*Tensor, error) {
	r, err := rt.empty("scatter", g.shape, nil, g.dtype, g.device)
	if err != nil || rt.exec == nil {
		return r, err
	}
	rt.compute1(ExecCopy, r, []*Tensor{g})
	if sv, release, ok := rt.savedForValues(n, 0); ok {
		rt.compute(ExecScatter, []*Tensor{r}, []*Tensor{r, sv[0]}, []float64{0}, []int64{int64(d), 0})
		release()
	} else {
		rt.markNotComputed(r)
	}
	return r, nil
}

// scatterSrcGrad is src's gradient: grad.gather(dim, index), or for
// index_add grad.index_select(dim, index) (times alpha unless 1).
func (rt *Runtime) scatterSrcGrad(n *Node, mode ScatterMode, d int, g *Tensor, alpha float64) (*Tensor, error) {
	idx, err := n.unpack(0)
	if err != nil {
		return nil, err
	}
	defer idx.Release()
	if mode != IndexAdd {
		return rt.gatherRaw(g, d, idx)
	}
	shape := cloneShape(g.shape)
	shape[d] = idx.Numel()
	r, err := rt.empty("index_select", shape, nil, g.dtype, g.device)
	if err != nil {
		return nil, err
	}
	if rt.exec != nil {
		rt.compute(ExecIndex, []*Tensor{r}, []*Tensor{g, idx}, nil, []int64{int64(d)})
	}
	if alpha == 1 {
		return r, nil
	}
	defer r.Release()
	m, err := rt.empty("mul", shape, nil, g.dtype, g.device)
	if err == nil && rt.exec != nil {
		rt.compute1(ExecAffine, m, []*Tensor{r}, alpha, 0)
	}
	return m, err
}
