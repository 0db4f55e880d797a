package pybind

import (
	"github.com/gpumem/playground/sim/py"
	"github.com/gpumem/playground/sim/torch"
)

// indexPut is t[key] = v where key holds an index tensor or list
// (index_put_ on t: a version bump, the index a list becomes and
// index_put_'s temporaries: a number or host scalar copied to the device,
// host or int32 indices copied, a mask's nonzero unless it dispatches to
// masked_fill_). Key's basic items are applied as views; on a backend that
// computes values the index and the value reach the executor (t[idx] = v, t[:, idx] = v, t[mask] = v, t[[0, 2]] = v); a key
// the views cannot express (two index tensors) leaves t not computed.
func (h *Host) indexPut(it *py.Interp, t *torch.Tensor, key, v py.Value) error {
	src, isTensor := tensorArg(v)
	var value float64
	if !isTensor {
		f, ok := floatArg(v)
		if !ok {
			return typeErr("can't assign a %s to a %s", typeName(v), t.DType().TypeName())
		}
		value = f
	}
	hasList := false
	for _, k := range keyItems(key) {
		if _, ok := k.(*py.List); ok {
			hasList = true
		}
	}
	cur, adv, d, release, err := h.indexParts(it, t, key)
	if err != nil && hasList {
		return err
	}
	if err == nil {
		defer release()
		defer cur.Release()
	} else {
		cur, adv = nil, nil
	}
	r, err := h.rt.IndexPut(t, cur, adv, src)
	if err != nil {
		return pyErr(err)
	}
	r.Release()
	if !h.rt.Computing() {
		return nil
	}
	if cur == nil {
		h.rt.IndexPutValues(t, 0, nil, nil, 0, false)
		return nil
	}
	h.rt.IndexPutValues(cur, d, adv, src, value, false)
	return nil
}
