package py

import (
	"strconv"
	"unicode/utf8"
)

// Bytes is a Python bytes value (minimal support).
type Bytes string

// Type returns bytes.
func (Bytes) Type() *Class { return BytesClass }

// Slice is a Python slice object.
type Slice struct {
	Base
	Start, Stop, Step Value
}

// Type returns slice.
func (*Slice) Type() *Class { return SliceClass }

func (it *Interp) newSlice(a, b, c Value) *Slice {
	return &Slice{Start: a, Stop: b, Step: c}
}

func (s *Slice) dealloc(it *Interp) {
	it.DecRef(s.Start)
	it.DecRef(s.Stop)
	it.DecRef(s.Step)
}

// indices resolves the slice for a sequence of length n (PySlice_GetIndicesEx).
func (it *Interp) sliceIndices(s *Slice, n int) (start, stop, step int, err error) {
	step = 1
	if s.Step != None {
		st, err := it.index(s.Step)
		if err != nil {
			return 0, 0, 0, newTypeError("slice indices must be integers or None or have an __index__ method")
		}
		if st == 0 {
			return 0, 0, 0, newValueError("slice step cannot be zero")
		}
		step = st
	}
	get := func(v Value, def int) (int, error) {
		if v == None {
			return def, nil
		}
		i, err := it.index(v)
		if err != nil {
			return 0, newTypeError("slice indices must be integers or None or have an __index__ method")
		}
		if i < 0 {
			i += n
			if i < 0 {
				if step < 0 {
					i = -1
				} else {
					i = 0
				}
			}
		} else if i >= n {
			if step < 0 {
				i = n - 1
			} else {
				i = n
			}
		}
		return i, nil
	}
	if step > 0 {
		if start, err = get(s.Start, 0); err != nil {
			return
		}
		stop, err = get(s.Stop, n)
	} else {
		if start, err = get(s.Start, n-1); err != nil {
			return
		}
		stop, err = get(s.Stop, -1)
	}
	return
}

func sliceLen(start, stop, step int) int {
	if step > 0 {
		if start < stop {
			return (stop - start + step - 1) / step
		}
		return 0
	}
	if start > stop {
		return (start - stop - step - 1) / (-step)
	}
	return 0
}

// index converts an int-like value to int (operator.index).
func (it *Interp) index(v Value) (int, error) {
	switch x := v.(type) {
	case Int:
		return int(x), nil
	case Bool:
		if x {
			return 1, nil
		}
		return 0, nil
	case *BigInt:
		if x.v.Sign() < 0 {
			return -1 << 62, nil
		}
		return 1 << 62, nil
	case *Instance:
		if f := x.cls.Lookup("__index__"); f != nil {
			r, err := it.callMethodValue(f, x, nil, nil)
			if err != nil {
				return 0, err
			}
			return it.index(r)
		}
	case HasIndex:
		r, err := x.Index(it)
		if err != nil {
			return 0, err
		}
		return it.index(r)
	}
	return 0, newTypeError("'" + v.Type().Name + "' object cannot be interpreted as an integer")
}

// hasIndex reports whether v converts with __index__ (an instance whose
// class defines it, or a host value implementing HasIndex).
func hasIndex(v Value) bool {
	switch x := v.(type) {
	case *Instance:
		return x.cls.Lookup("__index__") != nil
	case HasIndex:
		return true
	}
	return false
}

func seqIndex(it *Interp, key Value, n int, what string) (int, error) {
	i, err := it.index(key)
	if err != nil {
		if hasIndex(key) {
			return 0, err // __index__'s own error, as PyNumber_AsSsize_t
		}
		return 0, newTypeError(what + " indices must be integers or slices, not " + key.Type().Name)
	}
	if i < 0 {
		i += n
	}
	if i < 0 || i >= n {
		return 0, NewException(IndexError, what+" index out of range")
	}
	return i, nil
}

