package pybind

import (
	"github.com/gpumem/playground/sim/py"
)

// Conjugation of real tensors. PyTorch's conj, resolve_conj and
// resolve_neg return self itself for a tensor that is not complex (no
// view, no copy, the same Python object), and is_conj/is_neg are False:
// Adam's for-loop path calls grad.conj(). Complex conjugate views are not
// simulated.
func init() {
	identity := func(name string) opFunc {
		return func(h *Host, it *py.Interp, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
			x, err := self(name, args)
			if err != nil {
				return nil, err
			}
			if x.t.DType().IsComplex() {
				return nil, runtimeErr("%s() of a complex tensor is not simulated", name)
			}
			return py.IncRef(args[0]), nil
		}
	}
	for _, name := range []string{"conj", "resolve_conj", "resolve_neg", "conj_physical"} {
		both(name, identity(name))
	}
	for _, name := range []string{"is_conj", "is_neg"} {
		both(name, func(h *Host, it *py.Interp, args []py.Value, kwargs []py.Kwarg) (py.Value, error) {
			if _, err := self(name, args); err != nil {
				return nil, err
			}
			return py.False, nil
		})
	}
}
