package py

import (
	"math"
	"math/big"
	"strconv"

	"github.com/gpumem/playground/sim/py/pyfmt"
)

func initConstructors() {
	IntClass.newFn = func(it *Interp, args []Value, kw []Kwarg) (Value, error) {
		var x Value = Int(0)
		var base Value = None
		if err := UnpackArgs("int", args, kw, "x?", &x, "base?", &base); err != nil {
			return nil, err
		}
		if base != None {
			b, err := it.index(base)
			if err != nil {
				return nil, err
			}
			s, ok := x.(Str)
			if !ok {
				return nil, newTypeError("int() can't convert non-string with explicit base")
			}
			r, err := pyfmt.ParseInt(string(s), b)
			if err != nil {
				return nil, err
			}
			return MakeInt(r), nil
		}
		return it.toInt(x)
	}
	BoolClass.newFn = func(it *Interp, args []Value, kw []Kwarg) (Value, error) {
		if len(args) == 0 {
			return False, nil
		}
		t, err := it.Truth(args[0])
		return boolOf(t), err
	}
	FloatClass.newFn = func(it *Interp, args []Value, kw []Kwarg) (Value, error) {
		if len(args) == 0 {
			return Float(0), nil
		}
		switch x := args[0].(type) {
		case Str:
			f, err := pyfmt.ParseFloat(string(x))
			return Float(f), err
		case *Instance:
			if f := x.cls.Lookup("__float__"); f != nil {
				return it.callMethodValue(f, x, nil, nil)
			}
		case HasNumber:
			v, err := x.Number(it)
			if err != nil {
				return nil, err
			}
			f, _, err := toFloat(v)
			return Float(f), err
		}
		f, ok, err := toFloat(args[0])
		if err != nil {
			return nil, err
		}
		if !ok {
			return nil, newTypeError("float() argument must be a string or a real number, not '" + args[0].Type().Name + "'")
		}
		return Float(f), nil
	}
	StrClass.newFn = func(it *Interp, args []Value, kw []Kwarg) (Value, error) {
		if len(args) == 0 {
			return Str(""), nil
		}
		s, err := it.Str(args[0])
		return Str(s), err
	}
	BytesClass.newFn = func(it *Interp, args []Value, kw []Kwarg) (Value, error) {
		if len(args) == 0 {
			return Bytes(""), nil
		}
		if s, ok := args[0].(Str); ok {
			return Bytes(s), nil
		}
		if n, ok := smallInt(args[0]); ok {
			if err := it.checkSize(int(n)); err != nil {
				return nil, err
			}
			return Bytes(make([]byte, n)), nil
		}
		return nil, newTypeError("cannot convert '" + args[0].Type().Name + "' object to bytes")
	}
	ListClass.newFn = func(it *Interp, args []Value, kw []Kwarg) (Value, error) {
		if len(args) == 0 {
			return it.NewList(nil), nil
		}
		if len(args) > 1 {
			return nil, newTypeError("list expected at most 1 argument, got " + strconv.Itoa(len(args)))
		}
		vs, err := it.iterToSlice(args[0])
		if err != nil {
			return nil, err
		}
		return it.NewList(vs), nil
	}
	TupleClass.newFn = func(it *Interp, args []Value, kw []Kwarg) (Value, error) {
		if len(args) == 0 {
			return emptyTuple, nil
		}
		if t, ok := args[0].(*Tuple); ok {
			return IncRef(t), nil
		}
		vs, err := it.iterToSlice(args[0])
		if err != nil {
			return nil, err
		}
		return it.NewTuple(vs), nil
	}
	DictClass.newFn = func(it *Interp, args []Value, kw []Kwarg) (Value, error) {
		d := it.NewDict()
		if len(args) > 1 {
			return nil, newTypeError("dict expected at most 1 argument, got " + strconv.Itoa(len(args)))
		}
		if len(args) == 1 {
			if err := it.dictUpdate(d, args[0], false); err != nil {
				it.DecRef(d)
				return nil, err
			}
		}
		for _, k := range kw {
			d.SetStr(it, k.Name, k.Value)
		}
		return d, nil
	}
	SetClass.newFn = func(it *Interp, args []Value, kw []Kwarg) (Value, error) {
		if len(args) == 0 {
			return it.NewSet(), nil
		}
		return it.setFromIterable(args[0], false)
	}
	FrozenSetClass.newFn = func(it *Interp, args []Value, kw []Kwarg) (Value, error) {
		if len(args) == 0 {
			s := it.NewSet()
			s.frozen = true
			return s, nil
		}
		if f, ok := args[0].(*Set); ok && f.frozen {
			return IncRef(f), nil
		}
		return it.setFromIterable(args[0], true)
	}
	RangeClass.newFn = func(it *Interp, args []Value, kw []Kwarg) (Value, error) {
		if len(kw) > 0 {
			return nil, newTypeError("range() takes no keyword arguments")
		}
		var ns [3]int64
		for i, a := range args {
			if i > 2 {
				break
			}
			n, ok := smallInt(a)
			if !ok {
				if _, isBig := a.(*BigInt); isBig {
					return nil, NewException(OverflowError, "Python int too large to convert to C ssize_t")
				}
				if hasIndex(a) {
					v, err := it.index(a)
					if err != nil {
						return nil, err
					}
					n = int64(v)
				} else {
					return nil, newTypeError("'" + a.Type().Name + "' object cannot be interpreted as an integer")
				}
			}
			ns[i] = n
		}
		switch len(args) {
		case 1:
			return &Range{start: 0, stop: ns[0], step: 1}, nil
		case 2:
			return &Range{start: ns[0], stop: ns[1], step: 1}, nil
		case 3:
			if ns[2] == 0 {
				return nil, newValueError("range() arg 3 must not be zero")
			}
			return &Range{start: ns[0], stop: ns[1], step: ns[2]}, nil
		case 0:
			return nil, newTypeError("range expected at least 1 argument, got 0")
		}
		return nil, newTypeError("range expected at most 3 arguments, got " + strconv.Itoa(len(args)))
	}
	SliceClass.newFn = func(it *Interp, args []Value, kw []Kwarg) (Value, error) {
		vs := [3]Value{None, None, None}
		switch len(args) {
		case 1:
			vs[1] = IncRef(args[0])
		case 2, 3:
			for i, a := range args {
				vs[i] = IncRef(a)
			}
		default:
			return nil, newTypeError("slice expected at least 1 argument, got 0")
		}
		return it.newSlice(vs[0], vs[1], vs[2]), nil
	}
	ObjectClass.newFn = func(it *Interp, args []Value, kw []Kwarg) (Value, error) {
		if len(args) > 0 || len(kw) > 0 {
			return nil, newTypeError("object() takes no arguments")
		}
		return it.newInstance(ObjectClass), nil
	}
	PropertyClass.newFn = func(it *Interp, args []Value, kw []Kwarg) (Value, error) {
		var fget, fset, fdel, doc Value = None, None, None, None
		if err := UnpackArgs("property", args, kw, "fget?", &fget, "fset?", &fset, "fdel?", &fdel, "doc?", &doc); err != nil {
			return nil, err
		}
		p := &Property{}
		if fget != None {
			p.fget = IncRef(fget)
		}
		if fset != None {
			p.fset = IncRef(fset)
		}
		if fdel != None {
			p.fdel = IncRef(fdel)
		}
		it.newGC(p, true)
		return p, nil
	}
	StaticMethodClass.newFn = func(it *Interp, args []Value, kw []Kwarg) (Value, error) {
		if len(args) != 1 {
			return nil, newTypeError("staticmethod expected 1 argument, got " + strconv.Itoa(len(args)))
		}
		s := &StaticMethod{fn: IncRef(args[0])}
		it.newGC(s, true)
		return s, nil
	}
	ClassMethodClass.newFn = func(it *Interp, args []Value, kw []Kwarg) (Value, error) {
		if len(args) != 1 {
			return nil, newTypeError("classmethod expected 1 argument, got " + strconv.Itoa(len(args)))
		}
		s := &ClassMethod{fn: IncRef(args[0])}
		it.newGC(s, true)
		return s, nil
	}
	SuperClass.newFn = func(it *Interp, args []Value, kw []Kwarg) (Value, error) {
		var cls *Class
		var obj Value
		switch len(args) {
		case 2:
			c, ok := args[0].(*Class)
			if !ok {
				return nil, newTypeError("super() argument 1 must be a type, not " + args[0].Type().Name)
			}
			cls, obj = c, args[1]
		case 0:
			fr := it.frame
			if fr == nil {
				return nil, NewException(RuntimeError, "super(): no arguments")
			}
			co := fr.code
			ci := -1
			for i, n := range co.cellNames {
				if n == "__class__" {
					ci = i
				}
			}
			if ci < 0 || fr.cells[ci].v == nil {
				return nil, NewException(RuntimeError, "super(): __class__ cell not found")
			}
			cls = fr.cells[ci].v.(*Class)
			if len(co.varnames) > 0 && fr.slots[0] != nil {
				obj = fr.slots[0]
			} else {
				for i, pc := range co.paramCell {
					if pc == 0 {
						obj = fr.cells[i].v
					}
				}
			}
			if obj == nil {
				return nil, NewException(RuntimeError, "super(): no arguments")
			}
		default:
			return nil, newTypeError("super() takes 0 or 2 arguments")
		}
		s := &Super{cls: IncRef(cls).(*Class), obj: IncRef(obj)}
		it.newGC(s, true)
		return s, nil
	}
}

