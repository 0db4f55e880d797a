package py

import (
	"math"
	"math/big"
	"sort"
	"strconv"

	"github.com/gpumem/playground/sim/py/pyfmt"
)

func noArgs(name string, args []Value, kwargs []Kwarg) error {
	if len(kwargs) > 0 {
		return newTypeError(name + "() takes no keyword arguments")
	}
	if len(args) > 0 {
		return newTypeError(name + "() takes no arguments (" + strconv.Itoa(len(args)) + " given)")
	}
	return nil
}

func initTypeMethods() {
	initObjectMethods()
	initConstructors()
	initStrMethods()
	initListMethods()
	initDictMethods()
	initSetMethods()
	initNumberMethods()
}

func initObjectMethods() {
	o := ObjectClass
	o.setMethod("__init__", func(it *Interp, self Value, args []Value, kw []Kwarg) (Value, error) {
		return None, nil
	})
	o.setMethod("__setattr__", func(it *Interp, self Value, args []Value, kw []Kwarg) (Value, error) {
		var name string
		var v Value
		if err := UnpackArgs("__setattr__", args, kw, "name", &name, "value", &v); err != nil {
			return nil, err
		}
		if inst, ok := self.(*Instance); ok {
			return None, it.instanceSetAttr(inst, name, v)
		}
		return None, it.SetAttr(self, name, v)
	})
	o.setMethod("__delattr__", func(it *Interp, self Value, args []Value, kw []Kwarg) (Value, error) {
		var name string
		if err := UnpackArgs("__delattr__", args, kw, "name", &name); err != nil {
			return nil, err
		}
		if inst, ok := self.(*Instance); ok {
			return None, it.instanceSetAttr(inst, name, nil)
		}
		return None, it.SetAttr(self, name, nil)
	})
	o.setMethod("__getattribute__", func(it *Interp, self Value, args []Value, kw []Kwarg) (Value, error) {
		var name string
		if err := UnpackArgs("__getattribute__", args, kw, "name", &name); err != nil {
			return nil, err
		}
		return it.GetAttr(self, name)
	})
	o.setMethod("__repr__", func(it *Interp, self Value, args []Value, kw []Kwarg) (Value, error) {
		if o, ok := self.(Object); ok {
			return Str("<" + it.className(self.Type()) + " object at " + it.addr(o) + ">"), nil
		}
		s, err := it.Repr(self)
		return Str(s), err
	})
	o.setMethod("__str__", func(it *Interp, self Value, args []Value, kw []Kwarg) (Value, error) {
		s, err := it.Repr(self)
		return Str(s), err
	})
	o.setMethod("__eq__", func(it *Interp, self Value, args []Value, kw []Kwarg) (Value, error) {
		if len(args) != 1 {
			return nil, newTypeError("expected 1 argument")
		}
		if isSame(self, args[0]) {
			return True, nil
		}
		return NotImplemented, nil
	})
	o.setMethod("__ne__", func(it *Interp, self Value, args []Value, kw []Kwarg) (Value, error) {
		if len(args) != 1 {
			return nil, newTypeError("expected 1 argument")
		}
		if isSame(self, args[0]) {
			return False, nil
		}
		return NotImplemented, nil
	})
	o.setMethod("__hash__", func(it *Interp, self Value, args []Value, kw []Kwarg) (Value, error) {
		if o, ok := self.(Object); ok {
			return Int(it.id(o) >> 4), nil
		}
		h, err := it.hash(self)
		return Int(h), err
	})
	o.setMethod("__format__", func(it *Interp, self Value, args []Value, kw []Kwarg) (Value, error) {
		var spec string
		if err := UnpackArgs("__format__", args, kw, "format_spec", &spec); err != nil {
			return nil, err
		}
		if spec != "" {
			return nil, newTypeError("unsupported format string passed to " + self.Type().Name + ".__format__")
		}
		s, err := it.Str(self)
		return Str(s), err
	})
	o.setMethod("__dir__", func(it *Interp, self Value, args []Value, kw []Kwarg) (Value, error) {
		return it.dir(self)
	})
	// BaseException methods.
	BaseException.setMethod("__init__", func(it *Interp, self Value, args []Value, kw []Kwarg) (Value, error) {
		inst, ok := self.(*Instance)
		if !ok || inst.exc == nil {
			return None, nil
		}
		vs := make([]Value, len(args))
		for i, a := range args {
			vs[i] = IncRef(a)
		}
		old := inst.exc.args
		inst.exc.args = it.NewTuple(vs)
		it.DecRef(old)
		return None, nil
	})
	BaseException.setMethod("with_traceback", func(it *Interp, self Value, args []Value, kw []Kwarg) (Value, error) {
		if len(args) != 1 {
			return nil, newTypeError("with_traceback() takes exactly one argument")
		}
		if _, err := it.excSetAttr(self.(*Instance), "__traceback__", args[0]); err != nil {
			return nil, err
		}
		return IncRef(self), nil
	})
	BaseException.setMethod("add_note", func(it *Interp, self Value, args []Value, kw []Kwarg) (Value, error) {
		return None, nil
	})
	TypeClass.setMethod("mro", func(it *Interp, self Value, args []Value, kw []Kwarg) (Value, error) {
		c := self.(*Class)
		vs := make([]Value, len(c.MRO))
		for i, k := range c.MRO {
			vs[i] = IncRef(k)
		}
		return it.NewList(vs), nil
	})
	TypeClass.setMethod("__subclasses__", func(it *Interp, self Value, args []Value, kw []Kwarg) (Value, error) {
		return it.NewList(nil), nil
	})
	PropertyClass.setMethod("setter", func(it *Interp, self Value, args []Value, kw []Kwarg) (Value, error) {
		p := self.(*Property)
		np := &Property{fget: optRef(p.fget), fset: IncRef(args[0]), fdel: optRef(p.fdel)}
		it.newGC(np, true)
		return np, nil
	})
	PropertyClass.setMethod("getter", func(it *Interp, self Value, args []Value, kw []Kwarg) (Value, error) {
		p := self.(*Property)
		np := &Property{fget: IncRef(args[0]), fset: optRef(p.fset), fdel: optRef(p.fdel)}
		it.newGC(np, true)
		return np, nil
	})
	PropertyClass.setMethod("deleter", func(it *Interp, self Value, args []Value, kw []Kwarg) (Value, error) {
		p := self.(*Property)
		np := &Property{fget: optRef(p.fget), fset: optRef(p.fset), fdel: IncRef(args[0])}
		it.newGC(np, true)
		return np, nil
	})
	PropertyClass.setProp("fget", func(it *Interp, self Value) (Value, error) {
		return optNone(self.(*Property).fget), nil
	}, nil)
	IntClass.setMethod("bit_length", func(it *Interp, self Value, args []Value, kw []Kwarg) (Value, error) {
		b, _ := toBig(self)
		return Int(new(big.Int).Abs(b).BitLen()), nil
	})
	IntClass.setMethod("__index__", func(it *Interp, self Value, args []Value, kw []Kwarg) (Value, error) {
		if b, ok := self.(Bool); ok {
			if b {
				return Int(1), nil
			}
			return Int(0), nil
		}
		return self, nil
	})
	IntClass.setMethod("conjugate", func(it *Interp, self Value, args []Value, kw []Kwarg) (Value, error) {
		return self, nil
	})
	FloatClass.setMethod("is_integer", func(it *Interp, self Value, args []Value, kw []Kwarg) (Value, error) {
		f := float64(self.(Float))
		return boolOf(f == math.Trunc(f) && !math.IsInf(f, 0)), nil
	})
	FloatClass.setMethod("hex", func(it *Interp, self Value, args []Value, kw []Kwarg) (Value, error) {
		return Str(strconv.FormatFloat(float64(self.(Float)), 'x', -1, 64)), nil
	})
	TupleClass.setMethod("index", func(it *Interp, self Value, args []Value, kw []Kwarg) (Value, error) {
		return it.seqIndexOf(self.(*Tuple).elems, args, "tuple.index(x): x not in tuple")
	})
	TupleClass.setMethod("count", func(it *Interp, self Value, args []Value, kw []Kwarg) (Value, error) {
		return it.seqCount(self.(*Tuple).elems, args)
	})
	RangeClass.setProp("start", func(it *Interp, self Value) (Value, error) { return Int(self.(*Range).start), nil }, nil)
	RangeClass.setProp("stop", func(it *Interp, self Value) (Value, error) { return Int(self.(*Range).stop), nil }, nil)
	RangeClass.setProp("step", func(it *Interp, self Value) (Value, error) { return Int(self.(*Range).step), nil }, nil)
	SliceClass.setProp("start", func(it *Interp, self Value) (Value, error) { return IncRef(self.(*Slice).Start), nil }, nil)
	SliceClass.setProp("stop", func(it *Interp, self Value) (Value, error) { return IncRef(self.(*Slice).Stop), nil }, nil)
	SliceClass.setProp("step", func(it *Interp, self Value) (Value, error) { return IncRef(self.(*Slice).Step), nil }, nil)
	IteratorClass.setMethod("__next__", func(it *Interp, self Value, args []Value, kw []Kwarg) (Value, error) {
		v, ok, err := it.Next(self)
		if err != nil {
			return nil, err
		}
		if !ok {
			return nil, newExcArgs(StopIteration, nil)
		}
		return v, nil
	})
	IteratorClass.setMethod("__iter__", func(it *Interp, self Value, args []Value, kw []Kwarg) (Value, error) {
		return IncRef(self), nil
	})
	initGeneratorMethods()
}

