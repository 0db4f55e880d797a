package py

// NewHostClass makes a host type from spec (see ClassSpec). The class is
// immortal: create it once per Interp (or once per process if it is never
// mutated) and return it from the host values' Type method.
func NewHostClass(spec ClassSpec) *Class {
	base := spec.Base
	if base == nil {
		base = ObjectClass
	}
	c := newBuiltinClass(spec.Name, base)
	c.Module = spec.Module
	c.host = &spec
	c.newFn = spec.New
	c.isExc = base.isExc
	names := make([]string, 0, len(spec.Methods))
	for n := range spec.Methods {
		names = append(names, n)
	}
	sortStrings(names)
	for _, n := range names {
		c.setMethod(n, spec.Methods[n])
	}
	names = names[:0]
	for n := range spec.Props {
		names = append(names, n)
	}
	sortStrings(names)
	for _, n := range names {
		p := spec.Props[n]
		c.setProp(n, p.Get, p.Set)
	}
	names = names[:0]
	for n := range spec.Attrs {
		names = append(names, n)
	}
	sortStrings(names)
	for _, n := range names {
		c.Dict.setStrRaw(n, IncRef(spec.Attrs[n]))
	}
	return c
}
