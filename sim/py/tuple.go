package py

// Tuple is a Python tuple.
type Tuple struct {
	Base
	elems []Value
}

// Type returns tuple.
func (*Tuple) Type() *Class { return TupleClass }

var emptyTuple = func() *Tuple { t := &Tuple{}; t.flags |= flagImmortal; return t }()

// NewTuple returns a new tuple of elems, taking over the references in elems
// (they are not IncRef'd). The slice is retained.
func (it *Interp) NewTuple(elems []Value) *Tuple {
	if len(elems) == 0 {
		return emptyTuple
	}
	t := &Tuple{elems: elems}
	it.newGC(t, true)
	return t
}

// Elems returns the tuple's items (borrowed).
func (t *Tuple) Elems() []Value { return t.elems }

// Len returns the number of items.
func (t *Tuple) Len() int { return len(t.elems) }

// dealloc releases the items from the last to the first (tupledealloc).
func (t *Tuple) dealloc(it *Interp) {
	e := t.elems
	t.elems = nil
	for i := len(e) - 1; i >= 0; i-- {
		it.DecRef(e[i])
	}
}

func (t *Tuple) traverse(visit func(Value)) {
	for _, v := range t.elems {
		visit(v)
	}
}

// List is a Python list.
type List struct {
	Base
	elems []Value
}

// Type returns list.
func (*List) Type() *Class { return ListClass }

// NewList returns a new list taking over the references in elems.
func (it *Interp) NewList(elems []Value) *List {
	l := &List{elems: elems}
	it.newGC(l, true)
	return l
}

// Elems returns the list's items (borrowed; do not keep the slice).
func (l *List) Elems() []Value { return l.elems }

// Append adds v (borrowed) to the list.
func (l *List) Append(v Value) { l.elems = append(l.elems, IncRef(v)) }

// dealloc releases the items from the last to the first (list_dealloc).
func (l *List) dealloc(it *Interp) {
	e := l.elems
	l.elems = nil
	for i := len(e) - 1; i >= 0; i-- {
		it.DecRef(e[i])
	}
}

func (l *List) traverse(visit func(Value)) {
	for _, v := range l.elems {
		visit(v)
	}
}

// clear empties the list, releasing items last to first (_list_clear).
func (l *List) clear(it *Interp) {
	e := l.elems
	l.elems = nil
	for i := len(e) - 1; i >= 0; i-- {
		it.DecRef(e[i])
	}
}

// Cell is a closure cell holding one variable.
type Cell struct {
	Base
	v Value // nil when empty
}

// Type returns cell.
func (*Cell) Type() *Class { return CellClass }

func (c *Cell) dealloc(it *Interp) {
	v := c.v
	c.v = nil
	if v != nil {
		it.DecRef(v)
	}
}

func (c *Cell) traverse(visit func(Value)) {
	if c.v != nil {
		visit(c.v)
	}
}

func (c *Cell) clear(it *Interp) { c.dealloc(it) }
