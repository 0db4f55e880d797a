package pybind

import (
	"github.com/gpumem/playground/sim/py"
	"github.com/gpumem/playground/sim/torch"
)

// The in-place pointwise kernels of the optimizers and GradScaler (lerp_,
// addcmul_, addcdiv_, reciprocal_, sqrt_, maximum(out=)): they write self
// and allocate nothing. Python-number operands are kernel arguments, not
// tensors.
func init() {
	// name → positions of the tensor operands after self (a number is
	// allowed where PyTorch takes a Scalar overload: lerp_'s weight).
	for name, operands := range map[string][]string{
		"lerp_": {"end", "weight"}, "addcmul_": {"tensor1", "tensor2"}, "addcdiv_": {"tensor1", "tensor2"},
		"reciprocal_": nil, "sqrt_": nil, "rsqrt_": nil, "abs_": nil, "neg_": nil,
	} {
		method(name, func(h *Host, it *py.Interp, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
			x, err := self(name, args)
			if err != nil {
				return nil, err
			}
			var others []*torch.Tensor
			var scalars []float64
			if name == "addcmul_" || name == "addcdiv_" {
				// value as a number (a tensor value leaves the result not computed)
				if v := argOr(nil, kwargs, -1, "value"); v == nil || v == py.None {
					scalars = append(scalars, 1)
				} else if s, ok := scalarArg(v); ok {
					scalars = append(scalars, s.Value())
				}
			}
			for i, arg := range operands {
				v := argOr(args, kwargs, i+1, arg)
				if v == nil {
					return nil, typeErr("%s() missing required argument '%s'", name, arg)
				}
				if t, ok := tensorArg(v); ok {
					others = append(others, t)
				} else if s, ok := scalarArg(v); !ok || arg != "weight" {
					return nil, typeErr("%s(): argument '%s' (position %d) must be Tensor, not %s", name, arg, i+1, typeName(v))
				} else {
					scalars = append(scalars, s.Value())
				}
			}
			return h.wrapResult(h.rt.InplacePointwiseScalars(name, x.t, others, scalars))
		})
	}
	both("reciprocal", func(h *Host, it *py.Interp, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
		x, err := self("reciprocal", args)
		if err != nil {
			return nil, err
		}
		return h.wrapResult(h.rt.FP32(func(ts ...*torch.Tensor) (*torch.Tensor, error) {
			return h.rt.Reciprocal(ts[0]) // on autocast's fp32 list
		}, x.t))
	})
	for _, name := range []string{"maximum", "minimum"} {
		both(name, func(h *Host, it *py.Interp, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
			x, err := self(name, args)
			if err != nil {
				return nil, err
			}
			o, err := tensorOf(name, "other", argOr(args, kwargs, 1, "other"))
			if err != nil {
				return nil, err
			}
			if out, ok := tensorArg(argOr(nil, kwargs, -1, "out")); ok {
				if out != x.t {
					return nil, runtimeErr("%s(out=...) is simulated only with out being the first input", name)
				}
				return h.wrapResult(h.rt.InplacePointwise(name, out, o))
			}
			return h.wrapResult(h.rt.BinaryNoGrad(name, x.t, o))
		})
	}
}
