package py

import (
	"math"
	"math/big"
	"strconv"
	"strings"

	"github.com/gpumem/playground/sim/py/pyfmt"
)

// seqOp implements + * % on str, list, tuple and | on dicts, set operators.
func (it *Interp) seqOp(op Op, a, b Value) (Value, bool, error) {
	switch x := a.(type) {
	case Str:
		switch op {
		case OpAdd:
			if y, ok := b.(Str); ok {
				if err := it.checkSize(len(x) + len(y)); err != nil {
					return nil, true, err
				}
				return x + y, true, nil
			}
			return nil, true, newTypeError("can only concatenate str (not \"" + b.Type().Name + "\") to str")
		case OpMul:
			if n, ok := smallInt(b); ok {
				return it.repeatStr(string(x), n)
			}
			if _, ok := b.(*BigInt); ok {
				return nil, true, it.checkSize(-1)
			}
		case OpMod:
			r, err := it.percentFormat(string(x), b)
			return r, true, err
		}
	case *List:
		switch op {
		case OpAdd:
			y, ok := b.(*List)
			if !ok {
				return nil, true, newTypeError("can only concatenate list (not \"" + b.Type().Name + "\") to list")
			}
			if err := it.checkSize(len(x.elems) + len(y.elems)); err != nil {
				return nil, true, err
			}
			out := make([]Value, 0, len(x.elems)+len(y.elems))
			for _, e := range x.elems {
				out = append(out, IncRef(e))
			}
			for _, e := range y.elems {
				out = append(out, IncRef(e))
			}
			return it.NewList(out), true, nil
		case OpMul:
			out, ok, err := it.repeatElems(x.elems, b)
			if !ok || err != nil {
				return nil, ok, err
			}
			return it.NewList(out), true, nil
		}
	case *Tuple:
		switch op {
		case OpAdd:
			y, ok := b.(*Tuple)
			if !ok {
				return nil, true, newTypeError("can only concatenate tuple (not \"" + b.Type().Name + "\") to tuple")
			}
			out := make([]Value, 0, len(x.elems)+len(y.elems))
			for _, e := range x.elems {
				out = append(out, IncRef(e))
			}
			for _, e := range y.elems {
				out = append(out, IncRef(e))
			}
			return it.NewTuple(out), true, nil
		case OpMul:
			out, ok, err := it.repeatElems(x.elems, b)
			if !ok || err != nil {
				return nil, ok, err
			}
			return it.NewTuple(out), true, nil
		}
	case *Dict:
		if op == OpOr {
			if y, ok := b.(*Dict); ok {
				d := it.NewDict()
				if err := it.dictUpdate(d, x, false); err != nil {
					return nil, true, err
				}
				if err := it.dictUpdate(d, y, false); err != nil {
					return nil, true, err
				}
				return d, true, nil
			}
		}
	case *Set:
		if y, ok := b.(*Set); ok {
			r, err := it.setBinary(op, x, y)
			if r != nil || err != nil {
				return r, true, err
			}
		}
	case Int, Bool:
		if op == OpMul {
			switch b.(type) {
			case Str, *List, *Tuple:
				return it.seqOp(op, b, a)
			}
		}
	case Bytes:
		if y, ok := b.(Bytes); ok && op == OpAdd {
			return x + y, true, nil
		}
	}
	return nil, false, nil
}

func (it *Interp) repeatStr(s string, n int64) (Value, bool, error) {
	if n <= 0 || s == "" {
		return Str(""), true, nil
	}
	if n > int64(it.limits.MaxCollection) || int64(len(s))*n > int64(it.limits.MaxCollection) {
		return nil, true, it.checkSize(-1)
	}
	return Str(strings.Repeat(s, int(n))), true, nil
}

func (it *Interp) repeatElems(elems []Value, b Value) ([]Value, bool, error) {
	n, ok := smallInt(b)
	if !ok {
		if _, big := b.(*BigInt); big {
			return nil, true, it.checkSize(-1)
		}
		return nil, false, nil
	}
	if n <= 0 {
		return nil, true, nil
	}
	if n > int64(it.limits.MaxCollection) || int64(len(elems))*n > int64(it.limits.MaxCollection) {
		return nil, true, it.checkSize(-1)
	}
	out := make([]Value, 0, len(elems)*int(n))
	for i := int64(0); i < n; i++ {
		for _, e := range elems {
			out = append(out, IncRef(e))
		}
	}
	return out, true, nil
}

// pctArg adapts a value to pyfmt.Arg.
type pctArg struct {
	it *Interp
	v  Value
}

