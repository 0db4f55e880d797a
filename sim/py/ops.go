package py

import (
	"strings"
)

var opSymbols = [...]string{
	OpAdd: "+", OpSub: "-", OpMul: "*", OpMatMul: "@", OpTrueDiv: "/", OpFloorDiv: "//",
	OpMod: "%", OpPow: "** or pow()", OpLShift: "<<", OpRShift: ">>", OpAnd: "&", OpOr: "|", OpXor: "^",
	OpEq: "==", OpNe: "!=", OpLt: "<", OpLe: "<=", OpGt: ">", OpGe: ">=",
	OpNeg: "unary -", OpPos: "unary +", OpInvert: "unary ~",
}

var opNames = [...]string{
	OpAdd: "add", OpSub: "sub", OpMul: "mul", OpMatMul: "matmul", OpTrueDiv: "truediv",
	OpFloorDiv: "floordiv", OpMod: "mod", OpPow: "pow", OpLShift: "lshift", OpRShift: "rshift",
	OpAnd: "and", OpOr: "or", OpXor: "xor",
	OpEq: "eq", OpNe: "ne", OpLt: "lt", OpLe: "le", OpGt: "gt", OpGe: "ge",
	OpNeg: "neg", OpPos: "pos", OpInvert: "invert",
}

// binaryOp computes a op b (borrowed operands; new reference).
func (it *Interp) binaryOp(op Op, a, b Value) (Value, error) {
	if v, ok, err := it.numericOp(op, a, b); ok || err != nil {
		return v, err
	}
	if v, ok, err := it.seqOp(op, a, b); ok || err != nil {
		return v, err
	}
	v, err := it.dunderBinary(op, a, b)
	if err != nil {
		return nil, err
	}
	if v != nil {
		return v, nil
	}
	return nil, newTypeError("unsupported operand type(s) for " + opSymbols[op] + ": '" + a.Type().Name + "' and '" + b.Type().Name + "'")
}

// dunderBinary tries __op__ on a then __rop__ on b (and host hooks); nil
// result means both returned NotImplemented.
func (it *Interp) dunderBinary(op Op, a, b Value) (Value, error) {
	name := opNames[op]
	ta, tb := a.Type(), b.Type()
	rightFirst := ta != tb && tb.IsSubclass(ta) && tb.Lookup("__r"+name+"__") != nil && !tb.builtin
	try := func(x, y Value, reflected bool) (Value, error) {
		if h, ok := x.(HasBinary); ok {
			r, err := h.Binary(it, op, y, reflected)
			if err != nil || r != NotImplemented {
				return r, err
			}
		}
		if _, ok := x.(*Instance); !ok {
			if _, isHost := x.(HasBinary); !isHost {
				return NotImplemented, nil
			}
		}
		m := "__" + name + "__"
		if reflected {
			m = "__r" + name + "__"
		}
		f := x.Type().Lookup(m)
		if f == nil {
			return NotImplemented, nil
		}
		return it.callMethodValue(f, x, []Value{y}, nil)
	}
	if rightFirst {
		r, err := try(b, a, true)
		if err != nil || r != NotImplemented {
			return r, err
		}
		r, err = try(a, b, false)
		if err != nil || r != NotImplemented {
			return r, err
		}
		return nil, nil
	}
	r, err := try(a, b, false)
	if err != nil || r != NotImplemented {
		return r, err
	}
	if ta != tb || (ta.host != nil) {
		r, err = try(b, a, true)
		if err != nil || r != NotImplemented {
			return r, err
		}
	}
	return nil, nil
}