// GetItem returns obj[key] (new reference).
func (it *Interp) GetItem(obj, key Value) (Value, error) {
	switch o := obj.(type) {
	case *List:
		if s, ok := key.(*Slice); ok {
			vs, err := it.sliceElems(o.elems, s)
			if err != nil {
				return nil, err
			}
			return it.NewList(vs), nil
		}
		i, err := seqIndex(it, key, len(o.elems), "list")
		if err != nil {
			return nil, err
		}
		return IncRef(o.elems[i]), nil
	case *Tuple:
		if s, ok := key.(*Slice); ok {
			vs, err := it.sliceElems(o.elems, s)
			if err != nil {
				return nil, err
			}
			return it.NewTuple(vs), nil
		}
		i, err := seqIndex(it, key, len(o.elems), "tuple")
		if err != nil {
			return nil, err
		}
		return IncRef(o.elems[i]), nil
	case *Dict:
		v, ok, err := o.GetItem(it, key)
		if err != nil {
			return nil, err
		}
		if !ok {
			if o.factory != nil && o.factory != None {
				nv, err := it.Call(o.factory, nil, nil)
				if err != nil {
					return nil, err
				}
				if err := o.SetItem(it, key, nv); err != nil {
					it.DecRef(nv)
					return nil, err
				}
				return nv, nil
			}
			return nil, it.keyError(key)
		}
		return IncRef(v), nil
	case Str:
		return it.strGetItem(o, key)
	case *Range:
		return it.rangeGetItem(o, key)
	case HasGetItem:
		return o.GetItem(it, key)
	case *Instance:
		if f := o.cls.Lookup("__getitem__"); f != nil {
			return it.callMethodValue(f, o, []Value{key}, nil)
		}
	case *Class:
		// typing-style subscription (list[int], Optional[X]): the class itself.
		return IncRef(o), nil
	}
	return nil, newTypeError("'" + obj.Type().Name + "' object is not subscriptable")
}

func (it *Interp) keyError(key Value) *Instance {
	return newExcArgs(KeyError, []Value{IncRef(key)})
}

func (it *Interp) sliceElems(elems []Value, s *Slice) ([]Value, error) {
	start, stop, step, err := it.sliceIndices(s, len(elems))
	if err != nil {
		return nil, err
	}
	n := sliceLen(start, stop, step)
	out := make([]Value, 0, n)
	for k, i := 0, start; k < n; k, i = k+1, i+step {
		out = append(out, IncRef(elems[i]))
	}
	return out, nil
}

