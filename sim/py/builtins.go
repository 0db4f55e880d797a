package py

import (
	"math"
	"math/big"
	"strconv"
	"strings"

	"github.com/gpumem/playground/sim/py/pyfmt"
)

// builtinsDict is the shared, immortal builtins namespace.
var builtinsDict = newImmortalDict()

// addBuiltin adds a builtin function to the builtins namespace. Not inlined:
// initBuiltinFuncs calls it for every builtin (size of the wasm module).
//
//go:noinline
func addBuiltin(name string, fn CallFunc) {
	b := &Builtin{Name: name, Fn: fn}
	b.flags |= flagImmortal
	builtinsDict.setStrRaw(name, b)
}

func init() {
	for _, c := range []*Class{ObjectClass, TypeClass, IntClass, BoolClass, FloatClass, StrClass, BytesClass,
		ListClass, TupleClass, DictClass, SetClass, FrozenSetClass, RangeClass, SliceClass, PropertyClass,
		StaticMethodClass, ClassMethodClass, SuperClass} {
		builtinsDict.setStrRaw(c.Name, c)
	}
	for _, c := range builtinExcClasses {
		builtinsDict.setStrRaw(c.Name, c)
	}
	builtinsDict.setStrRaw("None", None)
	builtinsDict.setStrRaw("Ellipsis", Ellipsis)
	builtinsDict.setStrRaw("NotImplemented", NotImplemented)
	builtinsDict.setStrRaw("__name__", Str("builtins"))
	initBuiltinFuncs()
}