func optRef(v Value) Value {
	if v == nil {
		return nil
	}
	return IncRef(v)
}

func optNone(v Value) Value {
	if v == nil {
		return None
	}
	return IncRef(v)
}

func (it *Interp) seqIndexOf(elems []Value, args []Value, msg string) (Value, error) {
	if len(args) < 1 {
		return nil, newTypeError("index expected at least 1 argument, got 0")
	}
	start, stop := 0, len(elems)
	if len(args) > 1 {
		s, err := it.index(args[1])
		if err != nil {
			return nil, err
		}
		if s < 0 {
			s += len(elems)
		}
		start = max(0, s)
	}
	if len(args) > 2 {
		s, err := it.index(args[2])
		if err != nil {
			return nil, err
		}
		if s < 0 {
			s += len(elems)
		}
		stop = min(len(elems), s)
	}
	for i := start; i < stop; i++ {
		eq, err := it.equal(elems[i], args[0])
		if err != nil {
			return nil, err
		}
		if eq {
			return Int(i), nil
		}
	}
	return nil, newValueError(msg)
}

func (it *Interp) seqCount(elems []Value, args []Value) (Value, error) {
	if len(args) != 1 {
		return nil, newTypeError("count() takes exactly one argument (" + strconv.Itoa(len(args)) + " given)")
	}
	n := 0
	for _, e := range elems {
		eq, err := it.equal(e, args[0])
		if err != nil {
			return nil, err
		}
		if eq {
			n++
		}
	}
	return Int(n), nil
}

