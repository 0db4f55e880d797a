package torch

// Diagonal is Tensor.diagonal(offset, dim1, dim2) (aten diagonal): a view
// that drops dim1 and dim2 and appends the diagonal as the last dimension,
// with stride stride1+stride2. Its backward (diagonal_backward) allocates a
// zero tensor of the input's shape and copies the gradient into its
// diagonal.
func (rt *Runtime) Diagonal(t *Tensor, offset, dim1, dim2 int64) (*Tensor, error) {
	a, err := wrapDim(dim1, len(t.shape))
	if err != nil {
		return nil, err
	}
	b, err := wrapDim(dim2, len(t.shape))
	if err != nil {
		return nil, err
	}
	if a == b {
		return nil, Errorf(RuntimeError, "diagonal dimensions cannot be identical %d, %d", dim1, dim2)
	}
	shape, strides, off := diagonalGeometry(t.shape, t.strides, t.offset, offset, a, b)
	in, dt, dev := cloneShape(t.shape), t.dtype, t.device
	return rt.makeView(t, shape, strides, off, "DiagonalBackward0", func(n *Node, g []*Tensor) ([]*Tensor, error) {
		r, err := rt.empty("diagonal_backward", in, nil, dt, dev)
		if err == nil && rt.exec != nil {
			_, ds, doff := diagonalGeometry(in, contiguousStrides(in), 0, offset, a, b)
			rt.zeroAndCopyInto(r, ds, doff, g[0])
		}
		return []*Tensor{r}, err
	}), nil
}

// diagonalGeometry is the shape, strides and storage offset of the diagonal
// view of a tensor with the given geometry (dims a != b, already wrapped).
func diagonalGeometry(shape, strides []int64, base, offset int64, a, b int) ([]int64, []int64, int64) {
	var n int64
	if offset >= 0 {
		n = min(shape[a], shape[b]-offset)
		base += offset * strides[b]
	} else {
		n = min(shape[a]+offset, shape[b])
		base -= offset * strides[a]
	}
	if n <= 0 {
		n = 0
	}
	var outShape, outStrides []int64
	for i := range shape {
		if i != a && i != b {
			outShape = append(outShape, shape[i])
			outStrides = append(outStrides, strides[i])
		}
	}
	return append(outShape, n), append(outStrides, strides[a]+strides[b]), base
}
