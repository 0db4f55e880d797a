package torch

import "sort"

// Glu is F.glu(x, dim): the first half of dim times the sigmoid of the
// second. ATen's structured glu runs a binary TensorIterator over the two
// narrowed halves, so the output (dim halved) follows the input's dimension
// order; GluBackward0 saves self and glu_backward allocates one input-sized,
// contiguous gradient (empty({0}) resized to the input's sizes).
func (rt *Runtime) Glu(a *Tensor, dim int64) (*Tensor, error) {
	if len(a.shape) == 0 {
		return nil, Errorf(RuntimeError, "glu does not support scalars because halving size must be even")
	}
	d, err := wrapDim(dim, len(a.shape))
	if err != nil {
		return nil, err
	}
	if a.shape[d]%2 != 0 {
		return nil, Errorf(RuntimeError, "Halving dimension must be even, but dimension %d is size %d", d, a.shape[d])
	}
	if !a.dtype.IsFloating() {
		return nil, Errorf(NotImplementedError, "\"glu_cuda\" not implemented for '%s'", a.dtype.cppName())
	}
	shape := cloneShape(a.shape)
	shape[d] /= 2
	out, err := rt.empty("glu", shape, stridesInOrder(shape, stridesLike(a.shape, a.strides)), a.dtype, a.device)
	if err != nil {
		return nil, err
	}
	n := rt.record("GluBackward0", a)
	if n != nil {
		n.save(a, false)
	}
	in := cloneShape(a.shape)
	n.finish(func(n *Node, g []*Tensor) ([]*Tensor, error) {
		self, err := n.unpack(0)
		if err != nil {
			return nil, err
		}
		defer self.Release()
		r, err := rt.empty("glu_backward", in, nil, g[0].dtype, g[0].device)
		return []*Tensor{r}, err
	}, out)
	return out, nil
}

// stridesInOrder gives dense strides for shape with the dimension order of
// the dense strides order (innermost first: ascending stride, ties to the
// later dimension), as TensorIterator lays out an output like its input.
func stridesInOrder(shape, order []int64) []int64 {
	perm := make([]int, len(shape))
	for i := range perm {
		perm[i] = i
	}
	sort.SliceStable(perm, func(x, y int) bool {
		ix, iy := perm[x], perm[y]
		if order[ix] != order[iy] {
			return order[ix] < order[iy]
		}
		return ix > iy
	})
	out := make([]int64, len(shape))
	acc := int64(1)
	for _, d := range perm {
		out[d] = acc
		acc *= max(shape[d], 1)
	}
	return out
}
