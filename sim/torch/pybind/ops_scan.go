package pybind

import (
	"github.com/gpumem/playground/sim/py"
	"github.com/gpumem/playground/sim/torch"
)

// torch.cumsum/cumprod and the Tensor methods (sim/torch/ops_scan.go):
// (input, dim, *, dtype=None); under autocast a floating CUDA input scans
// in float32 (fp32_set_opt_dtype), as sum does.
func init() {
	for _, name := range []string{"cumsum", "cumprod"} {
		scan := func(asFunction bool) opFunc {
			return func(h *Host, it *py.Interp, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
				x, err := self(name, args)
				if err != nil {
					return nil, err
				}
				dv := argOr(args, kwargs, 1, "dim")
				if dv == nil || dv == py.None {
					if asFunction {
						return nil, invalidCombination(name, args, kwargs,
							"(Tensor input, int dim, *, torch.dtype dtype = None, Tensor out = None)",
							"(Tensor input, name dim, *, torch.dtype dtype = None, Tensor out = None)")
					}
					return nil, invalidCombination(name, args[1:], kwargs,
						"(int dim, *, torch.dtype dtype = None)",
						"(name dim, *, torch.dtype dtype = None)")
				}
				if err := maxPositional(name, args, 2); err != nil {
					return nil, err
				}
				dim, err := intOf(name, "dim", dv, 0)
				if err != nil {
					return nil, err
				}
				var dtp *torch.DType
				if d, ok, err := dtypeArg(argOr(nil, kwargs, -1, "dtype")); err != nil {
					return nil, err
				} else if ok {
					dtp = &d
				}
				dtp = h.rt.AutocastOptDType(x.t, dtp)
				if name == "cumsum" {
					return h.wrapResult(h.rt.Cumsum(x.t, dim, dtp))
				}
				return h.wrapResult(h.rt.Cumprod(x.t, dim, dtp))
			}
		}
		bothApart(name, scan(false), scan(true))
	}
}
