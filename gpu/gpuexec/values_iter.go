package gpuexec

import (
	"sort"

	"github.com/gpumem/playground/gpu"
)

// iterStrides are the strides of a dense tensor of o's shape whose memory
// order is the order PyTorch's TensorIterator walks o (iterOffsets: dims
// sorted by o's stride, the largest outermost): values listed in that
// order, laid out with these strides, sit at o's logical positions.
func iterStrides(o operand) []int64 {
	nd := len(o.shape)
	perm := make([]int, nd)
	for d := range perm {
		perm[d] = d
	}
	sort.SliceStable(perm, func(a, b int) bool { return o.strides[perm[a]] > o.strides[perm[b]] })
	st := make([]int64, nd)
	acc := int64(1)
	for k := nd - 1; k >= 0; k-- {
		d := perm[k]
		st[d] = acc
		acc *= max(o.shape[d], 1)
	}
	return st
}

// valuesIterOrder writes vals, listed in TensorIterator order, into out:
// directly when out is contiguous (the two orders agree), else through a
// dense scratch of out's type on out's side, uploaded as is and copied
// into out's strided layout by the copy kernel (randint into a transposed
// or sliced CUDA tensor of the narrow integer types).
func (e *Executor) valuesIterOrder(k gpu.Kernels, out operand, vals []float64) (err error) {
	if contiguous(out.shape, out.strides) || !out.cuda() {
		return e.values(out, vals)
	}
	n := numel(out.shape)
	t, err := e.tempAlloc(true, n*out.kt.Size())
	if err != nil {
		return err
	}
	defer func() {
		if ferr := e.tempFree(t); err == nil {
			err = ferr
		}
	}()
	if err := e.values(tempOperand(t, out.kt, []int64{n}), vals); err != nil {
		return err
	}
	src := tempOperand(t, out.kt, out.shape)
	src.strides = iterStrides(out)
	return e.mapOp(k, "copy", out, []operand{src}, 0, 0)
}
