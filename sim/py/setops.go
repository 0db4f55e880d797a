package py

// Set operations with setobject.c's algorithms, so that results are built
// by the same sequence of table operations as CPython's (settable.go) and
// iterate in the same order.

// newSetOf returns a new empty set, frozen like proto
// (make_new_set_basetype).
func (it *Interp) newSetOf(frozen bool) *Set {
	s := it.NewSet()
	s.frozen = frozen
	return s
}

// addKnown is set_add_entry for key (borrowed) whose hashKey is hk: no
// Python __hash__ runs again; equal custom hashes are compared with __eq__.
func (it *Interp) addKnown(s *Set, key Value, hk any) error {
	i, err := it.lookupKnown(&s.dictCore, key, hk)
	if err != nil || i >= 0 {
		return err
	}
	if err := it.checkSize(s.n + 1); err != nil {
		return err
	}
	s.insertNew(hk, IncRef(key), nil)
	s.tblAdd(key, hk)
	return nil
}

// lookupKnown is dictLookup with the key's hashKey already computed.
func (it *Interp) lookupKnown(d *dictCore, key Value, hk any) (int, error) {
	if _, custom := hk.(customKey); !custom {
		if i, ok := d.index[hk]; ok {
			return int(i), nil
		}
		return -1, nil
	}
	for i := range d.entries {
		e := &d.entries[i]
		if e.key == nil || e.hk != hk {
			continue
		}
		if e.key == key {
			return i, nil
		}
		eq, err := it.equal(e.key, key)
		if err != nil {
			return -1, err
		}
		if eq {
			return i, nil
		}
	}
	return -1, nil
}

// setEntries returns the elements of s with their hash keys, in iteration
// order.
func (it *Interp) setEntries(s *Set) []dictEntry {
	if s.tbl == nil {
		out := make([]dictEntry, 0, s.n)
		for _, e := range s.entries {
			if e.key != nil {
				out = append(out, e)
			}
		}
		return out
	}
	out := make([]dictEntry, 0, s.n)
	for _, k := range s.tbl.keys() {
		if i := it.entryOf(s, k); i >= 0 {
			out = append(out, s.entries[i])
		}
	}
	return out
}

// setMerge is set_merge: add the elements of o to s.
func (it *Interp) setMerge(s, o *Set) error {
	if s == o || o.n == 0 {
		return nil
	}
	if !s.unordered && o.tbl != nil {
		if s.tbl == nil {
			s.tbl = newSetTable()
		}
		t, ot := s.tbl, o.tbl
		if (t.fill+ot.used)*5 >= int(t.mask())*3 {
			t.resize((t.used + ot.used) * 2)
		}
		if t.fill == 0 {
			if err := it.checkSize(o.n); err != nil {
				return err
			}
			if t.mask() == ot.mask() && ot.fill == ot.used {
				copy(t.slots, ot.slots) // same size, no dummies: copy the table
				t.fill = ot.fill
			} else {
				for _, e := range ot.slots {
					if e.state == slotActive {
						insertClean(t.slots, e.key, e.hash)
					}
				}
				t.fill = ot.used
			}
			t.used = ot.used
			for _, e := range o.entries {
				if e.key != nil {
					s.insertNew(e.hk, IncRef(e.key), nil)
				}
			}
			return nil
		}
	}
	for _, e := range it.setEntries(o) {
		if err := it.addKnown(s, e.key, e.hk); err != nil {
			return err
		}
	}
	return nil
}