// inplaceOp computes a op= b: __iop__ / host Inplace first, then binaryOp.
func (it *Interp) inplaceOp(op Op, a, b Value) (Value, error) {
	switch x := a.(type) {
	case *List:
		switch op {
		case OpAdd:
			vs, err := it.iterToSlice(b)
			if err != nil {
				if e, ok := err.(*Instance); ok && e.cls == TypeError {
					return nil, newTypeError("'" + b.Type().Name + "' object is not iterable")
				}
				return nil, err
			}
			if err := it.checkSize(len(x.elems) + len(vs)); err != nil {
				it.decRefAll(vs)
				return nil, err
			}
			x.elems = append(x.elems, vs...)
			return IncRef(x), nil
		case OpMul:
			n, ok := smallInt(b)
			if !ok {
				break
			}
			if n <= 0 {
				x.clear(it)
				return IncRef(x), nil
			}
			if err := it.checkSize(len(x.elems) * int(n)); err != nil || int64(len(x.elems))*n > int64(it.limits.MaxCollection) {
				if err == nil {
					err = it.checkSize(-1)
				}
				return nil, err
			}
			orig := x.elems
			for i := int64(1); i < n; i++ {
				for _, e := range orig {
					x.elems = append(x.elems, IncRef(e))
				}
			}
			return IncRef(x), nil
		}
	case *Dict:
		if op == OpOr {
			if err := it.dictUpdate(x, b, false); err != nil {
				return nil, err
			}
			return IncRef(x), nil
		}
	case *Set:
		if !x.frozen {
			if r, ok, err := it.setInplace(op, x, b); ok || err != nil {
				return r, err
			}
		}
	case HasInplace:
		r, err := x.Inplace(it, op, b)
		if err != nil || r != NotImplemented {
			return r, err
		}
	case *Instance:
		if f := x.cls.Lookup("__i" + opNames[op] + "__"); f != nil {
			r, err := it.callMethodValue(f, x, []Value{b}, nil)
			if err != nil || r != NotImplemented {
				return r, err
			}
		}
	}
	v, err := it.binaryOp(op, a, b)
	if err != nil {
		if e, ok := err.(*Instance); ok && e.cls == TypeError && strings.HasPrefix(excStr(nil, e), "unsupported operand") {
			return nil, newTypeError("unsupported operand type(s) for " + opSymbols[op] + "=: '" + a.Type().Name + "' and '" + b.Type().Name + "'")
		}
	}
	return v, err
}

// unaryOp computes -a, +a, ~a.
func (it *Interp) unaryOp(op Op, a Value) (Value, error) {
	switch x := a.(type) {
	case Int:
		switch op {
		case OpNeg:
			if x != -x || x == 0 {
				return -x, nil
			}
			return it.intOp(OpSub, Int(0), x)
		case OpPos:
			return x, nil
		case OpInvert:
			return ^x, nil
		}
	case Bool:
		i := Int(0)
		if x {
			i = 1
		}
		return it.unaryOp(op, i)
	case *BigInt:
		switch op {
		case OpNeg:
			return it.intOp(OpSub, Int(0), x)
		case OpPos:
			return x, nil
		case OpInvert:
			return it.intOp(OpSub, Int(-1), x)
		}
	case Float:
		switch op {
		case OpNeg:
			return -x, nil
		case OpPos:
			return x, nil
		}
	case HasUnary:
		return x.Unary(it, op)
	case *Instance:
		if f := x.cls.Lookup("__" + opNames[op] + "__"); f != nil {
			return it.callMethodValue(f, x, nil, nil)
		}
	}
	return nil, newTypeError("bad operand type for " + opSymbols[op] + ": '" + a.Type().Name + "'")
}

var reflectedCmp = [...]Op{OpEq: OpEq, OpNe: OpNe, OpLt: OpGt, OpLe: OpGe, OpGt: OpLt, OpGe: OpLe}

// richCompare computes a op b for comparison operators (new reference).
func (it *Interp) richCompare(op Op, a, b Value) (Value, error) {
	if c, ok := numCompare(a, b); ok {
		return boolOf(cmpResult(op, c)), nil
	}
	if c, ok, err := it.builtinCompare(op, a, b); ok || err != nil {
		if err != nil {
			return nil, err
		}
		return boolOf(c), nil
	}
	try := func(x, y Value, o Op, reflected bool) (Value, error) {
		if h, ok := x.(HasCompare); ok {
			r, err := h.Compare(it, o, y, reflected)
			if err != nil || r != NotImplemented {
				return r, err
			}
		}
		if _, ok := x.(*Instance); ok {
			if f := x.Type().Lookup("__" + opNames[o] + "__"); f != nil {
				return it.callMethodValue(f, x, []Value{y}, nil)
			}
		}
		return NotImplemented, nil
	}
	ta, tb := a.Type(), b.Type()
	if ta != tb && tb.IsSubclass(ta) {
		r, err := try(b, a, reflectedCmp[op], true)
		if err != nil || r != NotImplemented {
			return r, err
		}
	}
	r, err := try(a, b, op, false)
	if err != nil || r != NotImplemented {
		return r, err
	}
	r, err = try(b, a, reflectedCmp[op], true)
	if err != nil || r != NotImplemented {
		return r, err
	}
	switch op {
	case OpEq:
		return boolOf(isSame(a, b)), nil
	case OpNe:
		return boolOf(!isSame(a, b)), nil
	}
	return nil, newTypeError("'" + opSymbols[op] + "' not supported between instances of '" + ta.Name + "' and '" + tb.Name + "'")
}

