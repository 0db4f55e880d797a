package gpuexec

import (
	"fmt"

	"github.com/gpumem/playground/gpu"
	"github.com/gpumem/playground/gpu/kernels"
	"github.com/gpumem/playground/sim/torch"
)

// tri is torch.tril/triu (ExecTril, ExecTriu; Out may be In[0] for tril_/
// triu_): TriangularOps.cu keeps element (i, j) of every matrix (the last
// two dims) where j − i ≤ k (tril) or j − i ≥ k (triu) and writes 0
// elsewhere, a select (a NaN outside the triangle becomes 0). The [rows,
// cols] keep mask is built on the host, uploaded as bool and broadcast
// over the batch dims into masked_keep (out = mask ? in : 0).
func (e *Executor) tri(k gpu.Kernels, op *torch.ExecOp, out operand, ins []operand) error {
	if len(ins) != 1 || len(op.Ints) < 1 {
		return fmt.Errorf("gpuexec: %s takes 1 input and the diagonal", op.Kind)
	}
	in := ins[0]
	r := len(out.shape)
	if r < 2 || !sameShape(in.shape, out.shape) {
		return errUnsupported("%s of %v into %v", op.Kind, in.shape, out.shape)
	}
	if in.kt != out.kt {
		return errUnsupported("%s from %s to %s", op.Kind, in.kt, out.kt)
	}
	rows, cols := out.shape[r-2], out.shape[r-1]
	vals := triMask(rows, cols, op.Ints[0], op.Kind == torch.ExecTriu)
	return e.withScratch(out.cuda(), func(s *scratch) error {
		m, err := s.table(kernels.B8, []int64{rows, cols}, vals)
		if err != nil {
			return err
		}
		m.shape = out.shape
		m.strides = make([]int64, r)
		m.strides[r-2], m.strides[r-1] = cols, 1
		return e.mapOp(k, "masked_keep", out, []operand{in, m}, 0, 0)
	})
}

// triMask is the row-major keep mask of tril (upper false) or triu with
// diagonal d: 1 where column − row ≤ d (tril) or ≥ d (triu).
func triMask(rows, cols, d int64, upper bool) []float64 {
	vals := make([]float64, rows*cols)
	for i := int64(0); i < rows; i++ {
		for j := int64(0); j < cols; j++ {
			if keep := j-i <= d; keep != upper || j-i == d {
				vals[i*cols+j] = 1
			}
		}
	}
	return vals
}