func initBuiltinFuncs() {
	addBuiltin("print", builtinPrint)
	addBuiltin("len", func(it *Interp, args []Value, kw []Kwarg) (Value, error) {
		if len(args) != 1 || len(kw) > 0 {
			return nil, newTypeError("len() takes exactly one argument (" + strconv.Itoa(len(args)) + " given)")
		}
		n, err := it.Len(args[0])
		return Int(n), err
	})
	addBuiltin("repr", func(it *Interp, args []Value, kw []Kwarg) (Value, error) {
		if len(args) != 1 {
			return nil, newTypeError("repr() takes exactly one argument (" + strconv.Itoa(len(args)) + " given)")
		}
		s, err := it.Repr(args[0])
		return Str(s), err
	})
	addBuiltin("ascii", func(it *Interp, args []Value, kw []Kwarg) (Value, error) {
		if len(args) != 1 {
			return nil, newTypeError("ascii() takes exactly one argument (" + strconv.Itoa(len(args)) + " given)")
		}
		s, err := it.Repr(args[0])
		return Str(asciiOf(s)), err
	})
	addBuiltin("format", func(it *Interp, args []Value, kw []Kwarg) (Value, error) {
		var v Value
		spec := ""
		if err := UnpackArgs("format", args, kw, "value", &v, "format_spec?", &spec); err != nil {
			return nil, err
		}
		s, err := it.Format(v, spec)
		return Str(s), err
	})
	addBuiltin("isinstance", func(it *Interp, args []Value, kw []Kwarg) (Value, error) {
		if len(args) != 2 {
			return nil, newTypeError("isinstance expected 2 arguments, got " + strconv.Itoa(len(args)))
		}
		ok, err := it.isInstance(args[0], args[1])
		return boolOf(ok), err
	})
	addBuiltin("issubclass", func(it *Interp, args []Value, kw []Kwarg) (Value, error) {
		if len(args) != 2 {
			return nil, newTypeError("issubclass expected 2 arguments, got " + strconv.Itoa(len(args)))
		}
		c, ok := args[0].(*Class)
		if !ok {
			return nil, newTypeError("issubclass() arg 1 must be a class")
		}
		r, err := it.isSubclassOf(c, args[1])
		return boolOf(r), err
	})
	addBuiltin("abs", func(it *Interp, args []Value, kw []Kwarg) (Value, error) {
		if len(args) != 1 {
			return nil, newTypeError("abs() takes exactly one argument (" + strconv.Itoa(len(args)) + " given)")
		}
		switch x := args[0].(type) {
		case Int:
			if x < 0 {
				return it.unaryOp(OpNeg, x)
			}
			return x, nil
		case Bool:
			if x {
				return Int(1), nil
			}
			return Int(0), nil
		case *BigInt:
			return MakeInt(new(big.Int).Abs(x.v)), nil
		case Float:
			return Float(math.Abs(float64(x))), nil
		case *Instance:
			if f := x.cls.Lookup("__abs__"); f != nil {
				return it.callMethodValue(f, x, nil, nil)
			}
		case HasUnary:
			if f := args[0].Type().Lookup("abs"); f != nil {
				return it.callMethodValue(f, args[0], nil, nil)
			}
		}
		return nil, newTypeError("bad operand type for abs(): '" + args[0].Type().Name + "'")
	})
	addBuiltin("divmod", func(it *Interp, args []Value, kw []Kwarg) (Value, error) {
		if len(args) != 2 {
			return nil, newTypeError("divmod expected 2 arguments, got " + strconv.Itoa(len(args)))
		}
		q, err := it.binaryOp(OpFloorDiv, args[0], args[1])
		if err != nil {
			if e, ok := err.(*Instance); ok && e.cls == TypeError {
				return nil, newTypeError("unsupported operand type(s) for divmod(): '" + args[0].Type().Name + "' and '" + args[1].Type().Name + "'")
			}
			return nil, err
		}
		m, err := it.binaryOp(OpMod, args[0], args[1])
		if err != nil {
			return nil, err
		}
		return it.NewTuple([]Value{q, m}), nil
	})
	addBuiltin("pow", func(it *Interp, args []Value, kw []Kwarg) (Value, error) {
		if len(args) == 3 && args[2] != None {
			b, ok1 := toBig(args[0])
			e, ok2 := toBig(args[1])
			m, ok3 := toBig(args[2])
			if !ok1 || !ok2 || !ok3 {
				return nil, newTypeError("pow() 3rd argument not allowed unless all arguments are integers")
			}
			if m.Sign() == 0 {
				return nil, newValueError("pow() 3rd argument cannot be 0")
			}
			r := new(big.Int).Exp(b, e, new(big.Int).Abs(m))
			if m.Sign() < 0 && r.Sign() != 0 {
				r.Add(r, m)
			}
			return MakeInt(r), nil
		}
		if len(args) < 2 {
			return nil, newTypeError("pow() missing required argument 'exp' (pos 2)")
		}
		return it.binaryOp(OpPow, args[0], args[1])
	})
	addBuiltin("round", func(it *Interp, args []Value, kw []Kwarg) (Value, error) {
		var x Value
		var nd Value = None
		if err := UnpackArgs("round", args, kw, "number", &x, "ndigits?", &nd); err != nil {
			return nil, err
		}
		if nd == None {
			return it.round(x, nil)
		}
		return it.round(x, []Value{nd})
	})
	addBuiltin("sum", func(it *Interp, args []Value, kw []Kwarg) (Value, error) {
		var iterable Value
		var start Value = Int(0)
		if err := UnpackArgs("sum", args, kw, "iterable", &iterable, "start?", &start); err != nil {
			return nil, err
		}
		if _, ok := start.(Str); ok {
			return nil, newTypeError("sum() can't sum strings [use ''.join(seq) instead]")
		}
		iter, err := it.Iter(iterable)
		if err != nil {
			return nil, err
		}
		defer it.DecRef(iter)
		acc := IncRef(start)
		for {
			v, ok, err := it.Next(iter)
			if err != nil {
				it.DecRef(acc)
				return nil, err
			}
			if !ok {
				return acc, nil
			}
			r, err := it.binaryOp(OpAdd, acc, v)
			it.DecRef(acc)
			it.DecRef(v)
			if err != nil {
				return nil, err
			}
			acc = r
		}
	})
	addBuiltin("min", func(it *Interp, args []Value, kw []Kwarg) (Value, error) { return it.minMax("min", OpLt, args, kw) })
	addBuiltin("max", func(it *Interp, args []Value, kw []Kwarg) (Value, error) { return it.minMax("max", OpGt, args, kw) })
	addBuiltin("sorted", func(it *Interp, args []Value, kw []Kwarg) (Value, error) {
		var iterable Value
		var key Value = None
		var rev bool
		if err := UnpackArgs("sorted", args, kw, "iterable", &iterable, "*", "key?", &key, "reverse?", &rev); err != nil {
			return nil, err
		}
		vs, err := it.iterToSlice(iterable)
		if err != nil {
			return nil, err
		}
		l := it.NewList(vs)
		if err := it.sortValues(l.elems, key, rev); err != nil {
			it.DecRef(l)
			return nil, err
		}
		return l, nil
	})
	addBuiltin("reversed", func(it *Interp, args []Value, kw []Kwarg) (Value, error) {
		if len(args) != 1 {
			return nil, newTypeError("reversed expected 1 argument, got " + strconv.Itoa(len(args)))
		}
		src := args[0]
		var n int
		switch x := src.(type) {
		case *List:
			n = len(x.elems)
		case *Tuple:
			n = len(x.elems)
		case *Range, Str:
			vs, err := it.iterToSlice(x)
			if err != nil {
				return nil, err
			}
			t := it.NewTuple(vs)
			defer it.DecRef(t)
			src = t
			n = len(vs)
		default:
			if inst, ok := src.(*Instance); ok && inst.cls.Lookup("__reversed__") != nil {
				return it.callMethodValue(inst.cls.Lookup("__reversed__"), inst, nil, nil)
			}
			return nil, newTypeError("'" + src.Type().Name + "' object is not reversible")
		}
		IncRef(src)
		i := n - 1
		r := it.NewIterator(func(it *Interp) (Value, bool, error) {
			var elems []Value
			switch x := src.(type) {
			case *List:
				elems = x.elems
			case *Tuple:
				elems = x.elems
			}
			if i < 0 || i >= len(elems) {
				return nil, false, nil
			}
			i--
			return IncRef(elems[i+1]), true, nil
		}, nil)
		r.src = src
		r.name = "list_reverseiterator"
		it.newGC(r, true)
		return r, nil
	})
	addBuiltin("enumerate", func(it *Interp, args []Value, kw []Kwarg) (Value, error) {
		var iterable Value
		start := 0
		if err := UnpackArgs("enumerate", args, kw, "iterable", &iterable, "start?", &start); err != nil {
			return nil, err
		}
		inner, err := it.Iter(iterable)
		if err != nil {
			return nil, err
		}
		i := start
		r := it.NewIterator(func(it *Interp) (Value, bool, error) {
			v, ok, err := it.Next(inner)
			if !ok || err != nil {
				return nil, ok, err
			}
			i++
			return it.NewTuple([]Value{Int(i - 1), v}), true, nil
		}, nil)
		r.src = inner
		r.name = "enumerate"
		it.newGC(r, true)
		return r, nil
	})
	addBuiltin("zip", func(it *Interp, args []Value, kw []Kwarg) (Value, error) {
		strict := false
		if err := UnpackArgs("zip", nil, kw, "*", "strict?", &strict); err != nil {
			return nil, err
		}
		var iters []Value
		for _, a := range args {
			x, err := it.Iter(a)
			if err != nil {
				it.decRefAll(iters)
				return nil, newTypeError("zip argument #" + strconv.Itoa(len(iters)+1) + " must support iteration")
			}
			iters = append(iters, x)
		}
		done := false
		r := it.NewIterator(func(it *Interp) (Value, bool, error) {
			if done || len(iters) == 0 {
				return nil, false, nil
			}
			vs := make([]Value, 0, len(iters))
			for _, x := range iters {
				v, ok, err := it.Next(x)
				if err != nil || !ok {
					it.decRefAll(vs)
					done = true
					return nil, false, err
				}
				vs = append(vs, v)
			}
			return it.NewTuple(vs), true, nil
		}, func(it *Interp) {
			its := iters
			iters = nil
			for i := len(its) - 1; i >= 0; i-- {
				it.DecRef(its[i])
			}
		})
		r.name = "zip"
		it.newGC(r, true)
		return r, nil
	})
	addBuiltin("map", func(it *Interp, args []Value, kw []Kwarg) (Value, error) {
		if len(args) < 2 {
			return nil, newTypeError("map() must have at least two arguments.")
		}
		fn := IncRef(args[0])
		var iters []Value
		for _, a := range args[1:] {
			x, err := it.Iter(a)
			if err != nil {
				it.decRefAll(iters)
				it.DecRef(fn)
				return nil, err
			}
			iters = append(iters, x)
		}
		r := it.NewIterator(func(it *Interp) (Value, bool, error) {
			vs := make([]Value, 0, len(iters))
			for _, x := range iters {
				v, ok, err := it.Next(x)
				if err != nil || !ok {
					it.decRefAll(vs)
					return nil, false, err
				}
				vs = append(vs, v)
			}
			r, err := it.callOwned(fn, vs, nil)
			return r, err == nil, err
		}, func(it *Interp) {
			its := iters
			iters = nil
			it.decRefAll(its)
			it.DecRef(fn)
		})
		r.name = "map"
		it.newGC(r, true)
		return r, nil
	})
	addBuiltin("filter", func(it *Interp, args []Value, kw []Kwarg) (Value, error) {
		if len(args) != 2 {
			return nil, newTypeError("filter expected 2 arguments, got " + strconv.Itoa(len(args)))
		}
		fn := IncRef(args[0])
		inner, err := it.Iter(args[1])
		if err != nil {
			it.DecRef(fn)
			return nil, err
		}
		r := it.NewIterator(func(it *Interp) (Value, bool, error) {
			for {
				v, ok, err := it.Next(inner)
				if err != nil || !ok {
					return nil, false, err
				}
				var t bool
				if fn == None {
					t, err = it.Truth(v)
				} else {
					var r Value
					r, err = it.Call(fn, []Value{v}, nil)
					if err == nil {
						t, err = it.Truth(r)
						it.DecRef(r)
					}
				}
				if err != nil {
					it.DecRef(v)
					return nil, false, err
				}
				if t {
					return v, true, nil
				}
				it.DecRef(v)
			}
		}, func(it *Interp) { it.DecRef(fn) })
		r.src = inner
		r.name = "filter"
		it.newGC(r, true)
		return r, nil
	})
	addBuiltin("iter", func(it *Interp, args []Value, kw []Kwarg) (Value, error) {
		if len(args) != 1 {
			return nil, newTypeError("iter expected 1 argument, got " + strconv.Itoa(len(args)))
		}
		return it.Iter(args[0])
	})
	addBuiltin("next", func(it *Interp, args []Value, kw []Kwarg) (Value, error) {
		if len(args) < 1 || len(args) > 2 {
			return nil, newTypeError("next expected at least 1 argument, got 0")
		}
		switch args[0].(type) {
		case *Iterator, *Generator, *Instance:
		default:
			if _, ok := args[0].(interface {
				Next(*Interp) (Value, bool, error)
			}); !ok {
				return nil, newTypeError("'" + args[0].Type().Name + "' object is not an iterator")
			}
		}
		if g, ok := args[0].(*Generator); ok && g.body != nil {
			// A generator's return value travels in its StopIteration.
			v, yielded, err := g.send(it, None, nil)
			if err != nil || yielded {
				return v, err
			}
			if len(args) == 2 {
				it.DecRef(v)
				return IncRef(args[1]), nil
			}
			return nil, stopIteration(v)
		}
		v, ok, err := it.Next(args[0])
		if err != nil {
			return nil, err
		}
		if !ok {
			if len(args) == 2 {
				return IncRef(args[1]), nil
			}
			return nil, newExcArgs(StopIteration, nil)
		}
		return v, nil
	})
	addBuiltin("any", func(it *Interp, args []Value, kw []Kwarg) (Value, error) { return it.anyAll(args, true) })
	addBuiltin("all", func(it *Interp, args []Value, kw []Kwarg) (Value, error) { return it.anyAll(args, false) })
	addBuiltin("callable", func(it *Interp, args []Value, kw []Kwarg) (Value, error) {
		if len(args) != 1 {
			return nil, newTypeError("callable() takes exactly one argument (" + strconv.Itoa(len(args)) + " given)")
		}
		switch x := args[0].(type) {
		case *Function, *Builtin, *BoundMethod, *Class, *Method:
			return True, nil
		case HasCall:
			return True, nil
		default:
			return boolOf(x.Type().Lookup("__call__") != nil), nil
		}
	})
	addBuiltin("getattr", func(it *Interp, args []Value, kw []Kwarg) (Value, error) {
		if len(args) < 2 || len(args) > 3 {
			return nil, newTypeError("getattr expected at least 2 arguments, got " + strconv.Itoa(len(args)))
		}
		name, ok := args[1].(Str)
		if !ok {
			return nil, newTypeError("attribute name must be string, not '" + args[1].Type().Name + "'")
		}
		v, err := it.GetAttr(args[0], string(name))
		if err != nil && len(args) == 3 {
			if e, ok := err.(*Instance); ok && e.cls.IsSubclass(AttributeError) {
				it.DecRef(e)
				return IncRef(args[2]), nil
			}
		}
		return v, err
	})
	addBuiltin("setattr", func(it *Interp, args []Value, kw []Kwarg) (Value, error) {
		if len(args) != 3 {
			return nil, newTypeError("setattr expected 3 arguments, got " + strconv.Itoa(len(args)))
		}
		name, ok := args[1].(Str)
		if !ok {
			return nil, newTypeError("attribute name must be string, not '" + args[1].Type().Name + "'")
		}
		return None, it.SetAttr(args[0], string(name), args[2])
	})
	addBuiltin("delattr", func(it *Interp, args []Value, kw []Kwarg) (Value, error) {
		if len(args) != 2 {
			return nil, newTypeError("delattr expected 2 arguments, got " + strconv.Itoa(len(args)))
		}
		name, ok := args[1].(Str)
		if !ok {
			return nil, newTypeError("attribute name must be string, not '" + args[1].Type().Name + "'")
		}
		return None, it.SetAttr(args[0], string(name), nil)
	})
	addBuiltin("hasattr", func(it *Interp, args []Value, kw []Kwarg) (Value, error) {
		if len(args) != 2 {
			return nil, newTypeError("hasattr expected 2 arguments, got " + strconv.Itoa(len(args)))
		}
		name, ok := args[1].(Str)
		if !ok {
			return nil, newTypeError("attribute name must be string, not '" + args[1].Type().Name + "'")
		}
		v, err := it.GetAttr(args[0], string(name))
		if err != nil {
			if e, ok := err.(*Instance); ok && e.cls.IsSubclass(AttributeError) {
				it.DecRef(e)
				return False, nil
			}
			return nil, err
		}
		it.DecRef(v)
		return True, nil
	})
	addBuiltin("id", func(it *Interp, args []Value, kw []Kwarg) (Value, error) {
		if len(args) != 1 {
			return nil, newTypeError("id() takes exactly one argument (" + strconv.Itoa(len(args)) + " given)")
		}
		if o, ok := args[0].(Object); ok {
			return Int(it.id(o)), nil
		}
		h, _ := it.hash(args[0])
		return Int(0x7e0000000000 + (h&0xffffffff)*16), nil
	})
	addBuiltin("hash", func(it *Interp, args []Value, kw []Kwarg) (Value, error) {
		if len(args) != 1 {
			return nil, newTypeError("hash() takes exactly one argument (" + strconv.Itoa(len(args)) + " given)")
		}
		if _, _, err := it.hashKey(args[0]); err != nil {
			return nil, err
		}
		h, err := it.hash(args[0])
		return Int(h), err
	})
	addBuiltin("chr", func(it *Interp, args []Value, kw []Kwarg) (Value, error) {
		if len(args) != 1 {
			return nil, newTypeError("chr() takes exactly one argument (" + strconv.Itoa(len(args)) + " given)")
		}
		n, ok := smallInt(args[0])
		if !ok {
			return nil, newTypeError("'" + args[0].Type().Name + "' object cannot be interpreted as an integer")
		}
		if n < 0 || n > 0x10ffff {
			return nil, newValueError("chr() arg not in range(0x110000)")
		}
		return Str(string(rune(n))), nil
	})
	addBuiltin("ord", func(it *Interp, args []Value, kw []Kwarg) (Value, error) {
		if len(args) != 1 {
			return nil, newTypeError("ord() takes exactly one argument (" + strconv.Itoa(len(args)) + " given)")
		}
		s, ok := args[0].(Str)
		if !ok {
			return nil, newTypeError("ord() expected string of length 1, but " + args[0].Type().Name + " found")
		}
		rs := []rune(string(s))
		if len(rs) != 1 {
			return nil, newTypeError("ord() expected a character, but string of length " + strconv.Itoa(len(rs)) + " found")
		}
		return Int(rs[0]), nil
	})
	for _, b := range []struct {
		name string
		base int
	}{{"hex", 16}, {"bin", 2}, {"oct", 8}} {
		base := b.base
		name := b.name
		addBuiltin(name, func(it *Interp, args []Value, kw []Kwarg) (Value, error) {
			if len(args) != 1 {
				return nil, newTypeError(name + "() takes exactly one argument (" + strconv.Itoa(len(args)) + " given)")
			}
			x, ok := toBig(args[0])
			if !ok {
				return nil, newTypeError("'" + args[0].Type().Name + "' object cannot be interpreted as an integer")
			}
			return Str(pyfmt.IntBase(x, base)), nil
		})
	}
	addBuiltin("vars", func(it *Interp, args []Value, kw []Kwarg) (Value, error) {
		if len(args) == 0 {
			return it.globalsOf()
		}
		return it.GetAttr(args[0], "__dict__")
	})
	addBuiltin("dir", func(it *Interp, args []Value, kw []Kwarg) (Value, error) {
		if len(args) == 0 {
			g, _ := it.globalsOf()
			defer it.DecRef(g)
			return it.dir(&Module{Name: "", Dict: g.(*Dict)})
		}
		return it.dir(args[0])
	})
	addBuiltin("globals", func(it *Interp, args []Value, kw []Kwarg) (Value, error) { return it.globalsOf() })
	addBuiltin("locals", func(it *Interp, args []Value, kw []Kwarg) (Value, error) {
		fr := it.frame
		if fr == nil {
			return it.NewDict(), nil
		}
		if fr.ns != nil && fr.fn == nil {
			return IncRef(fr.ns), nil
		}
		d := it.NewDict()
		for i, n := range fr.code.varnames {
			if v := fr.slots[i]; v != nil {
				d.SetStr(it, n, v)
			}
		}
		for i, n := range fr.code.cellNames {
			if c := fr.cells[i]; c != nil && c.v != nil {
				d.SetStr(it, n, c.v)
			}
		}
		return d, nil
	})
	addBuiltin("input", func(it *Interp, args []Value, kw []Kwarg) (Value, error) {
		return nil, NewException(EOFError, "EOF when reading a line")
	})
	addBuiltin("open", func(it *Interp, args []Value, kw []Kwarg) (Value, error) {
		return nil, NewException(OSError, "files are not available in the playground")
	})
	addBuiltin("exit", builtinExit)
	addBuiltin("quit", builtinExit)
	addBuiltin("__import__", func(it *Interp, args []Value, kw []Kwarg) (Value, error) {
		if len(args) < 1 {
			return nil, newTypeError("__import__() missing required argument 'name' (pos 1)")
		}
		s, ok := args[0].(Str)
		if !ok {
			return nil, newTypeError("__import__() argument 1 must be str")
		}
		m, err := it.Import(string(s))
		if err != nil {
			return nil, err
		}
		top := string(s)
		if i := strings.IndexByte(top, '.'); i >= 0 {
			it.DecRef(m)
			return IncRef(it.modules[top[:i]]), nil
		}
		return m, nil
	})
}