func cmpResult(op Op, c int) bool {
	if c == 2 { // unordered (NaN)
		return op == OpNe
	}
	switch op {
	case OpEq:
		return c == 0
	case OpNe:
		return c != 0
	case OpLt:
		return c < 0
	case OpLe:
		return c <= 0
	case OpGt:
		return c > 0
	}
	return c >= 0
}

// builtinCompare compares strs, tuples, lists, None, dicts, sets.
func (it *Interp) builtinCompare(op Op, a, b Value) (bool, bool, error) {
	switch x := a.(type) {
	case Str:
		y, ok := b.(Str)
		if !ok {
			break
		}
		return cmpResult(op, strings.Compare(string(x), string(y))), true, nil
	case Bytes:
		y, ok := b.(Bytes)
		if !ok {
			break
		}
		return cmpResult(op, strings.Compare(string(x), string(y))), true, nil
	case *Tuple:
		y, ok := b.(*Tuple)
		if !ok {
			break
		}
		return it.seqCompare(op, x.elems, y.elems)
	case *List:
		y, ok := b.(*List)
		if !ok {
			break
		}
		return it.seqCompare(op, x.elems, y.elems)
	case NoneType:
		if op == OpEq || op == OpNe {
			return (b == None) == (op == OpEq), true, nil
		}
	case *Dict:
		y, ok := b.(*Dict)
		if !ok || (op != OpEq && op != OpNe) {
			break
		}
		eq, err := it.dictEqual(x, y)
		return eq == (op == OpEq), true, err
	case *Set:
		y, ok := b.(*Set)
		if !ok {
			break
		}
		return it.setCompare(op, x, y)
	case *Class, *Function, *Builtin, *Module, *Method:
		if op == OpEq || op == OpNe {
			return isSame(a, b) == (op == OpEq), true, nil
		}
	case *BoundMethod:
		y, ok := b.(*BoundMethod)
		if op == OpEq || op == OpNe {
			eq := ok && isSame(x.fn, y.fn) && isSame(x.self, y.self)
			return eq == (op == OpEq), true, nil
		}
	}
	return false, false, nil
}

func (it *Interp) seqCompare(op Op, x, y []Value) (bool, bool, error) {
	n := len(x)
	if len(y) < n {
		n = len(y)
	}
	for i := 0; i < n; i++ {
		if isSame(x[i], y[i]) {
			continue
		}
		eq, err := it.equal(x[i], y[i])
		if err != nil {
			return false, true, err
		}
		if eq {
			continue
		}
		if op == OpEq {
			return false, true, nil
		}
		if op == OpNe {
			return true, true, nil
		}
		r, err := it.richCompare(op, x[i], y[i])
		if err != nil {
			return false, true, err
		}
		t, err := it.Truth(r)
		it.DecRef(r)
		return t, true, err
	}
	c := 0
	if len(x) < len(y) {
		c = -1
	} else if len(x) > len(y) {
		c = 1
	}
	return cmpResult(op, c), true, nil
}

// equal reports a == b as a Go bool.
func (it *Interp) equal(a, b Value) (bool, error) {
	if isSame(a, b) {
		if f, ok := a.(Float); ok && f != f {
			return false, nil
		}
		return true, nil
	}
	r, err := it.richCompare(OpEq, a, b)
	if err != nil {
		return false, err
	}
	t, err := it.Truth(r)
	it.DecRef(r)
	return t, err
}

// Truth returns bool(v).
func (it *Interp) Truth(v Value) (bool, error) {
	switch x := v.(type) {
	case Bool:
		return bool(x), nil
	case Int:
		return x != 0, nil
	case NoneType:
		return false, nil
	case Str:
		return x != "", nil
	case Float:
		return x != 0, nil
	case *BigInt:
		return true, nil
	case *List:
		return len(x.elems) > 0, nil
	case *Tuple:
		return len(x.elems) > 0, nil
	case *Dict:
		return x.n > 0, nil
	case *Set:
		return x.n > 0, nil
	case Bytes:
		return len(x) > 0, nil
	case *Range:
		return x.length() > 0, nil
	case HasTruth:
		return x.Truth(it)
	case *Instance:
		if f := x.cls.Lookup("__bool__"); f != nil {
			r, err := it.callMethodValue(f, x, nil, nil)
			if err != nil {
				return false, err
			}
			b, ok := r.(Bool)
			if !ok {
				it.DecRef(r)
				return false, newTypeError("__bool__ should return bool, returned " + r.Type().Name)
			}
			return bool(b), nil
		}
		if f := x.cls.Lookup("__len__"); f != nil {
			n, err := it.Len(x)
			return n > 0, err
		}
		return true, nil
	case HasLen:
		n, err := x.Len(it)
		return n > 0, err
	}
	return true, nil
}