// setUpdate is set_update_internal: add the elements of an iterable.
func (it *Interp) setUpdate(s *Set, other Value) error {
	switch o := other.(type) {
	case *Set:
		return it.setMerge(s, o)
	case *Dict:
		if o.cls == nil {
			if !s.unordered {
				if s.tbl == nil {
					s.tbl = newSetTable()
				}
				if t := s.tbl; (t.fill+o.n)*5 >= int(t.mask())*3 {
					t.resize((t.used + o.n) * 2)
				}
			}
			for i := 0; i < len(o.entries); i++ {
				e := o.entries[i]
				if e.key == nil {
					continue
				}
				if err := it.addKnown(s, e.key, e.hk); err != nil {
					return err
				}
			}
			return nil
		}
	}
	iter, err := it.Iter(other)
	if err != nil {
		return err
	}
	defer it.DecRef(iter)
	for {
		v, ok, err := it.Next(iter)
		if err != nil || !ok {
			return err
		}
		err = s.Add(it, v)
		it.DecRef(v)
		if err != nil {
			return err
		}
	}
}

// setCopy is set_copy (a new set or frozenset with s's elements).
func (it *Interp) setCopy(s *Set, frozen bool) (*Set, error) {
	r := it.newSetOf(frozen)
	if err := it.setMerge(r, s); err != nil {
		it.DecRef(r)
		return nil, err
	}
	return r, nil
}

// setFromIterable is set(x) / frozenset(x).
func (it *Interp) setFromIterable(x Value, frozen bool) (*Set, error) {
	r := it.newSetOf(frozen)
	if err := it.setUpdate(r, x); err != nil {
		it.DecRef(r)
		return nil, err
	}
	return r, nil
}

// setDiscardKnown is set_discard_entry: it reports whether key was there.
func (it *Interp) setDiscardKnown(s *Set, key Value, hk any) (bool, error) {
	i, err := it.lookupKnown(&s.dictCore, key, hk)
	if err != nil || i < 0 {
		return false, err
	}
	it.DecRef(s.removeAt(i))
	return true, nil
}

// setIntersection is set_intersection.
func (it *Interp) setIntersection(s *Set, other Value) (*Set, error) {
	if Value(s) == other {
		return it.setCopy(s, s.frozen)
	}
	r := it.newSetOf(s.frozen)
	fail := func(err error) (*Set, error) {
		it.DecRef(r)
		return nil, err
	}
	if o, ok := other.(*Set); ok {
		so, iter := s, o
		if o.n > s.n {
			so, iter = o, s
		}
		for _, e := range it.setEntries(iter) {
			i, err := it.lookupKnown(&so.dictCore, e.key, e.hk)
			if err != nil {
				return fail(err)
			}
			if i >= 0 {
				if err := it.addKnown(r, e.key, e.hk); err != nil {
					return fail(err)
				}
			}
		}
		return r, nil
	}
	iter, err := it.Iter(other)
	if err != nil {
		return fail(err)
	}
	defer it.DecRef(iter)
	for {
		v, ok, err := it.Next(iter)
		if err != nil {
			return fail(err)
		}
		if !ok {
			return r, nil
		}
		hk, _, err := it.hashKey(v)
		if err == nil {
			var i int
			if i, err = it.lookupKnown(&s.dictCore, v, hk); err == nil && i >= 0 {
				err = it.addKnown(r, v, hk)
			}
		}
		it.DecRef(v)
		if err != nil {
			return fail(err)
		}
		if r.n >= s.n {
			return r, nil
		}
	}
}

// setDifferenceUpdate is set_difference_update_internal.
func (it *Interp) setDifferenceUpdate(s *Set, other Value) error {
	if Value(s) == other {
		s.clear(it)
		return nil
	}
	if o, ok := other.(*Set); ok {
		src := o
		if o.n>>3 > s.n {
			in, err := it.setIntersection(s, o)
			if err != nil {
				return err
			}
			defer it.DecRef(in)
			src = in
		}
		for _, e := range it.setEntries(src) {
			if _, err := it.setDiscardKnown(s, e.key, e.hk); err != nil {
				return err
			}
		}
	} else {
		iter, err := it.Iter(other)
		if err != nil {
			return err
		}
		defer it.DecRef(iter)
		for {
			v, ok, err := it.Next(iter)
			if err != nil {
				return err
			}
			if !ok {
				break
			}
			hk, _, err := it.hashKey(v)
			if err == nil {
				_, err = it.setDiscardKnown(s, v, hk)
			}
			it.DecRef(v)
			if err != nil {
				return err
			}
		}
	}
	// More than a quarter dummies: resize them away.
	if t := s.tbl; t != nil && uint64(t.fill-t.used) > t.mask()/4 {
		if t.used > 50000 {
			t.resize(t.used * 2)
		} else {
			t.resize(t.used * 4)
		}
	}
	return nil
}