func (it *Interp) strGetItem(s Str, key Value) (Value, error) {
	ascii := isASCII(string(s))
	if sl, ok := key.(*Slice); ok {
		if ascii {
			start, stop, step, err := it.sliceIndices(sl, len(s))
			if err != nil {
				return nil, err
			}
			if step == 1 {
				if start >= stop {
					return Str(""), nil
				}
				return s[start:stop], nil
			}
			n := sliceLen(start, stop, step)
			b := make([]byte, 0, n)
			for k, i := 0, start; k < n; k, i = k+1, i+step {
				b = append(b, s[i])
			}
			return Str(b), nil
		}
		rs := []rune(string(s))
		start, stop, step, err := it.sliceIndices(sl, len(rs))
		if err != nil {
			return nil, err
		}
		n := sliceLen(start, stop, step)
		out := make([]rune, 0, n)
		for k, i := 0, start; k < n; k, i = k+1, i+step {
			out = append(out, rs[i])
		}
		return Str(string(out)), nil
	}
	if ascii {
		i, err := seqIndex(it, key, len(s), "string")
		if err != nil {
			return nil, err
		}
		return s[i : i+1], nil
	}
	rs := []rune(string(s))
	i, err := seqIndex(it, key, len(rs), "string")
	if err != nil {
		return nil, err
	}
	return Str(string(rs[i])), nil
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

func strLen(s string) int {
	if isASCII(s) {
		return len(s)
	}
	return utf8.RuneCountInString(s)
}

// SetItem sets obj[key] = v (borrowed).
func (it *Interp) SetItem(obj, key, v Value) error {
	switch o := obj.(type) {
	case *List:
		if s, ok := key.(*Slice); ok {
			return it.listSetSlice(o, s, v)
		}
		i, err := seqIndex(it, key, len(o.elems), "list assignment")
		if err != nil {
			return err
		}
		old := o.elems[i]
		o.elems[i] = IncRef(v)
		it.DecRef(old)
		return nil
	case *Dict:
		return o.SetItem(it, key, v)
	case HasSetItem:
		return o.SetItem(it, key, v)
	case *Instance:
		if f := o.cls.Lookup("__setitem__"); f != nil {
			r, err := it.callMethodValue(f, o, []Value{key, v}, nil)
			if err == nil {
				it.DecRef(r)
			}
			return err
		}
	}
	return newTypeError("'" + obj.Type().Name + "' object does not support item assignment")
}

func (it *Interp) listSetSlice(l *List, s *Slice, v Value) error {
	vs, err := it.iterToSlice(v)
	if err != nil {
		return newTypeError("can only assign an iterable")
	}
	start, stop, step, err := it.sliceIndices(s, len(l.elems))
	if err != nil {
		it.decRefAll(vs)
		return err
	}
	if step != 1 {
		n := sliceLen(start, stop, step)
		if n != len(vs) {
			it.decRefAll(vs)
			return newValueError("attempt to assign sequence of size " + strconv.Itoa(len(vs)) + " to extended slice of size " + strconv.Itoa(n))
		}
		var old []Value
		for k, i := 0, start; k < n; k, i = k+1, i+step {
			old = append(old, l.elems[i])
			l.elems[i] = vs[k]
		}
		it.decRefAll(old)
		return nil
	}
	if stop < start {
		stop = start
	}
	removed := append([]Value(nil), l.elems[start:stop]...)
	ne := make([]Value, 0, len(l.elems)-len(removed)+len(vs))
	ne = append(ne, l.elems[:start]...)
	ne = append(ne, vs...)
	ne = append(ne, l.elems[stop:]...)
	l.elems = ne
	for i := len(removed) - 1; i >= 0; i-- {
		it.DecRef(removed[i])
	}
	return nil
}

// DelItem deletes obj[key].
func (it *Interp) DelItem(obj, key Value) error {
	switch o := obj.(type) {
	case *List:
		if s, ok := key.(*Slice); ok {
			start, stop, step, err := it.sliceIndices(s, len(o.elems))
			if err != nil {
				return err
			}
			if step == 1 {
				if stop < start {
					stop = start
				}
				removed := append([]Value(nil), o.elems[start:stop]...)
				o.elems = append(o.elems[:start], o.elems[stop:]...)
				for i := len(removed) - 1; i >= 0; i-- {
					it.DecRef(removed[i])
				}
				return nil
			}
			n := sliceLen(start, stop, step)
			del := map[int]bool{}
			for k, i := 0, start; k < n; k, i = k+1, i+step {
				del[i] = true
			}
			var keep, removed []Value
			for i, e := range o.elems {
				if del[i] {
					removed = append(removed, e)
				} else {
					keep = append(keep, e)
				}
			}
			o.elems = keep
			it.decRefAll(removed)
			return nil
		}
		i, err := seqIndex(it, key, len(o.elems), "list assignment")
		if err != nil {
			return err
		}
		old := o.elems[i]
		o.elems = append(o.elems[:i], o.elems[i+1:]...)
		it.DecRef(old)
		return nil
	case *Dict:
		ok, err := o.DelItem(it, key)
		if err != nil {
			return err
		}
		if !ok {
			return it.keyError(key)
		}
		return nil
	case HasSetItem:
		return o.SetItem(it, key, nil)
	case *Instance:
		if f := o.cls.Lookup("__delitem__"); f != nil {
			r, err := it.callMethodValue(f, o, []Value{key}, nil)
			if err == nil {
				it.DecRef(r)
			}
			return err
		}
	}
	return newTypeError("'" + obj.Type().Name + "' object doesn't support item deletion")
}
