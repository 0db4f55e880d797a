package py

// Class is a Python type: a builtin type (int, list, ...), a host type
// (torch.Tensor), or a class defined by a script or prelude.
//
// Attribute lookup follows the MRO (C3 linearisation); class attributes live
// in Dict in definition order.
type Class struct {
	Base
	Name   string   // __name__
	Module string   // __module__ ("builtins" for builtin types)
	Bases  []*Class // __bases__
	MRO    []*Class // __mro__, the class itself first
	Dict   *Dict    // __dict__

	builtin     bool       // a builtin or host type: its Dict is read-only
	isExc       bool       // instances are exceptions (derives from BaseException)
	newFn       CallFunc   // constructor of builtin/host types (type(...) call)
	host        *ClassSpec // host type description, nil for others
	hostDeriv   bool       // derives from a host class: instances carry hostBase
	userDefined bool       // created by a class statement
}

// Type returns type: every class is an instance of type.
func (c *Class) Type() *Class { return TypeClass }

// QualName returns the name Python shows for the class in messages:
// "int", "MyModel", "torch.OutOfMemoryError" for a host exception.
func (c *Class) QualName() string { return c.Name }

// fullName returns module.name for non-builtin classes, as exceptions are
// printed in tracebacks ("torch.OutOfMemoryError").
func (c *Class) fullName() string {
	if c.Module == "" || c.Module == "builtins" || c.Module == "__main__" {
		return c.Name
	}
	return c.Module + "." + c.Name
}

// Lookup finds an attribute along the MRO without invoking descriptors.
// It returns a borrowed reference, or nil.
func (c *Class) Lookup(name string) Value {
	for _, k := range c.MRO {
		if k.Dict != nil {
			if v, ok := k.Dict.getStr(name); ok {
				return v
			}
		}
	}
	return nil
}

// IsSubclass reports whether c derives from (or is) base.
func (c *Class) IsSubclass(base *Class) bool {
	if c == base {
		return true
	}
	for _, k := range c.MRO {
		if k == base {
			return true
		}
	}
	return false
}

// computeMRO sets c.MRO by C3 linearisation of the bases.
func (c *Class) computeMRO() error {
	var seqs [][]*Class
	for _, b := range c.Bases {
		seqs = append(seqs, append([]*Class(nil), b.MRO...))
	}
	seqs = append(seqs, append([]*Class(nil), c.Bases...))
	mro := []*Class{c}
	for {
		empty := true
		for _, s := range seqs {
			if len(s) > 0 {
				empty = false
			}
		}
		if empty {
			break
		}
		var cand *Class
	outer:
		for _, s := range seqs {
			if len(s) == 0 {
				continue
			}
			h := s[0]
			for _, t := range seqs {
				for _, x := range t[min(1, len(t)):] {
					if x == h {
						continue outer
					}
				}
			}
			cand = h
			break
		}
		if cand == nil {
			names := ""
			for i, b := range c.Bases {
				if i > 0 {
					names += ", "
				}
				names += b.Name
			}
			return newTypeError("Cannot create a consistent method resolution order (MRO) for bases " + names)
		}
		mro = append(mro, cand)
		for i, s := range seqs {
			if len(s) > 0 && s[0] == cand {
				seqs[i] = s[1:]
			}
		}
	}
	c.MRO = mro
	return nil
}

// newBuiltinClass makes an immortal builtin type. Not inlined: ~80
// package-level variables call it and would each get a copy in the package's
// init (size of the wasm module).
//
//go:noinline
func newBuiltinClass(name string, base *Class) *Class {
	c := &Class{Name: name, Module: "builtins", builtin: true, Dict: newImmortalDict()}
	c.flags |= flagImmortal
	if base != nil {
		c.Bases = []*Class{base}
		c.MRO = append([]*Class{c}, base.MRO...)
		c.isExc = base.isExc
	} else {
		c.MRO = []*Class{c}
	}
	return c
}

// setMethod adds a builtin method to a builtin class. Not inlined: the init
// functions call it hundreds of times (size of the wasm module).
//
//go:noinline
func (c *Class) setMethod(name string, fn MethodFunc) {
	m := &Method{Name: name, Fn: fn, Owner: c}
	m.flags |= flagImmortal
	c.Dict.setStrRaw(name, m)
}

// setProp adds a read-only (or writable when set != nil) Go property. Not
// inlined, as setMethod.
//
//go:noinline
func (c *Class) setProp(name string, get func(th *Interp, self Value) (Value, error), set func(th *Interp, self, v Value) error) {
	p := &GoProperty{Name: name, Get: get, Set: set}
	p.flags |= flagImmortal
	c.Dict.setStrRaw(name, p)
}
