package pybind

import (
	"github.com/gpumem/playground/sim/py"
	"github.com/gpumem/playground/sim/torch"
)

// GetItem is t[key]: ints select, slices slice, None unsqueezes, Ellipsis
// skips dims (all views); an index tensor (or list) gathers a copy.
func (x *Tensor) GetItem(it *py.Interp, key py.Value) (py.Value, error) {
	r, err := x.h.index(it, x.t, key)
	if err != nil {
		return nil, err
	}
	return x.h.wrap(r), nil
}

// SetItem is t[key] = v: a copy into the indexed view (no allocation), or
// index_put_ for index tensors.
func (x *Tensor) SetItem(it *py.Interp, key, v py.Value) error {
	if v == nil {
		return typeErr("'Tensor' object does not support item deletion")
	}
	items := keyItems(key)
	for _, k := range items {
		switch k.(type) {
		case *Tensor, *py.List:
			return x.h.indexPut(it, x.t, key, v)
		}
	}
	view, err := x.h.index(it, x.t, key)
	if err != nil {
		return err
	}
	defer view.Release()
	if src, ok := tensorArg(v); ok {
		r, err := x.h.rt.CopyInplace(view, src)
		if err != nil {
			return pyErr(err)
		}
		r.Release()
		return nil
	}
	if _, ok := scalarArg(v); !ok {
		return typeErr("can't assign a %s to a %s", typeName(v), x.t.DType().TypeName())
	}
	var kind torch.ExecKind
	fv, ok := valueArg(v)
	if ok {
		kind = torch.ExecFill
	}
	var r *torch.Tensor
	if iv, exact := exactIntFill(x.h, view, "fill", v); exact {
		r, err = x.h.rt.InplaceFillExact("fill", view, iv)
	} else {
		r, err = x.h.rt.InplaceUnaryInit("fill", view, kind, fv)
	}
	if err != nil {
		return pyErr(err)
	}
	r.Release()
	return nil
}

func keyItems(key py.Value) []py.Value {
	if tup, ok := key.(*py.Tuple); ok {
		return tup.Elems()
	}
	return []py.Value{key}
}

// index applies key to t and returns a new reference.
func (h *Host) index(it *py.Interp, t *torch.Tensor, key py.Value) (*torch.Tensor, error) {
	cur, advs, release, err := h.indexParts(it, t, key)
	if err != nil {
		return nil, err
	}
	defer release()
	if len(advs) > 0 {
		var r *torch.Tensor
		if len(advs) == 1 {
			r, err = h.rt.IndexTensor(cur, advs[0].Dim, advs[0].Idx)
		} else {
			r, err = h.rt.IndexMulti(cur, advs)
		}
		cur.Release()
		if err != nil {
			return nil, pyErr(err)
		}
		return r, nil
	}
	if cur == t {
		// nothing but skipped slices, Ellipsis or an empty tuple: PyTorch
		// returns at::alias(self) (AliasBackward0), never self itself.
		a := h.rt.Alias(cur)
		cur.Release()
		return a, nil
	}
	return cur, nil
}

