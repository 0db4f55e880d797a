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
		if _, ok := k.(*Tensor); ok {
			r, err := x.h.rt.IndexPut(x.t)
			if err != nil {
				return pyErr(err)
			}
			r.Release()
			return nil
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
	r, err := x.h.rt.InplaceUnary("fill", view)
	if err != nil {
		return pyErr(err)
	}
	if fv, ok := floatArg(v); ok {
		x.h.rt.Init(view, torch.ExecFill, fv)
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
	items := keyItems(key)
	cur := t.Retain()
	d := 0
	var adv *torch.Tensor
	advDim := 0
	var tmp []*torch.Tensor
	defer func() {
		for _, x := range tmp {
			x.Release()
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
				return nil, typeErr("slice indices must be integers or None or have an __index__ method")
			}
			if !hasStep {
				step = 1
			}
			if d >= cur.Dim() {
				cur.Release()
				return nil, py.Errorf(py.IndexError, "too many indices for tensor of dimension %d", t.Dim())
			}
			next, err = h.rt.Slice(cur, int64(d), start, end, step, hasStart, hasEnd)
			d++
		case *Tensor:
			if adv != nil {
				cur.Release()
				return nil, runtimeErr("indexing with more than one index tensor is not simulated")
			}
			adv, advDim = k.t, d
			if k.t.DType() == torch.Bool {
				d += k.t.Dim()
			} else {
				d++
			}
			continue
		case *py.List:
			idx, e := h.listIndex(cur, k)
			if e != nil {
				cur.Release()
				return nil, e
			}
			tmp = append(tmp, idx)
			adv, advDim = idx, d
			d++
			continue
		default:
			i, ok := intArg(k)
			if !ok {
				cur.Release()
				return nil, py.Errorf(py.IndexError, "only integers, slices (`:`), ellipsis (`...`), None and long or byte Variables are valid indices (got %s)", typeName(k))
			}
			if d >= cur.Dim() {
				cur.Release()
				return nil, py.Errorf(py.IndexError, "too many indices for tensor of dimension %d", t.Dim())
			}
			next, err = h.rt.Select(cur, int64(d), i)
		}
		cur.Release()
		if err != nil {
			return nil, pyErr(err)
		}
		cur = next
	}
	if adv != nil {
		r, err := h.rt.IndexTensor(cur, advDim, adv)
		cur.Release()
		if err != nil {
			return nil, pyErr(err)
		}
		return r, nil
	}
	if len(items) == 1 {
		if _, ok := items[0].(py.EllipsisType); ok {
			a := h.rt.Alias(cur)
			cur.Release()
			return a, nil
		}
	}
	return cur, nil
}

// consumed counts the dims that index items use up (None uses none).
func consumed(items []py.Value) int {
	used := 0
	for _, k := range items {
		switch k := k.(type) {
		case py.NoneType, py.EllipsisType:
		case *Tensor:
			if k.t.DType() == torch.Bool {
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
	dt := torch.Int64
	if len(l.Elems()) > 0 {
		if _, ok := l.Elems()[0].(py.Bool); ok {
			dt = torch.Bool
		}
	}
	r, err := h.rt.Factory("tensor", []int64{int64(len(l.Elems()))}, dt, t.Device(), false)
	return r, pyErr(err)
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
