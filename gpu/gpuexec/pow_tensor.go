package gpuexec

import (
	"github.com/gpumem/playground/gpu"
	"github.com/gpumem/playground/gpu/kernels"
)

// powTensor is a ** b with a tensor exponent (pow_tensor_tensor). Only
// float64 has the kernel (pow_tensor, C's pow); the other float types
// compute it there: PyTorch computes powf in float for float32 and in
// float (opmath) for float16/bfloat16, so both operands are converted to
// float64 scratch, pow_tensor runs, and the result is rounded to float32
// (within an ulp of powf: the double result rounded once), then, for the
// half types, to the output's type, as the cast of powf's float result.
func (e *Executor) powTensor(k gpu.Kernels, out operand, ins []operand) error {
	if out.kt == kernels.F64 || !isFloat(out.kt) {
		return e.mapPromoted(k, "pow_tensor", out, ins, 0, 0)
	}
	return e.withScratch(out.cuda(), func(s *scratch) error {
		r, err := s.typed(kernels.F64, out.shape)
		if err != nil {
			return err
		}
		if err := e.mapPromoted(k, "pow_tensor", r, ins, 0, 0); err != nil {
			return err
		}
		if out.kt != kernels.F32 {
			f, err := s.typed(kernels.F32, out.shape)
			if err != nil {
				return err
			}
			if err := e.mapOp(k, "copy", f, []operand{r}, 0, 0); err != nil {
				return err
			}
			r = f
		}
		return e.mapOp(k, "copy", out, []operand{r}, 0, 0)
	})
}
