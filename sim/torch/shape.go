package torch

import (
	"fmt"
	"math"
	"math/bits"
	"sort"
	"strings"
)

// numel is the product of sizes (1 for a scalar).
func numel(shape []int64) int64 {
	n := int64(1)
	for _, s := range shape {
		n *= s
	}
	return n
}

// contiguousStrides are the row-major strides of shape.
func contiguousStrides(shape []int64) []int64 {
	st := make([]int64, len(shape))
	acc := int64(1) // PyTorch multiplies by max(size, 1)
	for i := len(shape) - 1; i >= 0; i-- {
		st[i] = acc
		s := shape[i]
		if s < 1 {
			s = 1
		}
		acc *= s
	}
	return st
}

// isContiguous is TensorImpl::is_contiguous (row-major), ignoring size-1 dims.
func isContiguous(shape, strides []int64) bool {
	if numel(shape) == 0 {
		return true
	}
	expected := int64(1)
	for i := len(shape) - 1; i >= 0; i-- {
		if shape[i] == 1 {
			continue
		}
		if strides[i] != expected {
			return false
		}
		expected *= shape[i]
	}
	return true
}

// isNonOverlappingAndDense reports that the elements exactly tile a
// contiguous range in some dimension order (a permuted contiguous tensor).
func isNonOverlappingAndDense(shape, strides []int64) bool {
	if len(shape) == 1 {
		return shape[0] < 2 || strides[0] == 1
	}
	perm := make([]int, len(shape))
	for i := range perm {
		perm[i] = i
	}
	sort.SliceStable(perm, func(a, b int) bool {
		ia, ib := perm[a], perm[b]
		if shape[ia] < 2 {
			return false
		}
		if shape[ib] < 2 {
			return true
		}
		return strides[ia] < strides[ib]
	})
	require := int64(1)
	for _, d := range perm {
		if shape[d] < 2 {
			return true
		}
		if strides[d] != require {
			return false
		}
		require *= shape[d]
	}
	return true
}

// stridesLike gives a dense tensor of shape the same dimension order as
// (shape, strides) when those are non-overlapping and dense, else row-major
// strides (empty_like with memory_format=preserve_format).
func stridesLike(shape, strides []int64) []int64 {
	if len(strides) != len(shape) || !isNonOverlappingAndDense(shape, strides) {
		return contiguousStrides(shape)
	}
	if isContiguous(shape, strides) {
		return contiguousStrides(shape)
	}
	perm := make([]int, len(shape))
	for i := range perm {
		perm[i] = i
	}
	// innermost first: ascending stride, ties broken by later dimension first
	sort.SliceStable(perm, func(a, b int) bool {
		ia, ib := perm[a], perm[b]
		if strides[ia] != strides[ib] {
			return strides[ia] < strides[ib]
		}
		return ia > ib
	})
	out := make([]int64, len(shape))
	acc := int64(1)
	for _, d := range perm {
		out[d] = acc
		s := shape[d]
		if s < 1 {
			s = 1
		}
		acc *= s
	}
	return out
}

// broadcastShapes is at::infer_size over several shapes.
func broadcastShapes(shapes ...[]int64) ([]int64, error) {
	nd := 0
	for _, s := range shapes {
		if len(s) > nd {
			nd = len(s)
		}
	}
	out := make([]int64, nd)
	for i := range out {
		out[i] = 1
	}
	for _, s := range shapes {
		off := nd - len(s)
		// infer_size walks from the last dimension and names the output
		// dimension (question q12: [4, 5] + [3] fails at dimension 1)
		for i := len(s) - 1; i >= 0; i-- {
			d, o := s[i], out[off+i]
			switch {
			case o == d || d == 1:
			case o == 1:
				out[off+i] = d
			default:
				return nil, Errorf(RuntimeError, "The size of tensor a (%d) must match the size of tensor b (%d) at non-singleton dimension %d", o, d, off+i)
			}
		}
	}
	return out, nil
}

// expandable reports whether shape can be broadcast to target.
func expandable(shape, target []int64) bool {
	if len(shape) > len(target) {
		return false
	}
	off := len(target) - len(shape)
	for i, s := range shape {
		if s != target[off+i] && s != 1 {
			return false
		}
	}
	return true
}