// Len returns len(v).
func (it *Interp) Len(v Value) (int, error) {
	switch x := v.(type) {
	case Str:
		return strLen(string(x)), nil
	case *List:
		return len(x.elems), nil
	case *Tuple:
		return len(x.elems), nil
	case *Dict:
		return x.n, nil
	case *Set:
		return x.n, nil
	case Bytes:
		return len(x), nil
	case *Range:
		return int(x.length()), nil
	case HasLen:
		return x.Len(it)
	case *Instance:
		if f := x.cls.Lookup("__len__"); f != nil {
			r, err := it.callMethodValue(f, x, nil, nil)
			if err != nil {
				return 0, err
			}
			n, ok := r.(Int)
			if !ok {
				it.DecRef(r)
				return 0, newTypeError("'" + r.Type().Name + "' object cannot be interpreted as an integer")
			}
			if n < 0 {
				return 0, newValueError("__len__() should return >= 0")
			}
			return int(n), nil
		}
	}
	return 0, newTypeError("object of type '" + v.Type().Name + "' has no len()")
}

// Contains reports whether x in container.
func (it *Interp) Contains(container, x Value) (bool, error) {
	switch c := container.(type) {
	case Str:
		s, ok := x.(Str)
		if !ok {
			return false, newTypeError("'in <string>' requires string as left operand, not " + x.Type().Name)
		}
		return strings.Contains(string(c), string(s)), nil
	case *List:
		return it.seqContains(c.elems, x)
	case *Tuple:
		return it.seqContains(c.elems, x)
	case *Dict:
		i, _, err := it.dictLookup(&c.dictCore, x)
		return i >= 0, err
	case *Set:
		return c.Contains(it, x)
	case *Range:
		return c.contains(x), nil
	case *Instance:
		if f := c.cls.Lookup("__contains__"); f != nil {
			r, err := it.callMethodValue(f, c, []Value{x}, nil)
			if err != nil {
				return false, err
			}
			t, err := it.Truth(r)
			it.DecRef(r)
			return t, err
		}
	}
	iter, err := it.Iter(container)
	if err != nil {
		return false, newTypeError("argument of type '" + container.Type().Name + "' is not iterable")
	}
	defer it.DecRef(iter)
	for {
		v, ok, err := it.Next(iter)
		if err != nil || !ok {
			return false, err
		}
		eq, err := it.equal(v, x)
		it.DecRef(v)
		if err != nil || eq {
			return eq, err
		}
	}
}

func (it *Interp) seqContains(elems []Value, x Value) (bool, error) {
	for i := 0; i < len(elems); i++ {
		e := elems[i]
		if isSame(e, x) {
			return true, nil
		}
		eq, err := it.equal(e, x)
		if err != nil || eq {
			return eq, err
		}
	}
	return false, nil
}

// hash returns hash(v).
func (it *Interp) hash(v Value) (int64, error) {
	switch x := v.(type) {
	case Int:
		return int64(x), nil
	case Str:
		var h int64 = 1469598103934665603
		for i := 0; i < len(x); i++ {
			h = (h ^ int64(x[i])) * 1099511628211
		}
		return h, nil
	case *Instance:
		if f := x.cls.Lookup("__hash__"); f != nil {
			if f == None {
				return 0, newTypeError("unhashable type: '" + x.cls.Name + "'")
			}
			if _, ok := f.(*Function); ok {
				r, err := it.callMethodValue(f, x, nil, nil)
				if err != nil {
					return 0, err
				}
				n, ok := r.(Int)
				if !ok {
					it.DecRef(r)
					return 0, newTypeError("__hash__ method should return an integer")
				}
				return int64(n), nil
			}
		}
	case HasHash:
		return x.Hash(it)
	case *Set:
		var h int64
		for _, e := range x.entries {
			if e.key != nil {
				eh, err := it.hash(e.key)
				if err != nil {
					return 0, err
				}
				h ^= eh*2654435761 + 97531
			}
		}
		return h, nil
	case *Tuple:
		var h int64 = 0x345678
		for _, e := range x.elems {
			eh, err := it.hash(e)
			if err != nil {
				return 0, err
			}
			h = (h ^ eh) * 1000003
		}
		return h, nil
	}
	k, _, err := it.hashKey(v)
	if err != nil {
		return 0, err
	}
	switch kk := k.(type) {
	case int64:
		return kk, nil
	case string:
		return it.hash(Str(kk))
	case float64:
		return int64(kk * 1e6), nil
	}
	if o, ok := v.(Object); ok {
		return int64(it.id(o) >> 4), nil
	}
	return 0, nil
}
