package gpuexec

import (
	"fmt"

	"github.com/gpumem/playground/gpu"
	"github.com/gpumem/playground/gpu/kernels"
	"github.com/gpumem/playground/sim/torch"
)

// gather and scatter (torch.gather, scatter(_), scatter_add(_)) on the
// index kernels of nn.ptx: the walk is over the index's shape; the indexed
// tensor's stride at dim d is taken out of its strides and moved to the
// kernel's dimStride, so that element c of the index reads (gather) or
// writes (scatter) the tensor at c's coordinates with dim d replaced by
// the index value.

// withoutDim is strides with the entry of dim d set to 0.
func withoutDim(strides []int64, d int) []int64 {
	s := append([]int64{}, strides...)
	s[d] = 0
	return s
}

// gather is ExecGather: Out (the index's shape) = In[0] gathered at In[1]
// along Ints[0].
func (e *Executor) gather(k gpu.Kernels, op *torch.ExecOp, out operand, ins []operand) error {
	if len(ins) != 2 || len(op.Ints) < 1 {
		return fmt.Errorf("gpuexec: gather takes self, index and a dim")
	}
	x, idx, d := ins[0], ins[1], int(op.Ints[0])
	if x.kt != out.kt || !isIndexDType(out.kt) || idx.kt != kernels.I64 || idx.cuda() != out.cuda() {
		return errUnsupported("gather of %s %v by %s into %s", x.kt, x.shape, idx.kt, out.kt)
	}
	if d < 0 || d >= len(x.shape) || len(idx.shape) != len(x.shape) || !sameShape(idx.shape, out.shape) {
		return errUnsupported("gather of %v along %d by %v", x.shape, d, idx.shape)
	}
	return e.indexLaunch(k, kernels.IndexGather, out.kt, out.shape, out, x, idx,
		[3][]int64{out.strides, withoutDim(x.strides, d), idx.strides}, x.strides[d], x.shape[d], torch.NoSkipIndex)
}

// scatter is ExecScatter: Out (= In[0]) at In[1] along Ints[0] gets In[2]
// (or the number Scalars[0]), added when Ints[1] is 1.
func (e *Executor) scatter(k gpu.Kernels, op *torch.ExecOp, dst operand, ins []operand) error {
	if len(ins) < 2 || len(ins) > 3 || len(op.Ints) < 2 || (len(ins) == 2 && len(op.Scalars) < 1) {
		return fmt.Errorf("gpuexec: scatter takes dst, index, src or a number, a dim and add")
	}
	idx, d, add := ins[1], int(op.Ints[0]), op.Ints[1] != 0
	if !isIndexDType(dst.kt) || (add && (!accumulates(dst.kt) || dst.kt == kernels.B8)) || idx.kt != kernels.I64 || idx.cuda() != dst.cuda() {
		return errUnsupported("scatter into %s by %s (add %v)", dst.kt, idx.kt, add)
	}
	if d < 0 || d >= len(dst.shape) || len(idx.shape) != len(dst.shape) {
		return errUnsupported("scatter into %v along %d by %v", dst.shape, d, idx.shape)
	}
	return e.withScratch(dst.cuda(), func(s *scratch) error {
		var src operand
		var srcStrides []int64
		if len(ins) == 3 {
			src = ins[2]
			if src.cuda() != dst.cuda() || len(src.shape) != len(idx.shape) {
				return errUnsupported("scatter of %v values by %v", src.shape, idx.shape)
			}
			srcStrides = src.strides
		} else {
			one, err := s.typed(dst.kt, nil)
			if err != nil {
				return err
			}
			if err := e.mapOp64(k, "fill", one, nil, op.Scalars[0], 0); err != nil {
				return err
			}
			src, srcStrides = one, make([]int64, len(idx.shape))
		}
		if !add {
			if src.kt != dst.kt {
				return errUnsupported("scatter of %s into %s", src.kt, dst.kt)
			}
			return e.indexLaunch(k, kernels.IndexScatter, dst.kt, idx.shape, dst, src, idx,
				[3][]int64{withoutDim(dst.strides, d), srcStrides, idx.strides}, dst.strides[d], dst.shape[d], torch.NoSkipIndex)
		}
		acc, err := s.accumulator(k, dst, true)
		if err != nil {
			return err
		}
		if src.kt != acc.kt {
			if src, err = s.asType(k, acc.kt, src); err != nil {
				return err
			}
			if len(ins) == 3 {
				srcStrides = src.strides
			}
		}
		if err := e.indexLaunch(k, kernels.IndexScatterAdd, acc.kt, idx.shape, acc, src, idx,
			[3][]int64{withoutDim(acc.strides, d), srcStrides, idx.strides}, acc.strides[d], acc.shape[d], torch.NoSkipIndex); err != nil {
			return err
		}
		if acc.addr != dst.addr {
			return e.mapOp(k, "copy", dst, []operand{acc}, 0, 0)
		}
		return nil
	})
}
