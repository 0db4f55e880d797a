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
	cur, advs, release, err := h.indexParts(it, t, key)
	if err != nil && hasList {
		return err
	}
	exact, isExact := exactIntFill(h, t, "fill", v)
	if err == nil && len(advs) > 1 {
		defer release()
		defer cur.Release()
		if isExact {
			return h.indexPutMultiExact(cur, advs, exact)
		}
		return h.indexPutMulti(cur, advs, src, value)
	}
	var adv *torch.Tensor
	d := 0
	if err == nil {
		defer release()
		defer cur.Release()
		if len(advs) == 1 {
			adv, d = advs[0].Idx, advs[0].Dim
		}
	} else {
		cur = nil
	}
	r, err := h.rt.IndexPut(t, cur, adv, src)
	if err != nil {
		return pyErr(err)
	}
	r.Release()
	if !h.rt.Computing() {
		return nil
	}
	if cur == nil || adv == nil {
		h.rt.IndexPutValues(t, 0, nil, nil, 0, false)
		return nil
	}
	if isExact {
		h.rt.IndexPutNumberExact(cur, d, adv, exact)
		return nil
	}
	h.rt.IndexPutValues(cur, d, adv, src, value, false)
	return nil
}

// indexPutMultiExact is dst[advs] = v of a Python integer v into an
// integer tensor on a backend that computes values: v reaches the
// executor exactly (beyond 2^53 float64 rounds it).
func (h *Host) indexPutMultiExact(dst *torch.Tensor, advs []torch.AdvIndex, v int64) error {
	r, err := h.rt.IndexPutMultiExact(dst, advs, v)
	if err != nil {
		return pyErr(err)
	}
	r.Release()
	return nil
}

// indexPutMulti is dst[advs] = v with several index tensors (index_put_
// on the view the key's basic items select; under autograd an
// IndexPutBackward0, or CopySlices on a view). As PyTorch's setitem, the
// value's leading size-1 dims are dropped first (slicePrefix1sSize), so a
// one-element host tensor is a host scalar.
func (h *Host) indexPutMulti(dst *torch.Tensor, advs []torch.AdvIndex, src *torch.Tensor, value float64) error {
	if src != nil {
		shape := src.Shape()
		k := 0
		for k < len(shape) && shape[k] == 1 {
			k++
		}
		if k > 0 {
			v, err := h.rt.View(src, shape[k:])
			if err != nil {
				return pyErr(err)
			}
			defer v.Release()
			src = v
		}
	}
	r, err := h.rt.IndexPutMulti(dst, advs, src, value, false, true)
	if err != nil {
		return pyErr(err)
	}
	r.Release()
	return nil
}
