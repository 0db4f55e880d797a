package pybind

import (
	"slices"

	"github.com/gpumem/playground/sim/py"
)

// torch.equal / Tensor.equal (at::equal): True when both tensors have the
// same size and elements. On CUDA (cuda_equal) after the device check and
// the shortcuts — other sizes are unequal, empty tensors and the same view
// of one storage are equal — it is at::eq(...).all().item(): a bool tensor
// of the inputs' size and a 0-dim result, freed before it returns (the
// result first). The simulator computes no values, so there, like .item(),
// the answer is False unless a shortcut decides it.
func init() {
	both("equal", func(h *Host, it *py.Interp, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
		x, err := self("equal", args)
		if err != nil {
			return nil, err
		}
		b, err := tensorOf("equal", "other", argOr(args, kwargs, 1, "other"))
		if err != nil {
			return nil, err
		}
		a := x.t
		if a.Device() != b.Device() {
			return nil, runtimeErr("Cannot compare two tensors on different devices. Got: %s and %s", a.Device(), b.Device())
		}
		switch {
		case !slices.Equal(a.Shape(), b.Shape()):
			return py.False, nil
		case a.Numel() == 0:
			return py.True, nil
		case a.SameStorage(b) && a.Offset() == b.Offset() && a.DType() == b.DType() && slices.Equal(a.Strides(), b.Strides()):
			return py.True, nil
		}
		eq, err := h.rt.Compare("eq", a, b)
		if err != nil {
			return nil, pyErr(err)
		}
		all, err := h.rt.AllAny("all", eq)
		if err != nil {
			eq.Release()
			return nil, pyErr(err)
		}
		v, err := itemValue(all)
		all.Release()
		eq.Release()
		if err != nil {
			return nil, err
		}
		t, err := it.Truth(v)
		it.DecRef(v)
		if err != nil {
			return nil, err
		}
		return py.Bool(t), nil
	})
}
