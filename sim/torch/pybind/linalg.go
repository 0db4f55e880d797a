package pybind

import (
	"math"

	"github.com/gpumem/playground/sim/py"
)

// buildLinalg is torch.linalg: vector_norm and norm (the 2-norm reductions
// clip_grad_norm_ uses).
func (h *Host) buildLinalg(it *py.Interp) (*py.Module, error) {
	m := it.NewModule("torch.linalg")
	for _, name := range []string{"vector_norm", "norm"} {
		m.Add(it, name, py.NewBuiltin(name, func(it *py.Interp, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
			x, err := tensorOf(name, "input", argOr(args, kwargs, 0, "input"))
			if err != nil {
				return nil, err
			}
			ord := 2.0
			if o := argOr(args, kwargs, 1, "ord"); o != nil && o != py.None {
				f, err := floatOf(name, "ord", o, 2)
				if err != nil {
					return nil, err
				} else if f != 2 && f != 1 && !math.IsInf(f, 1) {
					return nil, runtimeErr("linalg.%s: only ord=1, 2 and inf are simulated", name)
				}
				ord = f
			}
			dims, err := dimsArg(name, argOr(args, kwargs, 2, "dim"))
			if err != nil {
				return nil, err
			}
			keep, err := boolOf(it, argOr(args, kwargs, 3, "keepdim"), false)
			if err != nil {
				return nil, err
			}
			return h.opDone(h.wrapResult(h.rt.NormP(x, ord, dims, keep)))
		}))
	}
	m.Add(it, "cross", py.NewBuiltin("cross", func(it *py.Interp, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
		return h.opDone(linalgCross(h, it, args, kwargs)) // ops_reduce_more.go
	}))
	return m, nil
}

func init() {
	def("_foreach_norm", false, true, func(h *Host, it *py.Interp, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
		ts, err := tensorSeq("_foreach_norm", "self", argOr(args, kwargs, 0, "self"), false)
		if err != nil {
			return nil, err
		}
		if o := argOr(args, kwargs, 1, "ord"); o != nil && o != py.None {
			if f, err := floatOf("_foreach_norm", "ord", o, 2); err != nil {
				return nil, err
			} else if f != 2 && f != 1 {
				return nil, runtimeErr("_foreach_norm: only ord=1 and ord=2 are simulated")
			}
		}
		r, err := h.rt.ForeachNorm(ts)
		if err != nil {
			return nil, pyErr(err)
		}
		vs := make([]py.Value, len(r))
		for i, t := range r {
			vs[i] = h.wrap(t)
		}
		return it.NewList(vs), nil
	})
}