func (a pctArg) TypeName() string { return a.v.Type().Name }
func (a pctArg) Str() (string, error) {
	return a.it.Str(a.v)
}
func (a pctArg) Repr() (string, error) { return a.it.Repr(a.v) }
func (a pctArg) StrValue() (string, bool) {
	s, ok := a.v.(Str)
	return string(s), ok
}
func (a pctArg) IntValue() (*big.Int, bool) {
	return toBig(a.v)
}
func (a pctArg) AsInt() (*big.Int, bool, error) {
	switch x := a.v.(type) {
	case Float:
		f := float64(x)
		if math.IsNaN(f) {
			return nil, true, newValueError("cannot convert float NaN to integer")
		}
		if math.IsInf(f, 0) {
			return nil, true, NewException(OverflowError, "cannot convert float infinity to integer")
		}
		b, _ := new(big.Float).SetFloat64(math.Trunc(f)).Int(nil)
		return b, true, nil
	}
	b, ok := toBig(a.v)
	return b, ok, nil
}
func (a pctArg) AsIndex() (*big.Int, bool, error) {
	b, ok := toBig(a.v)
	return b, ok, nil
}
func (a pctArg) AsFloat() (float64, bool, error) {
	return a.it.asFloat(a.v)
}

type pctMapping struct {
	it *Interp
	v  Value
}

func (m pctMapping) GetItem(key string) (pyfmt.Arg, error) {
	v, err := m.it.GetItem(m.v, Str(key))
	if err != nil {
		return nil, err
	}
	m.it.DecRef(v) // still owned by the mapping
	return pctArg{m.it, v}, nil
}

func (it *Interp) percentFormat(f string, b Value) (Value, error) {
	var args []pyfmt.Arg
	tuple := false
	var mapping pyfmt.Mapping
	switch x := b.(type) {
	case *Tuple:
		tuple = true
		for _, e := range x.elems {
			args = append(args, pctArg{it, e})
		}
	default:
		args = []pyfmt.Arg{pctArg{it, b}}
		if _, isStr := b.(Str); !isStr {
			if _, ok := b.(*Dict); ok {
				mapping = pctMapping{it, b}
			} else if inst, ok := b.(*Instance); ok && inst.cls.Lookup("__getitem__") != nil {
				mapping = pctMapping{it, b}
			}
		}
	}
	s, err := pyfmt.Percent(f, args, tuple, mapping)
	if err != nil {
		return nil, err
	}
	return Str(s), it.checkSize(len(s))
}

// callClass creates an instance: type(x), builtin constructors, host
// constructors, and Python classes (__new__ then __init__).
func (it *Interp) callClass(c *Class, args []Value, kwargs []Kwarg) (Value, error) {
	if c == TypeClass {
		if len(args) == 1 && len(kwargs) == 0 {
			return IncRef(args[0].Type()), nil
		}
		if len(args) == 3 {
			ns, ok := args[2].(*Dict)
			bases, ok2 := args[1].(*Tuple)
			name, ok3 := args[0].(Str)
			if !ok || !ok2 || !ok3 {
				return nil, newTypeError("type.__new__() argument 3 must be dict")
			}
			bs := make([]Value, len(bases.elems))
			copy(bs, bases.elems)
			return it.buildClass(string(name), bs, ns, kwargs)
		}
		return nil, newTypeError("type() takes 1 or 3 arguments")
	}
	if !c.userDefined {
		if c.newFn == nil {
			if c.isExc {
				e := newExcArgs(c, nil)
				it.newGC(e, true)
				vs := make([]Value, len(args))
				for i, a := range args {
					vs[i] = IncRef(a)
				}
				e.exc.args = it.NewTuple(vs)
				return e, nil
			}
			return nil, newTypeError("cannot create '" + it.className(c) + "' instances")
		}
		return c.newFn(it, args, kwargs)
	}
	// A class defined in Python.
	var obj Value
	if nf := c.Lookup("__new__"); nf != nil {
		fn := nf
		if sm, ok := nf.(*StaticMethod); ok {
			fn = sm.fn
		}
		if _, isPy := fn.(*Function); isPy {
			all := append([]Value{c}, args...)
			r, err := it.Call(fn, all, kwargs)
			if err != nil {
				return nil, err
			}
			if !r.Type().IsSubclass(c) {
				return r, nil
			}
			obj = r
		}
	}
	if obj == nil {
		var base *Class
		for _, k := range c.MRO {
			if !k.userDefined && k != ObjectClass {
				base = k
				break
			}
		}
		switch {
		case base == nil || base.isExc:
			inst := it.newInstance(c)
			obj = inst
			if inst.exc != nil {
				vs := make([]Value, len(args))
				for i, a := range args {
					vs[i] = IncRef(a)
				}
				inst.exc.args = it.NewTuple(vs)
			}
		case base.newFn != nil:
			r, err := base.newFn(it, args, kwargs)
			if err != nil {
				return nil, err
			}
			return r, nil
		default:
			return nil, newTypeError("cannot create '" + c.Name + "' instances")
		}
	}
	init := c.Lookup("__init__")
	if f, ok := init.(*Function); ok {
		r, err := it.callMethodValue(f, obj, args, kwargs)
		if err != nil {
			it.DecRef(obj)
			return nil, err
		}
		if r != None {
			it.DecRef(r)
			it.DecRef(obj)
			return nil, newTypeError("__init__() should return None, not '" + r.Type().Name + "'")
		}
		return obj, nil
	}
	if m, ok := init.(*Method); ok && m.Owner == ObjectClass && (len(args) > 0 || len(kwargs) > 0) {
		if c.Lookup("__new__") == nil {
			it.DecRef(obj)
			return nil, newTypeError(c.Name + "() takes no arguments")
		}
	}
	if init != nil {
		if _, ok := init.(*Function); !ok {
			if m, ok := init.(*Method); !ok || m.Owner != ObjectClass {
				r, err := it.callMethodValue(init, obj, args, kwargs)
				if err != nil {
					it.DecRef(obj)
					return nil, err
				}
				it.DecRef(r)
			}
		}
	}
	return obj, nil
}

