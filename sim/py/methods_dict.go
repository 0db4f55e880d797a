package py

import "strconv"

// dictMethod adds a dict method that checks its receiver. Not inlined: its
// closure would be copied into every caller (size of the wasm module).
//
//go:noinline
func dictMethod(name string, fn func(it *Interp, d *Dict, args []Value, kw []Kwarg) (Value, error)) {
	DictClass.setMethod(name, func(it *Interp, self Value, args []Value, kw []Kwarg) (Value, error) {
		d, ok := self.(*Dict)
		if !ok {
			return nil, newTypeError("descriptor '" + name + "' requires a 'dict' object")
		}
		return fn(it, d, args, kw)
	})
}

func initDictMethods() {
	dictMethod("get", func(it *Interp, d *Dict, args []Value, kw []Kwarg) (Value, error) {
		if len(args) < 1 || len(args) > 2 {
			return nil, newTypeError("get expected at most 2 arguments, got " + strconv.Itoa(len(args)))
		}
		v, ok, err := d.GetItem(it, args[0])
		if err != nil {
			return nil, err
		}
		if ok {
			return IncRef(v), nil
		}
		if len(args) == 2 {
			return IncRef(args[1]), nil
		}
		return None, nil
	})
	dictMethod("setdefault", func(it *Interp, d *Dict, args []Value, kw []Kwarg) (Value, error) {
		if len(args) < 1 {
			return nil, newTypeError("setdefault expected at least 1 argument, got 0")
		}
		v, ok, err := d.GetItem(it, args[0])
		if err != nil {
			return nil, err
		}
		if ok {
			return IncRef(v), nil
		}
		var def Value = None
		if len(args) > 1 {
			def = args[1]
		}
		if err := d.SetItem(it, args[0], def); err != nil {
			return nil, err
		}
		return IncRef(def), nil
	})
	dictMethod("pop", func(it *Interp, d *Dict, args []Value, kw []Kwarg) (Value, error) {
		if len(args) < 1 || len(args) > 2 {
			return nil, newTypeError("pop expected at most 2 arguments, got " + strconv.Itoa(len(args)))
		}
		i, _, err := it.dictLookup(&d.dictCore, args[0])
		if err != nil {
			return nil, err
		}
		if i < 0 {
			if len(args) == 2 {
				return IncRef(args[1]), nil
			}
			return nil, it.keyError(args[0])
		}
		k, v := d.remove(i)
		it.DecRef(k)
		return v, nil
	})
	dictMethod("popitem", func(it *Interp, d *Dict, args []Value, kw []Kwarg) (Value, error) {
		for i := len(d.entries) - 1; i >= 0; i-- {
			if d.entries[i].key != nil {
				k, v := d.remove(i)
				return it.NewTuple([]Value{k, v}), nil
			}
		}
		return nil, NewException(KeyError, "popitem(): dictionary is empty")
	})
	dictMethod("keys", func(it *Interp, d *Dict, args []Value, kw []Kwarg) (Value, error) {
		return &DictView{d: IncRef(d).(*Dict), kind: 0}, nil
	})
	dictMethod("values", func(it *Interp, d *Dict, args []Value, kw []Kwarg) (Value, error) {
		return &DictView{d: IncRef(d).(*Dict), kind: 1}, nil
	})
	dictMethod("items", func(it *Interp, d *Dict, args []Value, kw []Kwarg) (Value, error) {
		return &DictView{d: IncRef(d).(*Dict), kind: 2}, nil
	})
	dictMethod("update", func(it *Interp, d *Dict, args []Value, kw []Kwarg) (Value, error) {
		if len(args) > 1 {
			return nil, newTypeError("update expected at most 1 argument, got " + strconv.Itoa(len(args)))
		}
		if len(args) == 1 {
			if err := it.dictUpdate(d, args[0], false); err != nil {
				return nil, err
			}
		}
		for _, k := range kw {
			d.SetStr(it, k.Name, k.Value)
		}
		return None, nil
	})
	dictMethod("clear", func(it *Interp, d *Dict, args []Value, kw []Kwarg) (Value, error) {
		d.clear(it)
		return None, nil
	})
	dictMethod("copy", func(it *Interp, d *Dict, args []Value, kw []Kwarg) (Value, error) {
		nd := it.NewDict()
		if err := it.dictUpdate(nd, d, false); err != nil {
			it.DecRef(nd)
			return nil, err
		}
		return nd, nil
	})
	DictClass.setMethod("fromkeys", func(it *Interp, self Value, args []Value, kw []Kwarg) (Value, error) {
		if len(args) < 1 {
			return nil, newTypeError("fromkeys expected at least 1 argument, got 0")
		}
		var v Value = None
		if len(args) > 1 {
			v = args[1]
		}
		keys, err := it.iterToSlice(args[0])
		if err != nil {
			return nil, err
		}
		d := it.NewDict()
		for _, k := range keys {
			if err := d.SetItem(it, k, v); err != nil {
				it.decRefAll(keys)
				it.DecRef(d)
				return nil, err
			}
		}
		it.decRefAll(keys)
		return d, nil
	})
	if m, ok := DictClass.Dict.getStr("fromkeys"); ok {
		cm := &ClassMethod{fn: &Builtin{Name: "fromkeys", Fn: func(it *Interp, args []Value, kw []Kwarg) (Value, error) {
			return m.(*Method).Fn(it, args[0], args[1:], kw)
		}}}
		cm.flags |= flagImmortal
		DictClass.Dict.setStrRaw("fromkeys", cm)
	}
}