func builtinExit(it *Interp, args []Value, kw []Kwarg) (Value, error) {
	vs := make([]Value, len(args))
	for i, a := range args {
		vs[i] = IncRef(a)
	}
	return nil, newExcArgs(SystemExit, vs)
}

func (it *Interp) globalsOf() (Value, error) {
	for f := it.frame; f != nil; f = f.back {
		return IncRef(f.globals), nil
	}
	return it.NewDict(), nil
}

func builtinPrint(it *Interp, args []Value, kw []Kwarg) (Value, error) {
	sep, end := " ", "\n"
	for _, k := range kw {
		switch k.Name {
		case "sep", "end":
			var s string
			switch v := k.Value.(type) {
			case NoneType:
				if k.Name == "sep" {
					s = " "
				} else {
					s = "\n"
				}
			case Str:
				s = string(v)
			default:
				return nil, newTypeError(k.Name + " must be None or a string, not " + v.Type().Name)
			}
			if k.Name == "sep" {
				sep = s
			} else {
				end = s
			}
		case "file", "flush":
		default:
			return nil, newTypeError("'" + k.Name + "' is an invalid keyword argument for print()")
		}
	}
	var sb strings.Builder
	for i, a := range args {
		if i > 0 {
			sb.WriteString(sep)
		}
		s, err := it.Str(a)
		if err != nil {
			return nil, err
		}
		sb.WriteString(s)
	}
	sb.WriteString(end)
	return None, it.write(sb.String())
}

