package torch

import "sort"

// torch.sort / Tensor.sort / argsort / msort (PyTorch 2.11, CUDA). The
// structured meta allocates values, then int64 indices, both with self's
// strides when self is non-overlapping and dense (else dense strides in
// self's stride order). sort_cuda_kernel then sorts slices of up to 4096
// elements in place (fillSliceWithIndex's arange of the slice length is
// the only temporary) and longer ones with cub (sortScratch). SortBackward
// saves the indices; value_selecting_reduction_backward allocates one
// zero tensor like self and scatters the gradient into it.

// smallSortMax is should_use_small_sort's bound on the sorted dim.
const smallSortMax = 4096

// Sort is torch.sort(t, dim, descending) (stable nil: the sort overload,
// SortBackward0) or torch.sort(t, stable=..., dim, descending) (the
// sort.stable overload, SortBackward1).
func (rt *Runtime) Sort(t *Tensor, dim int64, descending bool, stable *bool) (*Tensor, *Tensor, error) {
	d, err := wrapDim(dim, len(t.shape))
	if err != nil {
		return nil, nil, err
	}
	if t.dtype.IsComplex() && t.device.IsCUDA() {
		return nil, nil, Errorf(TypeError, "Sort currently does not support complex dtypes on CUDA.")
	}
	strides := denseStrides(t.shape, t.strides)
	vals, err := rt.empty("sort", t.shape, strides, t.dtype, t.device)
	if err != nil {
		return nil, nil, err
	}
	idx, err := rt.empty("sort", t.shape, strides, Int64, t.device)
	if err != nil {
		vals.Release()
		return nil, nil, err
	}
	if len(t.shape) > 0 {
		if err := rt.sortScratch(t, d, vals.strides); err != nil {
			vals.Release()
			idx.Release()
			return nil, nil, err
		}
	}
	name := "SortBackward0"
	if stable != nil {
		name = "SortBackward1"
	}
	rt.recordValueSelecting(name, t, vals, idx)
	return vals, idx, nil
}

// Argsort is torch.argsort(t, dim, descending, stable): sort's indices;
// its values are freed on return.
func (rt *Runtime) Argsort(t *Tensor, dim int64, descending bool, stable *bool) (*Tensor, error) {
	v, i, err := rt.Sort(t, dim, descending, stable)
	if err != nil {
		return nil, err
	}
	v.Release()
	return i, nil
}

// Msort is torch.msort(t): sort's values along dim 0; its indices are
// freed on return.
func (rt *Runtime) Msort(t *Tensor) (*Tensor, error) {
	v, i, err := rt.Sort(t, 0, false, nil)
	if err != nil {
		return nil, err
	}
	i.Release()
	return v, nil
}

// recordValueSelecting records the node of an op that selects values of t
// along a dim with int64 indices (sort, topk, kthvalue, median/mode over a
// dim): it saves the indices, and its backward is
// value_selecting_reduction_backward (one zero tensor like t).
func (rt *Runtime) recordValueSelecting(name string, t, vals, idx *Tensor) {
	n := rt.record(name, t)
	if n == nil {
		return
	}
	in := cloneShape(t.shape)
	n.save(idx, true)
	n.fn = func(n *Node, g []*Tensor) ([]*Tensor, error) {
		r, err := rt.valueSelectingBackward(g[0], in)
		return []*Tensor{r}, err
	}
	n.setHistory(vals, nil)
}

// valueSelectingBackward is value_selecting_reduction_backward's memory:
// zeros like the input (the gradient is scattered into it in place).
func (rt *Runtime) valueSelectingBackward(g *Tensor, in []int64) (*Tensor, error) {
	return rt.empty("value_selecting_reduction_backward", in, nil, g.dtype, g.device)
}

// denseStrides is the sort/topk meta's output strides: self's own when
// they are non-overlapping and dense, else at::infer_dense_strides (dense
// strides in the order of self's strides).
func denseStrides(shape, strides []int64) []int64 {
	if isNonOverlappingAndDense(shape, strides) {
		return cloneShape(strides)
	}
	perm := make([]int, len(shape))
	for i := range perm {
		perm[i] = i
	}
	sort.SliceStable(perm, func(a, b int) bool { return strides[perm[a]] < strides[perm[b]] })
	out := make([]int64, len(shape))
	acc := int64(1)
	for _, d := range perm {
		out[d] = acc
		acc *= max(shape[d], 1)
	}
	return out
}

// denseStridesDimLast is infer_dense_strides_dim_last: dense strides in
// the order of self's strides (largest outermost) with dim innermost.
func denseStridesDimLast(shape, strides []int64, dim int) []int64 {
	key := cloneShape(strides)
	key[dim] = -1
	perm := make([]int, len(shape))
	for i := range perm {
		perm[i] = i
	}
	sort.SliceStable(perm, func(a, b int) bool { return key[perm[a]] > key[perm[b]] })
	out := make([]int64, len(shape))
	acc := int64(1)
	for i := len(perm) - 1; i >= 0; i-- {
		out[perm[i]] = acc
		acc *= shape[perm[i]]
	}
	return out
}