// toInt implements int(x).
func (it *Interp) toInt(x Value) (Value, error) {
	switch v := x.(type) {
	case Int, *BigInt:
		return v, nil
	case Bool:
		if v {
			return Int(1), nil
		}
		return Int(0), nil
	case Float:
		f := float64(v)
		if math.IsNaN(f) {
			return nil, newValueError("cannot convert float NaN to integer")
		}
		if math.IsInf(f, 0) {
			return nil, NewException(OverflowError, "cannot convert float infinity to integer")
		}
		t := math.Trunc(f)
		if t >= -9.2e18 && t <= 9.2e18 {
			return Int(int64(t)), nil
		}
		b, _ := new(big.Float).SetFloat64(t).Int(nil)
		return MakeInt(b), nil
	case Str:
		r, err := pyfmt.ParseInt(string(v), 10)
		if err != nil {
			return nil, err
		}
		return MakeInt(r), nil
	case *Instance:
		for _, m := range []string{"__int__", "__index__", "__trunc__"} {
			if f := v.cls.Lookup(m); f != nil {
				return it.callMethodValue(f, v, nil, nil)
			}
		}
	case HasNumber:
		n, err := v.Number(it)
		if err != nil {
			return nil, err
		}
		return it.toInt(n)
	}
	return nil, newTypeError("int() argument must be a string, a bytes-like object or a real number, not '" + x.Type().Name + "'")
}