func initListMethods() {
	l := ListClass
	l.setMethod("append", func(it *Interp, self Value, args []Value, kw []Kwarg) (Value, error) {
		if len(args) != 1 || len(kw) > 0 {
			return nil, newTypeError("list.append() takes exactly one argument (" + strconv.Itoa(len(args)) + " given)")
		}
		x := self.(*List)
		if err := it.checkSize(len(x.elems) + 1); err != nil {
			return nil, err
		}
		x.elems = append(x.elems, IncRef(args[0]))
		return None, nil
	})
	l.setMethod("extend", func(it *Interp, self Value, args []Value, kw []Kwarg) (Value, error) {
		if len(args) != 1 {
			return nil, newTypeError("list.extend() takes exactly one argument (" + strconv.Itoa(len(args)) + " given)")
		}
		r, err := it.inplaceOp(OpAdd, self, args[0])
		if err != nil {
			return nil, err
		}
		it.DecRef(r)
		return None, nil
	})
	l.setMethod("insert", func(it *Interp, self Value, args []Value, kw []Kwarg) (Value, error) {
		if len(args) != 2 {
			return nil, newTypeError("insert expected 2 arguments, got " + strconv.Itoa(len(args)))
		}
		x := self.(*List)
		i, err := it.index(args[0])
		if err != nil {
			return nil, err
		}
		n := len(x.elems)
		if i < 0 {
			i += n
			if i < 0 {
				i = 0
			}
		}
		if i > n {
			i = n
		}
		x.elems = append(x.elems, nil)
		copy(x.elems[i+1:], x.elems[i:])
		x.elems[i] = IncRef(args[1])
		return None, nil
	})
	l.setMethod("pop", func(it *Interp, self Value, args []Value, kw []Kwarg) (Value, error) {
		x := self.(*List)
		if len(x.elems) == 0 {
			return nil, NewException(IndexError, "pop from empty list")
		}
		i := len(x.elems) - 1
		if len(args) > 0 {
			j, err := it.index(args[0])
			if err != nil {
				return nil, err
			}
			if j < 0 {
				j += len(x.elems)
			}
			if j < 0 || j >= len(x.elems) {
				return nil, NewException(IndexError, "pop index out of range")
			}
			i = j
		}
		v := x.elems[i]
		x.elems = append(x.elems[:i], x.elems[i+1:]...)
		return v, nil
	})
	l.setMethod("remove", func(it *Interp, self Value, args []Value, kw []Kwarg) (Value, error) {
		x := self.(*List)
		if len(args) != 1 {
			return nil, newTypeError("list.remove() takes exactly one argument (" + strconv.Itoa(len(args)) + " given)")
		}
		for i, e := range x.elems {
			eq, err := it.equal(e, args[0])
			if err != nil {
				return nil, err
			}
			if eq {
				x.elems = append(x.elems[:i], x.elems[i+1:]...)
				it.DecRef(e)
				return None, nil
			}
		}
		return nil, newValueError("list.remove(x): x not in list")
	})
	l.setMethod("index", func(it *Interp, self Value, args []Value, kw []Kwarg) (Value, error) {
		x := self.(*List)
		if len(args) > 0 {
			r, err := it.seqIndexOf(x.elems, args, "")
			if err != nil {
				if e, ok := err.(*Instance); ok && e.cls == ValueError {
					s, _ := it.Repr(args[0])
					return nil, newValueError(s + " is not in list")
				}
			}
			return r, err
		}
		return it.seqIndexOf(x.elems, args, "")
	})
	l.setMethod("count", func(it *Interp, self Value, args []Value, kw []Kwarg) (Value, error) {
		return it.seqCount(self.(*List).elems, args)
	})
	l.setMethod("clear", func(it *Interp, self Value, args []Value, kw []Kwarg) (Value, error) {
		self.(*List).clear(it)
		return None, nil
	})
	l.setMethod("copy", func(it *Interp, self Value, args []Value, kw []Kwarg) (Value, error) {
		vs, _ := it.iterToSlice(self)
		return it.NewList(vs), nil
	})
	l.setMethod("reverse", func(it *Interp, self Value, args []Value, kw []Kwarg) (Value, error) {
		e := self.(*List).elems
		for i, j := 0, len(e)-1; i < j; i, j = i+1, j-1 {
			e[i], e[j] = e[j], e[i]
		}
		return None, nil
	})
	l.setMethod("sort", func(it *Interp, self Value, args []Value, kw []Kwarg) (Value, error) {
		var key Value = None
		var rev bool
		if err := UnpackArgs("sort", args, kw, "*", "key?", &key, "reverse?", &rev); err != nil {
			return nil, err
		}
		x := self.(*List)
		elems := x.elems
		x.elems = nil
		err := it.sortValues(elems, key, rev)
		x.elems = elems
		return None, err
	})
}