// indexParts applies key's basic items (ints, slices, None, Ellipsis) to t
// as views: cur (a new reference) and the key's index tensors (and lists,
// made index tensors) with the dims of cur they index, in key order.
// release frees the indices made from lists (after their last use).
func (h *Host) indexParts(it *py.Interp, t *torch.Tensor, key py.Value) (cur *torch.Tensor, advs []torch.AdvIndex, release func(), err error) {
	items := keyItems(key)
	if consumed(items) > t.Dim() {
		return nil, nil, nil, py.Errorf(py.IndexError, "too many indices for tensor of dimension %d", t.Dim())
	}
	// A key of several items goes through PyTorch's applySlicing, which
	// skips a slice of a whole dim (applySlice returns self); a lone slice
	// (t[:]) has the optimisation disabled and is always a view.
	_, skipFull := key.(*py.Tuple)
	cur = t.Retain()
	d := 0
	var tmp []*torch.Tensor
	releaseTmp := func() {
		for _, x := range tmp {
			x.Release()
		}
	}
	release = releaseTmp
	defer func() {
		if err != nil { // the error returns set release to nil
			releaseTmp()
			release = func() {}
		}
	}()
	for i, k := range items {
		var next *torch.Tensor
		var err error
		switch k := k.(type) {
		case py.NoneType:
			next, err = h.rt.Unsqueeze(cur, int64(d))
			d++
		case py.EllipsisType:
			d = cur.Dim() - consumed(items[i+1:])
			continue
		case *py.Slice:
			start, hasStart, e1 := sliceBound(k.Start)
			end, hasEnd, e2 := sliceBound(k.Stop)
			step, hasStep, e3 := sliceBound(k.Step)
			if e1 != nil || e2 != nil || e3 != nil {
				cur.Release()
				return nil, nil, nil, typeErr("slice indices must be integers or None or have an __index__ method")
			}
			if !hasStep {
				step = 1
			}
			if d >= cur.Dim() {
				cur.Release()
				return nil, nil, nil, py.Errorf(py.IndexError, "too many indices for tensor of dimension %d", t.Dim())
			}
			if skipFull && (!hasStart || start == 0) && (!hasEnd || end >= cur.Shape()[d]) && step == 1 {
				d++
				continue
			}
			next, err = h.rt.Slice(cur, int64(d), start, end, step, hasStart, hasEnd)
			d++
		case *Tensor:
			advs = append(advs, torch.AdvIndex{Dim: d, Idx: k.t})
			if k.t.DType() == torch.Bool || k.t.DType() == torch.Uint8 {
				d += k.t.Dim()
			} else {
				d++
			}
			continue
		case *py.List:
			idx, e := h.listIndex(cur, k)
			if e != nil {
				cur.Release()
				return nil, nil, nil, e
			}
			tmp = append(tmp, idx)
			advs = append(advs, torch.AdvIndex{Dim: d, Idx: idx})
			d++
			continue
		default:
			i, ok := intArg(k)
			if !ok {
				cur.Release()
				return nil, nil, nil, py.Errorf(py.IndexError, "only integers, slices (`:`), ellipsis (`...`), None and long or byte Variables are valid indices (got %s)", typeName(k))
			}
			if d >= cur.Dim() {
				cur.Release()
				return nil, nil, nil, py.Errorf(py.IndexError, "too many indices for tensor of dimension %d", t.Dim())
			}
			next, err = h.rt.Select(cur, int64(d), i)
		}
		cur.Release()
		if err != nil {
			return nil, nil, nil, pyErr(err)
		}
		cur = next
	}
	return cur, advs, release, nil
}

// consumed counts the dims that index items use up (None uses none).
func consumed(items []py.Value) int {
	used := 0
	for _, k := range items {
		switch k := k.(type) {
		case py.NoneType, py.EllipsisType:
		case *Tensor:
			if k.t.DType() == torch.Bool || k.t.DType() == torch.Uint8 {
				used += k.t.Dim()
			} else {
				used++
			}
		default:
			used++
		}
	}
	return used
}

// listIndex turns t[[0, 2]] into an int64 index tensor on t's device (a
// copy from the host, as PyTorch does).
func (h *Host) listIndex(t *torch.Tensor, l *py.List) (*torch.Tensor, error) {
	for _, e := range l.Elems() {
		switch e.(type) {
		case py.Int, *py.BigInt, py.Bool, py.Float, *Tensor, *py.List, *py.Tuple:
		default: // torch.tensor(list) rejects it (question q12)
			return nil, typeErr("new(): invalid data type '%s'", typeName(e))
		}
	}
	dt := torch.Int64
	if len(l.Elems()) > 0 {
		if _, ok := l.Elems()[0].(py.Bool); ok {
			dt = torch.Bool
		}
	}
	r, err := h.rt.Factory("tensor", []int64{int64(len(l.Elems()))}, dt, t.Device(), false)
	if err != nil {
		return nil, pyErr(err)
	}
	if h.rt.Computing() {
		vals := make([]float64, 0, len(l.Elems()))
		for _, e := range l.Elems() {
			f, ok := floatArg(e)
			if _, isT := e.(*Tensor); !ok || isT {
				vals = nil // a tensor element: its value is not passed on
				break
			}
			vals = append(vals, f)
		}
		if len(vals) == len(l.Elems()) {
			h.rt.Init(r, torch.ExecValues, vals...)
		}
	}
	return r, nil
}

func sliceBound(v py.Value) (int64, bool, error) {
	if v == nil || v == py.None {
		return 0, false, nil
	}
	n, ok := intArg(v)
	if !ok {
		return 0, false, typeErr("bad slice")
	}
	return n, true, nil
}
