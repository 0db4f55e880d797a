package torch

// EmptyStrided is torch.empty_strided(size, stride): one allocation of
// the bytes the strides reach (computeStorageNbytes; overlapping strides
// take less than numel elements).
func (rt *Runtime) EmptyStrided(shape, strides []int64, dt DType, dev Device, requiresGrad bool) (*Tensor, error) {
	if len(shape) != len(strides) {
		return nil, Errorf(RuntimeError, "mismatch in length of strides and shape")
	}
	for _, s := range strides {
		if s < 0 {
			return nil, Errorf(RuntimeError, "as_strided: Negative strides are not supported at the moment, got strides: %s", shapeList(strides))
		}
	}
	if requiresGrad && !dt.Differentiable() {
		return nil, Errorf(RuntimeError, "Only Tensors of floating point and complex dtype can require gradients")
	}
	t, err := rt.empty("empty_strided", shape, strides, dt, dev.Concrete())
	if err != nil {
		return nil, err
	}
	t.requiresGrad = requiresGrad
	return t, nil
}

// TriIndices is torch.tril_indices/triu_indices(row, col, offset): a
// [2, count] tensor (int64 by default) of the triangle's coordinates.
func (rt *Runtime) TriIndices(upper bool, row, col, offset int64, dt DType, dev Device) (*Tensor, error) {
	if row < 0 {
		return nil, Errorf(RuntimeError, "row must be non-negative, got%d", row)
	}
	if col < 0 {
		return nil, Errorf(RuntimeError, "col must be non-negative, got%d", col)
	}
	n := trilSize(row, col, offset)
	if upper {
		n = row*col - trilSize(row, col, offset-1)
	}
	op := "tril_indices"
	if upper {
		op = "triu_indices"
	}
	t, err := rt.empty(op, []int64{2, n}, nil, dt, dev.Concrete())
	if err == nil {
		rt.notComputed(t)
	}
	return t, err
}

// trilSize is get_tril_size: the number of (i, j) with j - i <= offset,
// a top trapezoid plus a bottom rectangle.
func trilSize(row, col, offset int64) int64 {
	if row == 0 || col == 0 {
		return 0
	}
	first := min(col, 1+offset) // elements in the first row
	if offset <= 0 {
		first = 0
		if row+offset > 0 {
			first = 1
		}
	}
	last := max(0, min(col, row+offset)) // elements in the last row
	rows := max(0, min(row, row+offset))
	trap := last - first + 1
	n := (first + last) * trap >> 1
	if diff := rows - trap; diff > 0 {
		n += diff * col
	}
	return n
}
