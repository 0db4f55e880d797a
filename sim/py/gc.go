package py

// gcList is one generation's list of tracked objects, in tracking order.
type gcList struct {
	head, tail Object
}

// gcState models CPython 3.12's generational collector: three generations
// with thresholds (700, 10, 10). count[0] counts allocations minus
// deallocations of GC-type objects; when it passes threshold[0] a
// collection is scheduled and runs at the next statement boundary or loop
// iteration (CPython 3.12 runs it at the next eval-breaker check).
// count[1] counts young collections, count[2] middle ones.
type gcState struct {
	gens      [3]gcList
	count     [3]int
	threshold [3]int
	enabled   bool
	pending   bool
	running   bool
	collected [3]int64
	loading   int // modules being loaded (loadModule): no automatic collection
}

func newGCState() gcState {
	return gcState{threshold: [3]int{700, 10, 10}, enabled: true}
}

// collectAuto runs the scheduled automatic collection.
func (it *Interp) collectAuto() {
	it.gc.pending = false
	if !it.gc.enabled || it.gc.running || it.gc.loading > 0 {
		return
	}
	gen := 0
	for i := 2; i > 0; i-- {
		if it.gc.count[i] > it.gc.threshold[i] {
			gen = i
			break
		}
	}
	if it.gc.count[0] <= it.gc.threshold[0] && gen == 0 {
		return
	}
	it.Collect(gen)
}

// Collect runs the cyclic collector on generations 0..gen and returns the
// number of unreachable objects found (gc.collect()).
func (it *Interp) Collect(gen int) int {
	if it.gc.running {
		return 0
	}
	it.gc.running = true
	defer func() { it.gc.running = false }()
	if gen+1 < 3 {
		it.gc.count[gen+1]++
	}
	for i := 0; i <= gen; i++ {
		it.gc.count[i] = 0
	}
	// Merge younger generations into gen.
	for i := 0; i < gen; i++ {
		l := &it.gc.gens[i]
		for o := l.head; o != nil; {
			next := o.base().next
			it.untrack(o)
			o.base().flags |= flagTracked
			it.link(o, gen)
			o = next
		}
	}
	young := &it.gc.gens[gen]
	var objs []Object
	for o := young.head; o != nil; o = o.base().next {
		objs = append(objs, o)
	}
	// update_refs / subtract_refs
	inSet := make(map[Object]bool, len(objs))
	for _, o := range objs {
		b := o.base()
		b.gcRefs = b.extra + 1
		inSet[o] = true
	}
	for _, o := range objs {
		traverse(o, func(v Value) {
			if c, ok := v.(Object); ok && inSet[c] {
				c.base().gcRefs--
			}
		})
	}
	// move_unreachable: everything reachable from objects with external refs.
	reach := make(map[Object]bool, len(objs))
	var stack []Object
	for _, o := range objs {
		if o.base().gcRefs > 0 {
			reach[o] = true
			stack = append(stack, o)
		}
	}
	for len(stack) > 0 {
		o := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		traverse(o, func(v Value) {
			if c, ok := v.(Object); ok && inSet[c] && !reach[c] {
				reach[c] = true
				stack = append(stack, c)
			}
		})
	}
	var unreachable []Object
	for _, o := range objs {
		if !reach[o] {
			unreachable = append(unreachable, o)
		}
	}
	// Survivors move to the next generation.
	if gen < 2 {
		for _, o := range objs {
			if reach[o] {
				it.untrack(o)
				o.base().flags |= flagTracked
				it.link(o, gen+1)
			}
		}
	}
	if len(unreachable) == 0 {
		return 0
	}
	// Keep the garbage alive while we work on it.
	for _, o := range unreachable {
		o.base().extra++
	}
	// PEP 442: finalizers first, in list order.
	for _, o := range unreachable {
		b := o.base()
		if b.flags&flagFinalized != 0 || b.flags&flagDead != 0 {
			continue
		}
		if f, ok := o.(finalizable); ok {
			if inst, ok := o.(*Instance); ok && inst.cls.Lookup("__del__") == nil {
				continue
			}
			b.flags |= flagFinalized
			f.pyFinalize(it)
		}
	}
	// Resurrection check: anything now referenced from outside survives.
	for _, o := range unreachable {
		b := o.base()
		b.gcRefs = b.extra // minus our own reference
	}
	uSet := make(map[Object]bool, len(unreachable))
	for _, o := range unreachable {
		uSet[o] = true
	}
	for _, o := range unreachable {
		traverse(o, func(v Value) {
			if c, ok := v.(Object); ok && uSet[c] {
				c.base().gcRefs--
			}
		})
	}
	resurrected := map[Object]bool{}
	for _, o := range unreachable {
		if o.base().gcRefs > 0 {
			resurrected[o] = true
			stack = append(stack, o)
		}
	}
	for len(stack) > 0 {
		o := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		traverse(o, func(v Value) {
			if c, ok := v.(Object); ok && uSet[c] && !resurrected[c] {
				resurrected[c] = true
				stack = append(stack, c)
			}
		})
	}
	// delete_garbage: tp_clear in list order.
	n := 0
	for _, o := range unreachable {
		b := o.base()
		if resurrected[o] || b.flags&flagDead != 0 {
			continue
		}
		n++
		if c, ok := o.(interface{ clear(*Interp) }); ok {
			c.clear(it)
		} else if t, ok := o.(Traverser); ok {
			t.Clear(it)
		}
	}
	for _, o := range unreachable {
		it.DecRef(o)
	}
	it.gc.collected[gen] += int64(n)
	return n
}

// traverse visits the values o holds (tp_traverse).
func traverse(o Object, visit func(Value)) {
	switch x := o.(type) {
	case interface{ traverse(func(Value)) }:
		x.traverse(visit)
	case Traverser:
		x.Traverse(visit)
	}
}