// setDifference is set_difference.
func (it *Interp) setDifference(s *Set, other Value) (*Set, error) {
	var otherLen int
	switch o := other.(type) {
	case *Set:
		otherLen = o.n
	case *Dict:
		if o.cls != nil {
			return it.setCopyAndDifference(s, other)
		}
		otherLen = o.n
	default:
		return it.setCopyAndDifference(s, other)
	}
	if s.n>>2 > otherLen {
		return it.setCopyAndDifference(s, other)
	}
	r := it.newSetOf(s.frozen)
	for _, e := range it.setEntries(s) {
		var i int
		var err error
		switch o := other.(type) {
		case *Set:
			i, err = it.lookupKnown(&o.dictCore, e.key, e.hk)
		case *Dict:
			i, err = it.lookupKnown(&o.dictCore, e.key, e.hk)
		}
		if err == nil && i < 0 {
			err = it.addKnown(r, e.key, e.hk)
		}
		if err != nil {
			it.DecRef(r)
			return nil, err
		}
	}
	return r, nil
}

// setCopyAndDifference is set_copy_and_difference.
func (it *Interp) setCopyAndDifference(s *Set, other Value) (*Set, error) {
	r, err := it.setCopy(s, s.frozen)
	if err != nil {
		return nil, err
	}
	if err := it.setDifferenceUpdate(r, other); err != nil {
		it.DecRef(r)
		return nil, err
	}
	return r, nil
}

// setSymmetricDifferenceUpdate is set_symmetric_difference_update.
func (it *Interp) setSymmetricDifferenceUpdate(s *Set, other Value) error {
	if Value(s) == other {
		s.clear(it)
		return nil
	}
	var es []dictEntry
	if o, ok := other.(*Set); ok {
		es = it.setEntries(o)
	} else if d, ok := other.(*Dict); ok && d.cls == nil {
		for _, e := range d.entries {
			if e.key != nil {
				es = append(es, e)
			}
		}
	} else {
		tmp, err := it.setFromIterable(other, s.frozen)
		if err != nil {
			return err
		}
		defer it.DecRef(tmp)
		es = it.setEntries(tmp)
	}
	for _, e := range es {
		found, err := it.setDiscardKnown(s, e.key, e.hk)
		if err == nil && !found {
			err = it.addKnown(s, e.key, e.hk)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// setSymmetricDifference is set_symmetric_difference.
func (it *Interp) setSymmetricDifference(s *Set, other Value) (*Set, error) {
	r, err := it.setFromIterable(other, s.frozen)
	if err != nil {
		return nil, err
	}
	if err := it.setSymmetricDifferenceUpdate(r, s); err != nil {
		it.DecRef(r)
		return nil, err
	}
	return r, nil
}

// setUnion is set_or / set.union: a copy of s updated with other.
func (it *Interp) setUnion(s *Set, other Value) (*Set, error) {
	r, err := it.setCopy(s, s.frozen)
	if err != nil {
		return nil, err
	}
	if Value(s) == other {
		return r, nil
	}
	if err := it.setUpdate(r, other); err != nil {
		it.DecRef(r)
		return nil, err
	}
	return r, nil
}

// swapBodies is set_swap_bodies: s takes over r's contents.
func (s *Set) swapBodies(r *Set) {
	s.dictCore, r.dictCore = r.dictCore, s.dictCore
	s.tbl, r.tbl = r.tbl, s.tbl
	s.unordered, r.unordered = r.unordered, s.unordered
}
