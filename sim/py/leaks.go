package py

// Leaks runs a full collection and reports tracked objects that are still
// alive but unreachable from the imported modules: references some code
// took and never released (a reference-counting bug in the interpreter or
// in host code). Call it after ExecScript, in tests; objects that are not
// tracked by the collector (atoms, untracked host objects) are not seen.
func (it *Interp) Leaks() []string {
	it.Collect(2)
	reach := map[Object]bool{}
	var stack []Object
	push := func(v Value) {
		if o, ok := v.(Object); ok && !reach[o] {
			reach[o] = true
			stack = append(stack, o)
		}
	}
	for _, m := range it.modules {
		push(m)
	}
	for _, h := range it.handled {
		push(h)
	}
	if it.env != nil {
		push(it.env)
	}
	for len(stack) > 0 {
		o := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		traverse(o, push)
	}
	var out []string
	for g := range it.gc.gens {
		for o := it.gc.gens[g].head; o != nil; o = o.base().next {
			if !reach[o] {
				s, err := it.Repr(o)
				if err != nil {
					s = "<" + o.Type().Name + ">"
				}
				out = append(out, o.Type().Name+" "+s)
			}
		}
	}
	return out
}