// dictUpdate merges a mapping or iterable of pairs into d.
func (it *Interp) dictUpdate(d *Dict, src Value, mappingOnly bool) error {
	switch s := src.(type) {
	case *Dict:
		for i := 0; i < len(s.entries); i++ {
			e := s.entries[i]
			if e.key == nil {
				continue
			}
			if err := d.SetItem(it, e.key, e.value); err != nil {
				return err
			}
		}
		return nil
	case *Instance:
		if f := s.cls.Lookup("keys"); f != nil {
			keys, err := it.callMethodValue(f, s, nil, nil)
			if err != nil {
				return err
			}
			ks, err := it.iterToSlice(keys)
			it.DecRef(keys)
			if err != nil {
				return err
			}
			defer it.decRefAll(ks)
			for _, k := range ks {
				v, err := it.GetItem(s, k)
				if err != nil {
					return err
				}
				err = d.SetItem(it, k, v)
				it.DecRef(v)
				if err != nil {
					return err
				}
			}
			return nil
		}
	}
	if mappingOnly {
		return newTypeError("'" + src.Type().Name + "' object is not a mapping")
	}
	items, err := it.iterToSlice(src)
	if err != nil {
		return err
	}
	defer it.decRefAll(items)
	for i, item := range items {
		kv, err := it.iterToSlice(item)
		if err != nil {
			return newTypeError("cannot convert dictionary update sequence element #" + strconv.Itoa(i) + " to a sequence")
		}
		if len(kv) != 2 {
			it.decRefAll(kv)
			return newValueError("dictionary update sequence element #" + strconv.Itoa(i) + " has length " + strconv.Itoa(len(kv)) + "; 2 is required")
		}
		err = d.SetItem(it, kv[0], kv[1])
		it.decRefAll(kv)
		if err != nil {
			return err
		}
	}
	return nil
}

func (it *Interp) dictEqual(a, b *Dict) (bool, error) {
	if a.n != b.n {
		return false, nil
	}
	for _, e := range a.entries {
		if e.key == nil {
			continue
		}
		v, ok, err := b.GetItem(it, e.key)
		if err != nil || !ok {
			return false, err
		}
		eq, err := it.equal(e.value, v)
		if err != nil || !eq {
			return false, err
		}
	}
	return true, nil
}

func setMethod(name string, fn func(it *Interp, s *Set, args []Value, kw []Kwarg) (Value, error)) {
	f := func(it *Interp, self Value, args []Value, kw []Kwarg) (Value, error) {
		return fn(it, self.(*Set), args, kw)
	}
	SetClass.setMethod(name, f)
	switch name {
	case "union", "intersection", "difference", "symmetric_difference", "issubset", "issuperset", "isdisjoint", "copy":
		FrozenSetClass.setMethod(name, f)
	}
}