// sameShape compares two shapes.
func sameShape(a, b []int64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// wrapDim normalises a possibly negative dimension like at::maybe_wrap_dim.
func wrapDim(dim int64, ndim int) (int, error) {
	n := int64(ndim)
	if n == 0 {
		n = 1 // scalars accept dims -1 and 0
	}
	if dim < -n || dim >= n {
		return 0, Errorf(IndexError, "Dimension out of range (expected to be in range of [%d, %d], but got %d)", -n, n-1, dim)
	}
	if dim < 0 {
		dim += n
	}
	return int(dim), nil
}

// inferSize resolves a single -1 in a view/reshape shape.
func inferSize(shape []int64, total int64) ([]int64, error) {
	if err := checkNumel(shape); err != nil {
		return nil, err
	}
	out := append([]int64(nil), shape...)
	infer := -1
	prod := int64(1)
	for i, s := range shape {
		switch {
		case s == -1:
			if infer >= 0 {
				return nil, Errorf(RuntimeError, "only one dimension can be inferred")
			}
			infer = i
		case s < 0:
			return nil, Errorf(RuntimeError, "invalid shape dimension %d", s)
		default:
			prod *= s
		}
	}
	if infer >= 0 {
		if prod == 0 || total%prod != 0 {
			return nil, Errorf(RuntimeError, "shape '%s' is invalid for input of size %d", shapeList(shape), total)
		}
		out[infer] = total / prod
	} else if prod != total {
		return nil, Errorf(RuntimeError, "shape '%s' is invalid for input of size %d", shapeList(shape), total)
	}
	return out, nil
}

// checkNumel is c10's safe_compute_numel: the product of the sizes (the
// negative ones skipped) must fit in int64, else numel would wrap around
// (possibly to 0, an "empty" tensor that nothing allocates).
func checkNumel(shape []int64) error {
	n := uint64(1)
	for _, s := range shape {
		if s == 0 {
			return nil
		}
		if s < 0 {
			continue
		}
		hi, lo := bits.Mul64(n, uint64(s))
		if hi != 0 || lo > math.MaxInt64 {
			return Errorf(RuntimeError, "numel: integer multiplication overflow")
		}
		n = lo
	}
	return nil
}

// shapeList formats a shape as "[2, 3]".
func shapeList(shape []int64) string {
	parts := make([]string, len(shape))
	for i, s := range shape {
		parts[i] = fmt.Sprint(s)
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

// shapeX formats a shape as "2x3" (matmul error messages).
func shapeX(shape []int64) string {
	parts := make([]string, len(shape))
	for i, s := range shape {
		parts[i] = fmt.Sprint(s)
	}
	return strings.Join(parts, "x")
}

// viewStrides is at::detail::computeStride: the strides of a view of
// (oldShape, oldStrides) with newShape, or nil if no view is possible.
func viewStrides(oldShape, oldStrides, newShape []int64) []int64 {
	if len(oldShape) == 0 {
		st := make([]int64, len(newShape))
		for i := range st {
			st[i] = 1
		}
		return st
	}
	n := numel(oldShape)
	if n == 0 && sameShape(oldShape, newShape) {
		return append([]int64(nil), oldStrides...)
	}
	newStrides := make([]int64, len(newShape))
	if n == 0 {
		return contiguousStrides(newShape)
	}
	viewD := len(newShape) - 1
	chunkBase := oldStrides[len(oldStrides)-1]
	tensorNumel := int64(1)
	viewNumel := int64(1)
	for tensorD := len(oldShape) - 1; tensorD >= 0; tensorD-- {
		tensorNumel *= oldShape[tensorD]
		if tensorD == 0 || (oldShape[tensorD-1] != 1 && oldStrides[tensorD-1] != tensorNumel*chunkBase) {
			for viewD >= 0 && (viewNumel < tensorNumel || newShape[viewD] == 1) {
				newStrides[viewD] = viewNumel * chunkBase
				viewNumel *= newShape[viewD]
				viewD--
			}
			if viewNumel != tensorNumel {
				return nil
			}
			if tensorD > 0 {
				chunkBase = oldStrides[tensorD-1]
				tensorNumel = 1
				viewNumel = 1
			}
		}
	}
	if viewD != -1 {
		return nil
	}
	return newStrides
}

func cloneShape(s []int64) []int64 { return append([]int64(nil), s...) }

// WrapDim is wrapDim for the binding: a possibly negative index into ndim
// positions, or PyTorch's IndexError.
func WrapDim(dim int64, ndim int) (int64, error) {
	d, err := wrapDim(dim, ndim)
	return int64(d), err
}