func (it *Interp) isInstance(v, cls Value) (bool, error) {
	switch c := cls.(type) {
	case *Class:
		if v.Type().IsSubclass(c) {
			return true, nil
		}
		if inst, ok := v.(*Instance); ok && inst.cls.IsSubclass(c) {
			return true, nil
		}
		if ic := c.Lookup("__instancecheck__"); ic != nil && c.userDefined {
			r, err := it.callMethodValue(ic, c, []Value{v}, nil)
			if err != nil {
				return false, err
			}
			t, err := it.Truth(r)
			it.DecRef(r)
			return t, err
		}
		return false, nil
	case *Tuple:
		for _, e := range c.elems {
			ok, err := it.isInstance(v, e)
			if err != nil || ok {
				return ok, err
			}
		}
		return false, nil
	}
	return false, newTypeError("isinstance() arg 2 must be a type, a tuple of types, or a union")
}

func (it *Interp) isSubclassOf(c *Class, cls Value) (bool, error) {
	switch x := cls.(type) {
	case *Class:
		return c.IsSubclass(x), nil
	case *Tuple:
		for _, e := range x.elems {
			ok, err := it.isSubclassOf(c, e)
			if err != nil || ok {
				return ok, err
			}
		}
		return false, nil
	}
	return false, newTypeError("issubclass() arg 2 must be a class, a tuple of classes, or a union")
}