func initSetMethods() {
	setMethod("add", func(it *Interp, s *Set, args []Value, kw []Kwarg) (Value, error) {
		if len(args) != 1 {
			return nil, newTypeError("set.add() takes exactly one argument (" + strconv.Itoa(len(args)) + " given)")
		}
		return None, s.Add(it, args[0])
	})
	setMethod("discard", func(it *Interp, s *Set, args []Value, kw []Kwarg) (Value, error) {
		i, _, err := it.dictLookup(&s.dictCore, args[0])
		if err != nil || i < 0 {
			return None, err
		}
		it.DecRef(s.removeAt(i))
		return None, nil
	})
	setMethod("remove", func(it *Interp, s *Set, args []Value, kw []Kwarg) (Value, error) {
		i, _, err := it.dictLookup(&s.dictCore, args[0])
		if err != nil {
			return nil, err
		}
		if i < 0 {
			return nil, it.keyError(args[0])
		}
		it.DecRef(s.removeAt(i))
		return None, nil
	})
	setMethod("pop", func(it *Interp, s *Set, args []Value, kw []Kwarg) (Value, error) {
		if s.n == 0 {
			return nil, NewException(KeyError, "pop from an empty set")
		}
		if s.tbl != nil { // set_pop: from the search finger, in table order
			var key Value
			key, s.finger = s.tbl.pop(s.finger)
			i := it.entryOf(s, key)
			if i < 0 {
				return nil, &InternalError{Msg: "set.pop: element missing from the set's index"}
			}
			k, _ := s.remove(i)
			return k, nil
		}
		for i, e := range s.entries {
			if e.key != nil {
				k, _ := s.remove(i)
				return k, nil
			}
		}
		return nil, NewException(KeyError, "pop from an empty set")
	})
	setMethod("clear", func(it *Interp, s *Set, args []Value, kw []Kwarg) (Value, error) {
		s.clear(it)
		return None, nil
	})
	setMethod("copy", func(it *Interp, s *Set, args []Value, kw []Kwarg) (Value, error) {
		if s.frozen {
			return IncRef(s), nil
		}
		return it.setCopy(s, false)
	})
	setMethod("update", func(it *Interp, s *Set, args []Value, kw []Kwarg) (Value, error) {
		for _, a := range args {
			if err := it.setUpdate(s, a); err != nil {
				return nil, err
			}
		}
		return None, nil
	})
	setMethod("union", func(it *Interp, s *Set, args []Value, kw []Kwarg) (Value, error) {
		r, err := it.setCopy(s, s.frozen)
		if err != nil {
			return nil, err
		}
		for _, a := range args {
			if a == Value(r) {
				continue
			}
			if err := it.setUpdate(r, a); err != nil {
				it.DecRef(r)
				return nil, err
			}
		}
		return r, nil
	})
	setMethod("intersection", func(it *Interp, s *Set, args []Value, kw []Kwarg) (Value, error) {
		if len(args) == 0 {
			return it.setCopy(s, s.frozen)
		}
		r := IncRef(s).(*Set)
		for _, a := range args {
			nr, err := it.setIntersection(r, a)
			it.DecRef(r)
			if err != nil {
				return nil, err
			}
			r = nr
		}
		return r, nil
	})
	setMethod("difference", func(it *Interp, s *Set, args []Value, kw []Kwarg) (Value, error) {
		if len(args) == 0 {
			return it.setCopy(s, s.frozen)
		}
		r, err := it.setDifference(s, args[0])
		if err != nil {
			return nil, err
		}
		for _, a := range args[1:] {
			if err := it.setDifferenceUpdate(r, a); err != nil {
				it.DecRef(r)
				return nil, err
			}
		}
		return r, nil
	})
	setMethod("symmetric_difference", func(it *Interp, s *Set, args []Value, kw []Kwarg) (Value, error) {
		if len(args) != 1 {
			return nil, newTypeError("symmetric_difference() takes exactly one argument (" + strconv.Itoa(len(args)) + " given)")
		}
		return it.setSymmetricDifference(s, args[0])
	})
	setMethod("difference_update", func(it *Interp, s *Set, args []Value, kw []Kwarg) (Value, error) {
		for _, a := range args {
			if err := it.setDifferenceUpdate(s, a); err != nil {
				return nil, err
			}
		}
		return None, nil
	})
	setMethod("intersection_update", func(it *Interp, s *Set, args []Value, kw []Kwarg) (Value, error) {
		for _, a := range args {
			r, err := it.setIntersection(s, a)
			if err != nil {
				return nil, err
			}
			s.swapBodies(r)
			it.DecRef(r)
		}
		return None, nil
	})
	setMethod("symmetric_difference_update", func(it *Interp, s *Set, args []Value, kw []Kwarg) (Value, error) {
		if len(args) != 1 {
			return nil, newTypeError("symmetric_difference_update() takes exactly one argument (" + strconv.Itoa(len(args)) + " given)")
		}
		return None, it.setSymmetricDifferenceUpdate(s, args[0])
	})
	for _, n := range []string{"issubset", "issuperset", "isdisjoint"} {
		name := n
		setMethod(name, func(it *Interp, s *Set, args []Value, kw []Kwarg) (Value, error) {
			vs, err := it.iterToSlice(args[0])
			if err != nil {
				return nil, err
			}
			other, _ := it.setFrom(vs, false)
			it.decRefAll(vs)
			defer it.DecRef(other)
			o := other.(*Set)
			switch name {
			case "issubset":
				r, _, err := it.setCompare(OpLe, s, o)
				return boolOf(r), err
			case "issuperset":
				r, _, err := it.setCompare(OpGe, s, o)
				return boolOf(r), err
			}
			inter, err := it.setBinary(OpAnd, s, o)
			if err != nil {
				return nil, err
			}
			empty := inter.(*Set).n == 0
			it.DecRef(inter)
			return boolOf(empty), nil
		})
	}
}