// sortValues sorts vs in place (stable), with an optional key function.
func (it *Interp) sortValues(vs []Value, key Value, reverse bool) error {
	keys := vs
	if key != None {
		keys = make([]Value, len(vs))
		for i, v := range vs {
			k, err := it.Call(key, []Value{v}, nil)
			if err != nil {
				it.decRefAll(keys[:i])
				return err
			}
			keys[i] = k
		}
		defer it.decRefAll(keys)
	}
	idx := make([]int, len(vs))
	for i := range idx {
		idx[i] = i
	}
	var sortErr error
	less := func(a, b Value) bool {
		if sortErr != nil {
			return false
		}
		if x, ok := a.(Int); ok {
			if y, ok := b.(Int); ok {
				return x < y
			}
		}
		r, err := it.richCompare(OpLt, a, b)
		if err != nil {
			sortErr = err
			return false
		}
		t, err := it.Truth(r)
		it.DecRef(r)
		if err != nil {
			sortErr = err
		}
		return t
	}
	sort.SliceStable(idx, func(i, j int) bool {
		if reverse {
			return less(keys[idx[j]], keys[idx[i]])
		}
		return less(keys[idx[i]], keys[idx[j]])
	})
	if sortErr != nil {
		return sortErr
	}
	out := make([]Value, len(vs))
	for i, k := range idx {
		out[i] = vs[k]
	}
	copy(vs, out)
	return nil
}

func initNumberMethods() {
	FloatClass.setMethod("__round__", func(it *Interp, self Value, args []Value, kw []Kwarg) (Value, error) {
		return it.round(self, args)
	})
}

// round implements round(x[, n]) for numbers.
func (it *Interp) round(x Value, args []Value) (Value, error) {
	nd := Value(None)
	if len(args) > 0 {
		nd = args[0]
	}
	switch v := x.(type) {
	case Float:
		if nd == None {
			b, err := pyfmt.RoundToInt(float64(v))
			if err != nil {
				return nil, err
			}
			return MakeInt(b), nil
		}
		n, err := it.index(nd)
		if err != nil {
			return nil, err
		}
		r, err := pyfmt.Round(float64(v), n)
		return Float(r), err
	case Int, Bool, *BigInt:
		if nd == None {
			b, _ := toBig(v)
			return MakeInt(b), nil
		}
		n, err := it.index(nd)
		if err != nil {
			return nil, err
		}
		b, _ := toBig(v)
		return MakeInt(pyfmt.RoundInt(b, n)), nil
	case *Instance:
		if f := v.cls.Lookup("__round__"); f != nil {
			return it.callMethodValue(f, v, args, nil)
		}
	}
	return nil, newTypeError("type " + x.Type().Name + " doesn't define __round__ method")
}
