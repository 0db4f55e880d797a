package pybind

import (
	"github.com/gpumem/playground/sim/py"
)

func init() {
	for _, name := range []string{"mm", "bmm"} {
		both(name, func(h *Host, it *py.Interp, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
			x, err := self(name, args)
			if err != nil {
				return nil, err
			}
			o, err := tensorOf(name, "mat2", argOr(args, kwargs, 1, "mat2"))
			if err != nil {
				return nil, err
			}
			if name == "mm" {
				return h.wrapResult(h.rt.LowerPrecision2(name, h.rt.Mm, x.t, o))
			}
			return h.wrapResult(h.rt.LowerPrecision2(name, h.rt.Bmm, x.t, o))
		})
	}
	both("addmm", func(h *Host, it *py.Interp, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
		x, err := self("addmm", args)
		if err != nil {
			return nil, err
		}
		a, err := tensorOf("addmm", "mat1", argOr(args, kwargs, 1, "mat1"))
		if err != nil {
			return nil, err
		}
		b, err := tensorOf("addmm", "mat2", argOr(args, kwargs, 2, "mat2"))
		if err != nil {
			return nil, err
		}
		return h.wrapResult(h.rt.LowerPrecision3("addmm", h.rt.Addmm, x.t, a, b))
	})
}
