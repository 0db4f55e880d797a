package pybind

import (
	"strings"
	"sync"

	"github.com/gpumem/playground/sim/py"
	"github.com/gpumem/playground/sim/torch"
)

// ReturnTypeObj is a torch.return_types.NAME structseq (torch.max(x, dim)
// gives torch.return_types.max(values=..., indices=...)): a fixed-length
// sequence whose items are also named attributes. It owns its items.
type ReturnTypeObj struct {
	py.Base
	name   string
	fields []string
	items  []py.Value
}

var returnTypeClasses sync.Map // name → *py.Class (immutable, shared by runs)

// Type is the class torch.return_types.NAME.
func (o *ReturnTypeObj) Type() *py.Class {
	if c, ok := returnTypeClasses.Load(o.name); ok {
		return c.(*py.Class)
	}
	c, _ := returnTypeClasses.LoadOrStore(o.name, py.NewHostClass(py.ClassSpec{Name: o.name, Module: "torch.return_types"}))
	return c.(*py.Class)
}

// wrapReturnType makes torch.return_types.name from tensors (new
// references, taken over) named by fields.
func (h *Host) wrapReturnType(name string, fields []string, ts []*torch.Tensor) py.Value {
	o := &ReturnTypeObj{name: name, fields: fields, items: make([]py.Value, len(ts))}
	for i, t := range ts {
		o.items[i] = h.wrap(t)
	}
	return o
}

// Len is len(r).
func (o *ReturnTypeObj) Len(it *py.Interp) (int, error) { return len(o.items), nil }

// GetItem is r[i] (negative indices count from the end).
func (o *ReturnTypeObj) GetItem(it *py.Interp, key py.Value) (py.Value, error) {
	i, ok := key.(py.Int)
	if !ok {
		return nil, typeErr("tuple indices must be integers, not %s", typeName(key))
	}
	n := py.Int(len(o.items))
	if i < 0 {
		i += n
	}
	if i < 0 || i >= n {
		return nil, py.NewException(py.IndexError, "tuple index out of range")
	}
	return py.IncRef(o.items[i]), nil
}

// Iter iterates over the items (tuple unpacking: vals, idx = x.max(0)).
func (o *ReturnTypeObj) Iter(it *py.Interp) (py.Value, error) {
	py.IncRef(o)
	i := 0
	return it.NewIterator(func(it *py.Interp) (py.Value, bool, error) {
		if i >= len(o.items) {
			return nil, false, nil
		}
		i++
		return py.IncRef(o.items[i-1]), true, nil
	}, func(it *py.Interp) { it.DecRef(o) }), nil
}

// Attr is r.values / r.indices.
func (o *ReturnTypeObj) Attr(it *py.Interp, name string) (py.Value, bool, error) {
	for i, f := range o.fields {
		if f == name {
			return py.IncRef(o.items[i]), true, nil
		}
	}
	return nil, false, nil
}

// Repr is "torch.return_types.max(\nvalues=...,\nindices=...)" as PyTorch
// prints it.
func (o *ReturnTypeObj) Repr(it *py.Interp) (string, error) {
	parts := make([]string, len(o.items))
	for i, v := range o.items {
		s, err := it.Repr(v)
		if err != nil {
			return "", err
		}
		parts[i] = o.fields[i] + "=" + s
	}
	return "torch.return_types." + o.name + "(\n" + strings.Join(parts, ",\n") + ")", nil
}

// Finalize drops the items, in order.
func (o *ReturnTypeObj) Finalize(it *py.Interp) {
	items := o.items
	o.items = nil
	for _, v := range items {
		it.DecRef(v)
	}
}