// setFrom builds a set of vs (borrowed), added in order.
func (it *Interp) setFrom(vs []Value, frozen bool) (Value, error) {
	s := it.newSetOf(frozen)
	for _, v := range vs {
		if err := s.Add(it, v); err != nil {
			it.DecRef(s)
			return nil, err
		}
	}
	return s, nil
}

// setBinary implements the set operators (set_or, set_and, set_sub,
// set_xor); the result has a's type.
func (it *Interp) setBinary(op Op, a, b *Set) (Value, error) {
	var r *Set
	var err error
	switch op {
	case OpOr:
		r, err = it.setUnion(a, b)
	case OpAnd:
		r, err = it.setIntersection(a, b)
	case OpSub:
		r, err = it.setDifference(a, b)
	case OpXor:
		r, err = it.setSymmetricDifference(a, b)
	default:
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return r, nil
}

func (it *Interp) setCompare(op Op, a, b *Set) (bool, bool, error) {
	switch op {
	case OpEq:
		return a.n == b.n && it.setIsSubset(a, b), true, nil
	case OpNe:
		return !(a.n == b.n && it.setIsSubset(a, b)), true, nil
	case OpLe:
		return it.setIsSubset(a, b), true, nil
	case OpLt:
		return a.n < b.n && it.setIsSubset(a, b), true, nil
	case OpGe:
		return it.setIsSubset(b, a), true, nil
	}
	return b.n < a.n && it.setIsSubset(b, a), true, nil
}

// setIsSubset reports whether every element of x is in y (lookup errors
// count as absent). Not inlined: setCompare calls it six times (−15 KB of
// wasm code).
//
//go:noinline
func (it *Interp) setIsSubset(x, y *Set) bool {
	for _, e := range x.elemsList() {
		if ok, _ := y.Contains(it, e); !ok {
			return false
		}
	}
	return true
}

func (it *Interp) setInplace(op Op, s *Set, b Value) (Value, bool, error) {
	o, ok := b.(*Set)
	if !ok {
		return nil, false, nil
	}
	var err error
	switch op {
	case OpOr:
		err = it.setUpdate(s, o)
	case OpAnd:
		var r *Set
		if r, err = it.setIntersection(s, o); err == nil {
			s.swapBodies(r)
			it.DecRef(r)
		}
	case OpSub:
		err = it.setDifferenceUpdate(s, o)
	case OpXor:
		err = it.setSymmetricDifferenceUpdate(s, o)
	default:
		return nil, false, nil
	}
	if err != nil {
		return nil, true, err
	}
	return IncRef(s), true, nil
}
