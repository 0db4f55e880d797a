package gpuexec

import (
	"sort"

	"github.com/gpumem/playground/gpu"
	"github.com/gpumem/playground/gpu/kernels"
)

// dropoutStrided draws the uniforms of native_dropout over a
// non-contiguous CUDA input x into the f32 scratch u (x's shape,
// contiguous) and returns the operand that pairs each of x's elements
// with its uniform, as Dropout.cu's dropout_cuda does:
//   - x non-overlapping and dense (a permutation: t.transpose(0, 1)):
//     empty_like keeps x's layout for the output and the mask, and
//     get_vector_size vectorises over memory when x's alignment and numel
//     allow: uniform m goes to the element at memory position m (u read
//     with x's strides);
//   - otherwise (or vector size 1), fused_dropout_kernel indexes every
//     tensor through TensorInfo by the linear index: uniform i goes to
//     element i in row-major order (u as it is).
//
// The offset increment is the kernel's either way (UNROLL 4).
func (e *Executor) dropoutStrided(k gpu.Kernels, u, x operand) (operand, error) {
	n := numel(x.shape)
	g, err := e.philoxOp(k, n, 4)
	if err != nil {
		return u, err
	}
	if dense(x.shape, x.strides) {
		if v := dropoutVec(x.kt, x.addr, n); v > 1 {
			g.Vec = v
			u.strides = x.strides
		}
	}
	return u, k.Philox(kernels.PhiloxRaw, kernels.F32, u.addr, n, g)
}

// dense reports PyTorch's is_non_overlapping_and_dense: the dimensions
// sorted by stride (size-1 ones left out) are contiguous.
func dense(shape, strides []int64) bool {
	var dims []int
	for d, s := range shape {
		if s != 1 {
			dims = append(dims, d)
		}
	}
	sort.SliceStable(dims, func(i, j int) bool { return strides[dims[i]] < strides[dims[j]] })
	want := int64(1)
	for _, d := range dims {
		if strides[d] != want {
			return false
		}
		want *= shape[d]
	}
	return true
}
