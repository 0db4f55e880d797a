package py

// DecRef drops a reference to v. When the count reaches zero the object is
// deallocated at once, as CPython does: its finalizer (__del__ or the host's
// Finalize) runs, then the references it holds are dropped in the order of
// the corresponding CPython type's tp_dealloc.
func (it *Interp) DecRef(v Value) {
	o, ok := v.(Object)
	if !ok {
		return
	}
	b := o.base()
	if b.flags&flagImmortal != 0 {
		return
	}
	if b.extra > 0 {
		b.extra--
		return
	}
	if b.flags&flagDead != 0 {
		return
	}
	it.dealloc(o)
}

// decRefAll drops references to vs in order.
func (it *Interp) decRefAll(vs []Value) {
	for _, v := range vs {
		it.DecRef(v)
	}
}

// popAll drops references to vs last to first: how CPython pops pending
// values off its stack when an exception unwinds, and how a list or tuple
// releases its items.
func (it *Interp) popAll(vs []Value) {
	for i := len(vs) - 1; i >= 0; i-- {
		it.DecRef(vs[i])
	}
}

// deallocer is implemented by the interpreter's own object types.
type deallocer interface {
	dealloc(it *Interp)
}

// finalizable is implemented by objects with a Python-level finalizer
// (instances whose class defines __del__).
type finalizable interface {
	pyFinalize(it *Interp)
}

// dealloc destroys o, whose count just reached zero.
func (it *Interp) dealloc(o Object) {
	b := o.base()
	// PEP 442: run the finalizer once, with the object temporarily alive.
	if f, ok := o.(finalizable); ok && b.flags&flagFinalized == 0 {
		b.flags |= flagFinalized
		b.extra = 0 // resurrect with one reference during __del__
		f.pyFinalize(it)
		if b.extra > 0 { // resurrected
			b.extra--
			return
		}
	}
	if it.deallocDepth > 1000 {
		// Like CPython's trashcan: defer deep chains to keep the Go stack small.
		b.flags |= flagDead
		it.trash = append(it.trash, o)
		return
	}
	b.flags |= flagDead
	if b.flags&flagTracked != 0 {
		it.untrack(o)
	}
	if b.flags&flagGCType != 0 && it.gc.count[0] > 0 {
		it.gc.count[0]--
	}
	it.deallocDepth++
	switch x := o.(type) {
	case deallocer:
		x.dealloc(it)
	case Finalizer:
		x.Finalize(it)
	}
	it.deallocDepth--
	if it.deallocDepth == 0 && len(it.trash) > 0 {
		it.drainTrash()
	}
}

func (it *Interp) drainTrash() {
	for len(it.trash) > 0 {
		o := it.trash[len(it.trash)-1]
		it.trash = it.trash[:len(it.trash)-1]
		b := o.base()
		if b.flags&flagTracked != 0 {
			it.untrack(o)
		}
		if b.flags&flagGCType != 0 && it.gc.count[0] > 0 {
			it.gc.count[0]--
		}
		it.deallocDepth++
		switch x := o.(type) {
		case deallocer:
			x.dealloc(it)
		case Finalizer:
			x.Finalize(it)
		}
		it.deallocDepth--
	}
}

// Track registers a new container object with the cyclic collector: it joins
// the youngest generation and counts as one allocation towards gc's
// threshold (as CPython's _PyObject_GC_Link). Call it once, right after
// building a host object that holds Python values (and implements
// Traverser).
func (it *Interp) Track(o Object) {
	b := o.base()
	if b.flags&(flagTracked|flagImmortal) != 0 {
		return
	}
	if b.flags&flagGCType == 0 {
		b.flags |= flagGCType
		it.gc.count[0]++
		if it.gc.enabled && it.gc.count[0] > it.gc.threshold[0] {
			it.gc.pending = true
		}
	}
	b.flags |= flagTracked
	it.link(o, 0)
}

// newGC registers a freshly allocated GC-type object that is not tracked
// yet (CPython counts the allocation; dicts and tuples start untracked).
func (it *Interp) newGC(o Object, track bool) {
	b := o.base()
	b.flags |= flagGCType
	it.gc.count[0]++
	if it.gc.enabled && it.gc.count[0] > it.gc.threshold[0] {
		it.gc.pending = true
	}
	if track {
		b.flags |= flagTracked
		it.link(o, 0)
	}
}

// maybeTrack tracks an object that was allocated untracked (a dict getting
// its first container value).
func (it *Interp) maybeTrack(o Object) {
	b := o.base()
	if b.flags&(flagTracked|flagImmortal) != 0 || b.flags&flagGCType == 0 {
		return
	}
	b.flags |= flagTracked
	it.link(o, 0)
}

// link appends o to generation g's list.
func (it *Interp) link(o Object, g int) {
	l := &it.gc.gens[g]
	b := o.base()
	b.gen = int8(g)
	b.next = nil
	b.prev = l.tail
	if l.tail != nil {
		l.tail.base().next = o
	} else {
		l.head = o
	}
	l.tail = o
}

// untrack removes o from its generation list.
func (it *Interp) untrack(o Object) {
	b := o.base()
	l := &it.gc.gens[b.gen]
	if b.prev != nil {
		b.prev.base().next = b.next
	} else {
		l.head = b.next
	}
	if b.next != nil {
		b.next.base().prev = b.prev
	} else {
		l.tail = b.prev
	}
	b.prev, b.next = nil, nil
	b.flags &^= flagTracked
}

// isContainerValue reports whether v may take part in reference cycles (a
// dict holding only atoms stays untracked, as CPython's MAINTAIN_TRACKING).
func isContainerValue(v Value) bool {
	o, ok := v.(Object)
	if !ok {
		return false
	}
	return o.base().flags&flagImmortal == 0
}
