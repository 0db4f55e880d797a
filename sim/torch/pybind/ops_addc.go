package pybind

import (
	"github.com/gpumem/playground/sim/py"
	"github.com/gpumem/playground/sim/torch"
)

// torch.addcmul/addcdiv/lerp out of place and torch.baddbmm /
// Tensor.baddbmm(_) (the in-place addcmul_/addcdiv_/lerp_ of the
// optimizers are in ops_inplace_pointwise.go).
func init() {
	for _, name := range []string{"addcmul", "addcdiv"} {
		both(name, func(h *Host, it *py.Interp, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
			x, err := self(name, args)
			if err != nil {
				return nil, err
			}
			t1, err := tensorOf(name, "tensor1", argOr(args, kwargs, 1, "tensor1"))
			if err != nil {
				return nil, err
			}
			t2, err := tensorOf(name, "tensor2", argOr(args, kwargs, 2, "tensor2"))
			if err != nil {
				return nil, err
			}
			v, err := floatOf(name, "value", argOr(nil, kwargs, -1, "value"), 1)
			if err != nil {
				return nil, err
			}
			if name == "addcmul" {
				return h.wrapResult(h.rt.Addcmul(x.t, t1, t2, v))
			}
			return h.wrapResult(h.rt.Addcdiv(x.t, t1, t2, v))
		})
	}
	both("lerp", func(h *Host, it *py.Interp, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
		x, err := self("lerp", args)
		if err != nil {
			return nil, err
		}
		end, err := tensorOf("lerp", "end", argOr(args, kwargs, 1, "end"))
		if err != nil {
			return nil, err
		}
		wv := argOr(args, kwargs, 2, "weight")
		if w, ok := tensorArg(wv); ok {
			return h.wrapResult(h.rt.Lerp(x.t, end, w, 0))
		}
		w, ok := floatArg(wv)
		if !ok {
			return nil, typeErr("lerp(): argument 'weight' (position 3) must be Number, not %s", typeName(wv))
		}
		return h.wrapResult(h.rt.Lerp(x.t, end, nil, w))
	})
	bmm := func(name string, inplace bool) opFunc {
		return func(h *Host, it *py.Interp, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
			x, err := self(name, args)
			if err != nil {
				return nil, err
			}
			b1, err := tensorOf(name, "batch1", argOr(args, kwargs, 1, "batch1"))
			if err != nil {
				return nil, err
			}
			b2, err := tensorOf(name, "batch2", argOr(args, kwargs, 2, "batch2"))
			if err != nil {
				return nil, err
			}
			beta, err := floatOf(name, "beta", argOr(nil, kwargs, -1, "beta"), 1)
			if err != nil {
				return nil, err
			}
			alpha, err := floatOf(name, "alpha", argOr(nil, kwargs, -1, "alpha"), 1)
			if err != nil {
				return nil, err
			}
			return h.wrapResult(h.rt.Baddbmm(x.t, b1, b2, beta, alpha, inplace))
		}
	}
	both("baddbmm", bmm("baddbmm", false))
	method("baddbmm_", bmm("baddbmm_", true))
	_ = torch.Float32
}