// buildClass creates a class from a class statement (bases owned by the
// caller, ns borrowed).
func (it *Interp) buildClass(name string, bases []Value, ns *Dict, kws []Kwarg) (*Class, error) {
	c := &Class{Name: name, userDefined: true}
	for _, b := range bases {
		bc, ok := b.(*Class)
		if !ok {
			return nil, newTypeError("bases must be types")
		}
		if bc == BoolClass || bc == FunctionClass || bc == NoneClass || bc == RangeClass || bc == SliceClass {
			return nil, newTypeError("type '" + bc.Name + "' is not an acceptable base type")
		}
		c.Bases = append(c.Bases, IncRef(bc).(*Class))
		if bc.isExc {
			c.isExc = true
		}
	}
	if len(c.Bases) == 0 {
		c.Bases = []*Class{ObjectClass}
	}
	if err := c.computeMRO(); err != nil {
		for _, b := range c.Bases {
			it.DecRef(b)
		}
		return nil, err
	}
	c.Module = "__main__"
	if m, ok := ns.getStr("__module__"); ok {
		if s, ok := m.(Str); ok {
			c.Module = string(s)
		}
	}
	d := it.NewDict()
	for _, e := range ns.entries {
		if e.key == nil {
			continue
		}
		v := e.value
		if k, ok := e.key.(Str); ok {
			switch k {
			case "__init_subclass__", "__class_getitem__":
				if f, ok := v.(*Function); ok {
					cm := &ClassMethod{fn: IncRef(f)}
					it.newGC(cm, true)
					d.SetItem(it, e.key, cm)
					it.DecRef(cm)
					continue
				}
			case "__new__":
				if f, ok := v.(*Function); ok {
					sm := &StaticMethod{fn: IncRef(f)}
					it.newGC(sm, true)
					d.SetItem(it, e.key, sm)
					it.DecRef(sm)
					continue
				}
			case "__eq__":
				if _, has := ns.getStr("__hash__"); !has {
					d.SetItem(it, Str("__hash__"), None)
				}
			}
		}
		if err := d.SetItem(it, e.key, v); err != nil {
			return nil, err
		}
	}
	c.Dict = d
	it.newGC(c, true)
	// __init_subclass__ of the parent.
	for _, k := range c.MRO[1:] {
		if v, ok := k.Dict.getStr("__init_subclass__"); ok {
			if cm, ok := v.(*ClassMethod); ok {
				r, err := it.Call(cm.fn, []Value{c}, kws)
				if err != nil {
					it.DecRef(c)
					return nil, err
				}
				it.DecRef(r)
			}
			break
		}
	}
	return c, nil
}

// dealloc releases a Python class's dict and bases.
func (c *Class) dealloc(it *Interp) { c.clear(it) }

func (c *Class) clear(it *Interp) {
	d := c.Dict
	bases := c.Bases
	c.Dict = newImmortalDict()
	c.Bases = nil
	c.MRO = []*Class{c}
	if d != nil {
		it.DecRef(d)
	}
	for _, b := range bases {
		it.DecRef(b)
	}
}

func (c *Class) traverse(visit func(Value)) {
	if c.Dict != nil {
		visit(c.Dict)
	}
	for _, b := range c.Bases {
		visit(b)
	}
}

// dir returns a sorted list of attribute names.
func (it *Interp) dir(v Value) (Value, error) {
	names := map[string]bool{}
	add := func(d *Dict) {
		if d == nil {
			return
		}
		for _, e := range d.entries {
			if s, ok := e.key.(Str); ok {
				names[string(s)] = true
			}
		}
	}
	switch x := v.(type) {
	case *Module:
		add(x.Dict)
	case *Class:
		for _, k := range x.MRO {
			add(k.Dict)
		}
	default:
		if inst, ok := v.(*Instance); ok {
			add(inst.dict)
		}
		for _, k := range v.Type().MRO {
			add(k.Dict)
		}
	}
	var out []string
	for n := range names {
		out = append(out, n)
	}
	sortStrings(out)
	vs := make([]Value, len(out))
	for i, n := range out {
		vs[i] = Str(n)
	}
	return it.NewList(vs), nil
}

func itoa(i int) string { return strconv.Itoa(i) }
