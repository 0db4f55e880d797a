package pybind

import (
	"math"

	"github.com/gpumem/playground/sim/py"
	"github.com/gpumem/playground/sim/torch"
)

// Python integers beyond 2^53 in fill_, t[i] = v and arange: the model's
// float64 scalars round them, so these paths pass them exactly too (see
// torch.InplaceFillExact and ExecArange's Ints).

// exactIntFill reports v's exact value when fill_(v) (or t[i] = v) of the
// integer tensor t is computed (a GPU run) and v is a Python integer.
func exactIntFill(h *Host, t *torch.Tensor, base string, v py.Value) (int64, bool) {
	iv, ok := v.(py.Int)
	if !ok || base != "fill" || !h.rt.Computing() || !t.DType().IsIntegral(false) {
		return 0, false
	}
	return int64(iv), true
}

// maxExactFloat is 2^53: integers of larger magnitude may be rounded in a
// float64.
const maxExactFloat = 1 << 53

// exactArange is arange's length and (start, step) computed in int64 as
// PyTorch's compute_arange_size does for integer bounds, when every bound
// is a Python integer and one of them is beyond 2^53 (below, the float
// computation gives the same length; beyond, it can be wrong: the model
// uses this length in both modes). ok is false otherwise, or when the
// length's arithmetic would overflow int64.
func exactArange(nums []py.Value) (n, start, step int64, ok bool) {
	ints := make([]int64, len(nums))
	big := false
	for i, v := range nums {
		iv, isInt := v.(py.Int)
		if !isInt {
			return 0, 0, 0, false
		}
		ints[i] = int64(iv)
		big = big || ints[i] > maxExactFloat || ints[i] < -maxExactFloat
	}
	if !big {
		return 0, 0, 0, false
	}
	var end int64
	step = 1
	switch len(ints) {
	case 1:
		end = ints[0]
	case 2:
		start, end = ints[0], ints[1]
	case 3:
		start, end, step = ints[0], ints[1], ints[2]
	default:
		return 0, 0, 0, false
	}
	if step == 0 {
		return 0, 0, 0, false
	}
	sgn := int64(1)
	if step < 0 {
		sgn = -1
	}
	// (end − start + step − sgn) / step without overflow: in float64 the
	// difference may round, so it must be exact in int64 first.
	d := end - start
	if (end >= start) != (d >= 0) || math.Abs(float64(d)+float64(step)) >= math.MaxInt64/2 {
		return 0, 0, 0, false
	}
	n = (d + step - sgn) / step
	if n < 0 {
		n = 0
	}
	return n, start, step, true
}
