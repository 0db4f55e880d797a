package py

// Range is a Python range.
type Range struct {
	Base
	start, stop, step int64
}

// Type returns range.
func (*Range) Type() *Class { return RangeClass }

func (r *Range) length() int64 {
	if r.step > 0 {
		if r.start < r.stop {
			return (r.stop - r.start + r.step - 1) / r.step
		}
		return 0
	}
	if r.start > r.stop {
		return (r.start - r.stop - r.step - 1) / (-r.step)
	}
	return 0
}

func (r *Range) contains(x Value) bool {
	i, ok := smallInt(x)
	if !ok {
		if f, isF := x.(Float); isF && float64(int64(f)) == float64(f) {
			i = int64(f)
		} else {
			return false
		}
	}
	if r.step > 0 {
		if i < r.start || i >= r.stop {
			return false
		}
	} else if i > r.start || i <= r.stop {
		return false
	}
	return (i-r.start)%r.step == 0
}

func (it *Interp) rangeGetItem(r *Range, key Value) (Value, error) {
	if s, ok := key.(*Slice); ok {
		n := int(r.length())
		start, stop, step, err := it.sliceIndices(s, n)
		if err != nil {
			return nil, err
		}
		return &Range{start: r.start + int64(start)*r.step, stop: r.start + int64(stop)*r.step, step: r.step * int64(step)}, nil
	}
	i, err := seqIndex(it, key, int(r.length()), "range object")
	if err != nil {
		return nil, err
	}
	return Int(r.start + int64(i)*r.step), nil
}

// Iterator is a builtin iterator object. Host code can make one with
// NewIterator.
type Iterator struct {
	Base
	src   Value // the iterated object (owned), may be nil
	elems []Value
	i     int
	r     *Range
	cur   int64
	left  int64
	next  func(it *Interp) (Value, bool, error)
	fin   func(it *Interp)
	name  string
	dictV int // 0 keys, 1 values, 2 items (dict iterators)
	// used is the dict's or set's size when iteration began (-1 once a
	// change was reported: the error is sticky, as CPython's di_used).
	used int
}

// Type returns the iterator's class.
func (x *Iterator) Type() *Class { return IteratorClass }

// NewIterator returns an iterator whose next function yields new
// references until ok=false; release (may be nil) runs when the iterator
// dies.
func (it *Interp) NewIterator(next func(it *Interp) (Value, bool, error), release func(it *Interp)) *Iterator {
	x := &Iterator{next: next, fin: release}
	return x
}

func (x *Iterator) dealloc(it *Interp) {
	if x.fin != nil {
		x.fin(it)
	}
	if x.src != nil {
		s := x.src
		x.src = nil
		it.DecRef(s)
	}
}

func (x *Iterator) traverse(visit func(Value)) {
	if x.src != nil {
		visit(x.src)
	}
}

func (x *Iterator) clear(it *Interp) {
	if x.src != nil {
		s := x.src
		x.src = nil
		x.elems = nil
		it.DecRef(s)
	}
}

// Iter returns iter(v) (new reference).
func (it *Interp) Iter(v Value) (Value, error) {
	switch x := v.(type) {
	case *List:
		r := &Iterator{src: IncRef(x), name: "list_iterator"}
		it.newGC(r, true)
		return r, nil
	case *Tuple:
		r := &Iterator{src: IncRef(x), elems: x.elems, name: "tuple_iterator"}
		it.newGC(r, true)
		return r, nil
	case *Range:
		return &Iterator{cur: x.start, left: x.length(), r: x, name: "range_iterator"}, nil
	case *Dict:
		r := &Iterator{src: IncRef(x), name: "dict_keyiterator", used: x.n, left: int64(x.n)}
		it.newGC(r, true)
		return r, nil
	case *Set:
		r := &Iterator{src: IncRef(x), name: "set_iterator", used: x.n}
		it.newGC(r, true)
		return r, nil
	case *DictView:
		r := &Iterator{src: IncRef(x.d), name: "dict_iterator", dictV: x.kind, used: x.d.n, left: int64(x.d.n)}
		it.newGC(r, true)
		return r, nil
	case Str:
		rs := []rune(string(x))
		i := 0
		return &Iterator{name: "str_ascii_iterator", next: func(it *Interp) (Value, bool, error) {
			if i >= len(rs) {
				return nil, false, nil
			}
			i++
			return Str(string(rs[i-1])), true, nil
		}}, nil
	case *Iterator, *Generator:
		return IncRef(v), nil
	case HasIter:
		return x.Iter(it)
	case *Instance:
		if f := x.cls.Lookup("__iter__"); f != nil {
			r, err := it.callMethodValue(f, x, nil, nil)
			if err != nil {
				return nil, err
			}
			if r.Type().Lookup("__next__") == nil {
				if _, ok := r.(*Iterator); !ok {
					if _, ok := r.(*Generator); !ok {
						t := r.Type().Name
						it.DecRef(r)
						return nil, newTypeError("iter() returned non-iterator of type '" + t + "'")
					}
				}
			}
			return r, nil
		}
		if f := x.cls.Lookup("__getitem__"); f != nil {
			i := 0
			src := IncRef(x)
			return &Iterator{src: src, name: "iterator", next: func(it *Interp) (Value, bool, error) {
				r, err := it.callMethodValue(f, src, []Value{Int(i)}, nil)
				if err != nil {
					if e, ok := err.(*Instance); ok && (e.cls.IsSubclass(IndexError) || e.cls.IsSubclass(StopIteration)) {
						it.DecRef(e)
						return nil, false, nil
					}
					return nil, false, err
				}
				i++
				return r, true, nil
			}}, nil
		}
	}
	return nil, newTypeError("'" + v.Type().Name + "' object is not iterable")
}

