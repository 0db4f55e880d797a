package gpuexec

import (
	"fmt"
	"strings"

	"github.com/gpumem/playground/gpu"
	"github.com/gpumem/playground/gpu/kernels"
	"github.com/gpumem/playground/sim/torch"
)

// divFamily computes the kinds of the division family (kernels.DivOp:
// div_trunc, div_floor, remainder, fmod; "_s" with the divisor a number in
// Scalars[0], "r…_s" with the dividend a number): the tensor inputs are
// converted to the output's type (the common dtype), and the float "_s"
// forms get s1 = 1/s0 in their opmath type (f32 for float32 and the half
// types, f64 for float64), as PyTorch's CPU-scalar path computes a·(1/b).
// It reports false for the other kinds.
func (e *Executor) divFamily(k gpu.Kernels, op *torch.ExecOp, out operand, ins []operand) (bool, error) {
	mop := kernels.MapOp(op.Kind)
	if !kernels.DivOp(mop) {
		return false, nil
	}
	info, _ := kernels.MapOpByName(mop)
	if len(ins) != info.Ins || (info.Ins == 1 && len(op.Scalars) < 1) {
		return true, fmt.Errorf("gpuexec: %s takes %d inputs (and a number for the scalar forms)", op.Kind, info.Ins)
	}
	var s0, s1 float64
	if len(op.Scalars) > 0 {
		s0 = op.Scalars[0]
	}
	switch {
	case isIntType(out.kt):
		if len(op.Ints) == 1 && info.Ins == 1 && !sameInt(s0, op.Ints[0]) {
			// a Python integer beyond 2^53: the tensor form over a 0-d operand
			base, reflected := divTensorForm(mop)
			return true, e.withIntScalars(k, out.cuda(), op.Ints, func(c []operand) error {
				if reflected {
					return e.mapPromoted(k, base, out, []operand{c[0], ins[0]}, 0, 0)
				}
				return e.mapPromoted(k, base, out, []operand{ins[0], c[0]}, 0, 0)
			})
		}
		if !exactInt(s0) {
			return true, errUnsupported("%s by %v into %s", op.Kind, s0, out.kt)
		}
	case out.kt == kernels.F64:
		s1 = 1 / s0
	default:
		s1 = float64(float32(1) / float32(s0))
	}
	return true, e.mapPromoted(k, mop, out, ins, s0, s1)
}

// divTensorForm is the two-input op of a scalar form ("div_floor_s" →
// div_floor; "rdiv_floor_s" → div_floor, reflected).
func divTensorForm(op kernels.MapOp) (kernels.MapOp, bool) {
	name := strings.TrimSuffix(string(op), "_s")
	if name == "rdiv_floor" || name == "rremainder" {
		return kernels.MapOp(name[1:]), true
	}
	return kernels.MapOp(name), false
}