func (it *Interp) anyAll(args []Value, isAny bool) (Value, error) {
	if len(args) != 1 {
		name := "all"
		if isAny {
			name = "any"
		}
		return nil, newTypeError(name + "() takes exactly one argument (" + strconv.Itoa(len(args)) + " given)")
	}
	iter, err := it.Iter(args[0])
	if err != nil {
		return nil, err
	}
	defer it.DecRef(iter)
	for {
		v, ok, err := it.Next(iter)
		if err != nil {
			return nil, err
		}
		if !ok {
			return boolOf(!isAny), nil
		}
		t, err := it.Truth(v)
		it.DecRef(v)
		if err != nil {
			return nil, err
		}
		if t == isAny {
			return boolOf(isAny), nil
		}
	}
}

func (it *Interp) minMax(name string, op Op, args []Value, kw []Kwarg) (Value, error) {
	var key, def Value
	for _, k := range kw {
		switch k.Name {
		case "key":
			if k.Value != None {
				key = k.Value
			}
		case "default":
			def = k.Value
		default:
			return nil, newTypeError("'" + k.Name + "' is an invalid keyword argument for " + name + "()")
		}
	}
	var items []Value
	var err error
	if len(args) == 0 {
		return nil, newTypeError(name + " expected at least 1 argument, got 0")
	}
	if len(args) == 1 {
		items, err = it.iterToSlice(args[0])
		if err != nil {
			return nil, err
		}
	} else {
		if def != nil {
			return nil, newTypeError("Cannot specify a default for " + name + "() with multiple positional arguments")
		}
		for _, a := range args {
			items = append(items, IncRef(a))
		}
	}
	defer it.decRefAll(items)
	if len(items) == 0 {
		if def != nil {
			return IncRef(def), nil
		}
		return nil, newValueError(name + "() iterable argument is empty")
	}
	best := items[0]
	var bestKey Value = best
	if key != nil {
		bestKey, err = it.Call(key, []Value{best}, nil)
		if err != nil {
			return nil, err
		}
	}
	for _, v := range items[1:] {
		k := v
		if key != nil {
			k, err = it.Call(key, []Value{v}, nil)
			if err != nil {
				it.DecRef(bestKey)
				return nil, err
			}
		}
		r, err := it.richCompare(op, k, bestKey)
		if err != nil {
			return nil, err
		}
		t, err := it.Truth(r)
		it.DecRef(r)
		if err != nil {
			return nil, err
		}
		if t {
			if key != nil {
				it.DecRef(bestKey)
			}
			best, bestKey = v, k
		} else if key != nil {
			it.DecRef(k)
		}
	}
	if key != nil {
		it.DecRef(bestKey)
	}
	return IncRef(best), nil
}