// Next advances an iterator: (value, true) or (nil, false) at the end.
func (it *Interp) Next(iter Value) (Value, bool, error) {
	switch x := iter.(type) {
	case *Iterator:
		if x.r != nil {
			if x.left <= 0 {
				return nil, false, nil
			}
			v := x.cur
			x.cur += x.r.step
			x.left--
			return Int(v), true, nil
		}
		if x.next != nil {
			return x.next(it)
		}
		switch s := x.src.(type) {
		case *List:
			if x.i < len(s.elems) {
				x.i++
				return IncRef(s.elems[x.i-1]), true, nil
			}
		case *Tuple:
			if x.i < len(s.elems) {
				x.i++
				return IncRef(s.elems[x.i-1]), true, nil
			}
		case *Dict:
			if x.used != s.n {
				x.used = -1
				return nil, false, NewException(RuntimeError, "dictionary changed size during iteration")
			}
			for x.i < len(s.entries) {
				e := s.entries[x.i]
				x.i++
				if e.key == nil {
					continue
				}
				if x.left == 0 {
					x.src = nil
					it.DecRef(s)
					return nil, false, NewException(RuntimeError, "dictionary keys changed during iteration")
				}
				x.left--
				switch x.dictV {
				case 1:
					return IncRef(e.value), true, nil
				case 2:
					return it.NewTuple([]Value{IncRef(e.key), IncRef(e.value)}), true, nil
				}
				return IncRef(e.key), true, nil
			}
		case *Set:
			if x.used != s.n {
				x.used = -1
				return nil, false, NewException(RuntimeError, "Set changed size during iteration")
			}
			if t := s.tbl; t != nil {
				for x.i < len(t.slots) {
					e := t.slots[x.i]
					x.i++
					if e.state == slotActive {
						return IncRef(e.key), true, nil
					}
				}
				break
			}
			for x.i < len(s.entries) {
				e := s.entries[x.i]
				x.i++
				if e.key != nil {
					return IncRef(e.key), true, nil
				}
			}
		}
		if x.src != nil {
			s := x.src
			x.src = nil
			it.DecRef(s)
		}
		return nil, false, nil
	case *Generator:
		return x.next(it)
	case *Instance:
		f := x.cls.Lookup("__next__")
		if f == nil {
			return nil, false, newTypeError("'" + x.cls.Name + "' object is not an iterator")
		}
		r, err := it.callMethodValue(f, x, nil, nil)
		if err != nil {
			if e, ok := err.(*Instance); ok && e.cls.IsSubclass(StopIteration) {
				it.DecRef(e)
				return nil, false, nil
			}
			return nil, false, err
		}
		return r, true, nil
	case HasIter:
		if n, ok := iter.(interface {
			Next(it *Interp) (Value, bool, error)
		}); ok {
			return n.Next(it)
		}
	}
	if n, ok := iter.(interface {
		Next(it *Interp) (Value, bool, error)
	}); ok {
		return n.Next(it)
	}
	return nil, false, newTypeError("'" + iter.Type().Name + "' object is not an iterator")
}

// iterToSlice collects an iterable's items (new references).
func (it *Interp) iterToSlice(v Value) ([]Value, error) {
	switch x := v.(type) {
	case *List:
		out := make([]Value, len(x.elems))
		for i, e := range x.elems {
			out[i] = IncRef(e)
		}
		return out, nil
	case *Tuple:
		out := make([]Value, len(x.elems))
		for i, e := range x.elems {
			out[i] = IncRef(e)
		}
		return out, nil
	}
	iter, err := it.Iter(v)
	if err != nil {
		return nil, err
	}
	var out []Value
	for {
		e, ok, err := it.Next(iter)
		if err != nil {
			it.decRefAll(out)
			it.DecRef(iter)
			return nil, err
		}
		if !ok {
			break
		}
		out = append(out, e)
		if len(out) > it.limits.MaxCollection {
			it.decRefAll(out)
			it.DecRef(iter)
			return nil, it.checkSize(len(out))
		}
	}
	it.DecRef(iter)
	return out, nil
}

// DictView is dict.keys(), values() or items().
type DictView struct {
	Base
	d    *Dict
	kind int
}

// Type returns dict_keys / dict_values / dict_items.
func (v *DictView) Type() *Class { return DictViewClass }

func (v *DictView) dealloc(it *Interp) { it.DecRef(v.d) }
func (v *DictView) traverse(visit func(Value)) {
	visit(v.d)
}
