package torch

// scatter_reduce(_) (TensorAdvancedIndexing.cpp scatter_reduce_two, the
// CUDA scatter kernels; FunctionsManual.cpp scatter_reduce_backward).

// scatterReductions are scatter_reduce's reduce names: PyTorch 2.11 also
// takes "max" and "min" in the forward (measured on CUDA, q21; taken here
// as amax/amin), which its backward formula then rejects.
var scatterReductions = map[string]bool{"sum": true, "prod": true, "mean": true, "amax": true, "amin": true, "max": true, "min": true}

// ScatterReduce is scatter_reduce/scatter_reduce_(dim, index, src, reduce,
// include_self): out of place a contiguous copy of self, then (without
// include_self) the init value scattered in and the atomic kernel; "mean"
// then counts: ones_like(src), ones/zeros_like(out), scatter_add_, the
// count == 0 mask, div_. ScatterReduceBackward0 saves self (in place: a
// clone taken before the op), the index, src and the result.
func (rt *Runtime) ScatterReduce(x *Tensor, dim int64, idx, src *Tensor, reduce string, includeSelf, inplace bool) (*Tensor, error) {
	d, err := wrapDim(dim, max(len(x.shape), 1))
	if err != nil {
		return nil, err
	}
	if err := checkScatterIndex("scatter", x, d, idx); err != nil {
		return nil, err
	}
	if src.dtype != x.dtype {
		return nil, Errorf(RuntimeError, "scatter(): Expected self.dtype to be equal to src.dtype")
	}
	if !scatterReductions[reduce] {
		return nil, Errorf(RuntimeError, "reduce argument must be either sum, prod, mean, amax or amin, got %s", reduce)
	}
	if inplace {
		if err := rt.checkInplace(x); err != nil {
			return nil, err
		}
	}
	var orig *Tensor
	if inplace && rt.needsGrad(x, src) {
		// original_self: the formula reads self, so autograd clones it first
		if orig, err = rt.empty("clone", x.shape, stridesLike(x.shape, x.strides), x.dtype, x.device); err != nil {
			return nil, err
		}
		rt.notComputed(orig)
		defer orig.Release()
	}
	var out *Tensor
	if inplace {
		if err := rt.inplace(x); err != nil {
			return nil, err
		}
		out = x.Retain()
	} else if out, err = rt.empty("scatter_reduce", x.shape, nil, x.dtype, x.device); err != nil {
		return nil, err
	}
	if err := rt.scatterReduceKernel(out, src, idx, reduce, includeSelf); err != nil {
		out.Release()
		return nil, err
	}
	rt.notComputed(out)
	n := rt.record("ScatterReduceBackward0", x, src)
	if n != nil {
		self := x
		if orig != nil {
			self = orig
		}
		n.save(self, false)
		n.save(idx, false)
		n.save(src, false)
		n.save(out, true)
	}
	a := scatterReduceArgs{d: d, reduce: reduce, includeSelf: includeSelf}
	fn := func(n *Node, g []*Tensor) ([]*Tensor, error) {
		var ts [4]*Tensor
		for i := range ts {
			t, err := n.unpack(i)
			if err != nil {
				releaseAll(ts[:i])
				return nil, err
			}
			ts[i] = t
		}
		defer releaseAll(ts[:])
		gs, gsrc, err := rt.scatterReduceBackward(g[0], ts[0], ts[1], ts[2], ts[3], a)
		if err != nil {
			return nil, err
		}
		res := gradSlot{gs, gsrc}
		for i := range res {
			if !n.needsInput(i) && res[i] != nil {
				res[i].Release()
				res[i] = nil
			}
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

// scatterReduceArgs are the backward's non-tensor arguments.
type scatterReduceArgs struct {
	d           int
	reduce      string
	includeSelf bool
}

// scatterReduceKernel is the in-place part of scatter_reduce_two on out
// (self's values already there): only "mean" allocates (its counts).
func (rt *Runtime) scatterReduceKernel(out, src, idx *Tensor, reduce string, includeSelf bool) error {
	if idx.Numel() == 0 || reduce != "mean" {
		return nil
	}
	ones, err := rt.emptyLike("ones_like", src, src.dtype)
	if err != nil {
		return err
	}
	defer ones.Release()
	count, err := rt.emptyLike("count", out, out.dtype)
	if err != nil {
		return err
	}
	defer count.Release()
	zero, err := rt.empty("eq", out.shape, stridesLike(out.shape, out.strides), Bool, out.device)
	if err != nil {
		return err
	}
	zero.Release()
	return nil
}

// scatterReduceRaw is self.scatter_reduce(...) inside the prod backward:
// the contiguous output and the kernel, no history.
func (rt *Runtime) scatterReduceRaw(x, idx, src *Tensor, reduce string, includeSelf bool) (*Tensor, error) {
	out, err := rt.empty("scatter_reduce", x.shape, nil, x.dtype, x.device)
	if err != nil {
		return nil, err
	}
	if err := rt.scatterReduceKernel(out, src, idx, reduce, includeSelf); err != nil {
		out.Release()
		return nil, err
	}
	rt.notComputed(out)
	return out, nil
}
