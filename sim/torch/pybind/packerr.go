package pybind

import "github.com/gpumem/playground/sim/py"

// opDone ends an op called from Python: if a saved-tensor pack hook raised
// while the op ran (checkpoint's early stop raises on purpose), the result
// is dropped, as PyTorch's unwinding frees the op's output, and the hook's
// exception propagates to the script instead of being lost.
func (h *Host) opDone(v py.Value, err error) (py.Value, error) {
	pe := h.rt.TakeError()
	if pe == nil {
		return v, err
	}
	if err == nil && v != nil {
		h.it.DecRef(v)
	}
	return nil, pe
}
