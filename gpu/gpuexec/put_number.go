package gpuexec

import (
	"github.com/gpumem/playground/gpu"
)

// putNumber is index_put_'s number value as a 0-dim scratch operand of
// dst's type: the float64 v, or exact[0] when exact holds the number as
// an integer that float64 rounds (a Python integer beyond 2^53 assigned
// into an integer tensor), copied from an int64 staging operand so every
// bit survives.
func (e *Executor) putNumber(k gpu.Kernels, s *scratch, dst operand, v float64, exact []int64) (operand, error) {
	one, err := s.typed(dst.kt, nil)
	if err != nil {
		return operand{}, err
	}
	if len(exact) == 1 && isIntType(dst.kt) && !sameInt(v, exact[0]) {
		err = e.withIntScalars(k, dst.cuda(), exact, func(c []operand) error {
			return e.mapPromoted(k, "copy", one, c, 0, 0)
		})
		return one, err
	}
	return one, e.mapOp64(k, "fill", one, nil, v, 0)
}
