package pybind

import (
	"github.com/gpumem/playground/sim/py"
	"github.com/gpumem/playground/sim/torch"
)

// unflatten(dim, sizes): ATen's unflatten is self.view(shape) with dim
// replaced by sizes (one -1 inferred), so it is a view like PyTorch's.
func init() {
	both("unflatten", func(h *Host, it *py.Interp, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
		x, err := self("unflatten", args)
		if err != nil {
			return nil, err
		}
		d, err := intOf("unflatten", "dim", argOr(args, kwargs, 1, "dim"), 0)
		if err != nil {
			return nil, err
		}
		sizes, err := intList("unflatten", "sizes", argOr(args, kwargs, 2, "sizes"))
		if err != nil {
			return nil, err
		}
		shape := x.t.Shape()
		nd := int64(len(shape))
		if d < -nd || d >= nd {
			return nil, py.NewException(py.IndexError, "Dimension out of range (expected to be in range of ["+itoa(-nd)+", "+itoa(nd-1)+"], but got "+itoa(d)+")")
		}
		if d < 0 {
			d += nd
		}
		if len(sizes) == 0 {
			return nil, runtimeErr("unflatten: sizes must be non-empty")
		}
		prod, infer := int64(1), -1
		for i, s := range sizes {
			if s == -1 {
				if infer >= 0 {
					return nil, runtimeErr("only one dimension can be inferred")
				}
				infer = i
				continue
			}
			prod *= s
		}
		sz := append([]int64(nil), sizes...)
		if infer >= 0 && prod != 0 {
			sz[infer] = shape[d] / prod
			prod *= sz[infer]
		}
		if prod != shape[d] {
			return nil, runtimeErr("unflatten: Provided sizes %s don't multiply up to the size of dim %d (%d) in the input tensor", pyIntList(sizes), d, shape[d])
		}
		ns := append(append(append([]int64(nil), shape[:d]...), sz...), shape[d+1:]...)
		return h.wrapResult(h.rt.View(x.t, ns))
	})
}

// itoa formats an int64 for error messages.
func itoa(n int64) string { return torch.Int(n).String() }
