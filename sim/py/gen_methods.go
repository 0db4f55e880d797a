package py

import "strconv"

// initGeneratorMethods defines the generator type's methods and attributes.
func initGeneratorMethods() {
	GeneratorClass.setMethod("__iter__", func(it *Interp, self Value, args []Value, kw []Kwarg) (Value, error) {
		return IncRef(self), nil
	})
	GeneratorClass.setMethod("__next__", func(it *Interp, self Value, args []Value, kw []Kwarg) (Value, error) {
		if len(args) != 0 || len(kw) != 0 {
			return nil, newTypeError("expected 0 arguments, got " + strconv.Itoa(len(args)+len(kw)))
		}
		return self.(*Generator).sendMethod(it, None, nil)
	})
	GeneratorClass.setMethod("send", func(it *Interp, self Value, args []Value, kw []Kwarg) (Value, error) {
		if len(kw) != 0 {
			return nil, newTypeError("generator.send() takes no keyword arguments")
		}
		if len(args) != 1 {
			return nil, newTypeError("generator.send() takes exactly one argument (" + strconv.Itoa(len(args)) + " given)")
		}
		return self.(*Generator).sendMethod(it, args[0], nil)
	})
	GeneratorClass.setMethod("throw", func(it *Interp, self Value, args []Value, kw []Kwarg) (Value, error) {
		if len(kw) != 0 {
			return nil, newTypeError("generator.throw() takes no keyword arguments")
		}
		if len(args) < 1 || len(args) > 3 {
			return nil, newTypeError("throw expected at least 1 argument, got " + strconv.Itoa(len(args)))
		}
		exc, err := it.throwArg(args)
		if err != nil {
			return nil, err
		}
		return self.(*Generator).sendMethod(it, None, exc)
	})
	GeneratorClass.setMethod("close", func(it *Interp, self Value, args []Value, kw []Kwarg) (Value, error) {
		if len(args) != 0 || len(kw) != 0 {
			return nil, newTypeError("generator.close() takes no arguments (" + strconv.Itoa(len(args)+len(kw)) + " given)")
		}
		g := self.(*Generator)
		if g.body == nil {
			if g.running {
				return nil, newValueError("generator already executing")
			}
			g.finish(it)
			return None, nil
		}
		if err := g.close(it); err != nil {
			return nil, err
		}
		return None, nil
	})
	GeneratorClass.setProp("gi_running", func(it *Interp, self Value) (Value, error) {
		return boolOf(self.(*Generator).running), nil
	}, nil)
	GeneratorClass.setProp("gi_suspended", func(it *Interp, self Value) (Value, error) {
		g := self.(*Generator)
		return boolOf(g.body != nil && g.body.started && !g.done && !g.running), nil
	}, nil)
	GeneratorClass.setProp("gi_yieldfrom", func(it *Interp, self Value) (Value, error) {
		if b := self.(*Generator).body; b != nil && b.yf != nil {
			return IncRef(b.yf), nil
		}
		return None, nil
	}, nil)
	GeneratorClass.setProp("__name__", func(it *Interp, self Value) (Value, error) {
		q := self.(*Generator).qual
		for i := len(q) - 1; i >= 0; i-- {
			if q[i] == '.' {
				return Str(q[i+1:]), nil
			}
		}
		return Str(q), nil
	}, nil)
	GeneratorClass.setProp("__qualname__", func(it *Interp, self Value) (Value, error) {
		return Str(self.(*Generator).qual), nil
	}, nil)
}

// sendMethod is send(), throw() and __next__: the value yielded, or the
// return value raised as StopIteration. exc is owned.
func (g *Generator) sendMethod(it *Interp, arg Value, exc error) (Value, error) {
	if g.body == nil {
		return g.exprSend(it, arg, exc)
	}
	v, yielded, err := g.send(it, arg, exc)
	if err != nil || yielded {
		return v, err
	}
	return nil, stopIteration(v)
}

// exprSend is send() and throw() on a generator expression, whose yields
// discard the value sent and do not catch what is thrown.
func (g *Generator) exprSend(it *Interp, arg Value, exc error) (Value, error) {
	if exc != nil {
		if g.running {
			releaseErr(it, exc)
			return nil, newValueError("generator already executing")
		}
		g.finish(it)
		return nil, exc
	}
	if g.iters == nil && !g.done && arg != Value(None) {
		return nil, newTypeError("can't send non-None value to a just-started generator")
	}
	v, ok, err := g.next(it)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, newExcArgs(StopIteration, nil)
	}
	return v, nil
}

// stopIteration returns StopIteration(v) for a generator's return value v
// (owned); None gives StopIteration() as CPython does.
func stopIteration(v Value) *Instance {
	if v == nil || v == Value(None) {
		return newExcArgs(StopIteration, nil)
	}
	return newExcArgs(StopIteration, []Value{v})
}

// throwArg builds the exception of generator.throw(typ[, val[, tb]]) (a
// new reference).
func (it *Interp) throwArg(args []Value) (*Instance, error) {
	typ := args[0]
	var val Value = None
	if len(args) > 1 {
		val = args[1]
	}
	switch t := typ.(type) {
	case *Instance:
		if t.exc != nil {
			if val != Value(None) {
				return nil, newTypeError("instance exception may not have a separate value")
			}
			return IncRef(t).(*Instance), nil
		}
	case *Class:
		if t.isExc {
			if v, ok := val.(*Instance); ok && v.exc != nil && v.cls.IsSubclass(t) {
				return IncRef(v).(*Instance), nil
			}
			var cargs []Value
			if tup, ok := val.(*Tuple); ok {
				cargs = tup.elems
			} else if val != Value(None) {
				cargs = []Value{val}
			}
			r, err := it.Call(t, cargs, nil)
			if err != nil {
				return nil, err
			}
			if e, ok := r.(*Instance); ok && e.exc != nil {
				return e, nil
			}
			it.DecRef(r)
			return nil, newTypeError("calling " + t.Name + " should have returned an instance of BaseException")
		}
	}
	return nil, newTypeError("exceptions must be classes or instances deriving from BaseException, not " + typ.Type().Name)
}
