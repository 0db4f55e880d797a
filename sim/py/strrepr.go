package py

import (
	"math/big"
	"strconv"
	"strings"

	"github.com/gpumem/playground/sim/py/pyfmt"
)

// Str returns str(v).
func (it *Interp) Str(v Value) (string, error) {
	switch x := v.(type) {
	case Str:
		return string(x), nil
	case *Instance:
		if f := x.cls.Lookup("__str__"); f != nil {
			if _, ok := f.(*Function); ok {
				return it.callStrMethod(f, x, "__str__")
			}
		}
		if x.exc != nil {
			return excStr(it, x), nil
		}
	case HasStr:
		return x.Str(it)
	}
	return it.Repr(v)
}

func (it *Interp) callStrMethod(f Value, x Value, name string) (string, error) {
	r, err := it.callMethodValue(f, x, nil, nil)
	if err != nil {
		return "", err
	}
	s, ok := r.(Str)
	if !ok {
		it.DecRef(r)
		return "", newTypeError(name + " returned non-string (type " + r.Type().Name + ")")
	}
	return string(s), nil
}

// Repr returns repr(v).
func (it *Interp) Repr(v Value) (string, error) {
	switch x := v.(type) {
	case NoneType:
		return "None", nil
	case Bool:
		if x {
			return "True", nil
		}
		return "False", nil
	case Int:
		return strconv.FormatInt(int64(x), 10), nil
	case *BigInt:
		return pyfmt.IntStr(x.v)
	case Float:
		return pyfmt.FloatRepr(float64(x)), nil
	case Str:
		return pyfmt.StrRepr(string(x)), nil
	case Bytes:
		return bytesRepr(string(x)), nil
	case EllipsisType:
		return "Ellipsis", nil
	case NotImplementedType:
		return "NotImplemented", nil
	case *List:
		return it.reprSeq(x, "[", "]", x.elems, false)
	case *Tuple:
		return it.reprSeq(x, "(", ")", x.elems, len(x.elems) == 1)
	case *Dict:
		return it.reprDict(x)
	case *Set:
		if x.n == 0 {
			if x.frozen {
				return "frozenset()", nil
			}
			return "set()", nil
		}
		s, err := it.reprSeq(x, "{", "}", x.elemsList(), false)
		if x.frozen && err == nil {
			s = "frozenset(" + s + ")"
		}
		return s, err
	case *Range:
		if x.step == 1 {
			return "range(" + strconv.FormatInt(x.start, 10) + ", " + strconv.FormatInt(x.stop, 10) + ")", nil
		}
		return "range(" + strconv.FormatInt(x.start, 10) + ", " + strconv.FormatInt(x.stop, 10) + ", " + strconv.FormatInt(x.step, 10) + ")", nil
	case *Slice:
		a, _ := it.Repr(x.Start)
		b, _ := it.Repr(x.Stop)
		c, _ := it.Repr(x.Step)
		return "slice(" + a + ", " + b + ", " + c + ")", nil
	case *Class:
		if x.isExc && x.builtin && x.Module == "builtins" || x.builtin && !x.isExc && x.host == nil {
			return "<class '" + x.Name + "'>", nil
		}
		mod := x.Module
		if m, ok := x.Dict.getStr("__module__"); ok {
			if s, ok := m.(Str); ok {
				mod = string(s)
			}
		}
		q := x.Name
		if qv, ok := x.Dict.getStr("__qualname__"); ok {
			if s, ok := qv.(Str); ok {
				q = string(s)
			}
		}
		if mod == "builtins" || mod == "" {
			return "<class '" + q + "'>", nil
		}
		return "<class '" + mod + "." + q + "'>", nil
	case *Function:
		return "<function " + x.qualname() + " at " + it.addr(x) + ">", nil
	case *Generator:
		return "<generator object " + x.qual + " at " + it.addr(x) + ">", nil
	case *BoundMethod:
		fname := ""
		if f, ok := x.fn.(*Function); ok {
			fname = f.code.qualname
		}
		sr, err := it.Repr(x.self)
		if err != nil {
			return "", err
		}
		return "<bound method " + fname + " of " + sr + ">", nil
	case *Builtin:
		if x.self != nil {
			return "<built-in method " + x.Name + " of " + x.self.Type().Name + " object at " + it.addrOf(x.self) + ">", nil
		}
		return "<built-in function " + x.Name + ">", nil
	case *Method:
		return "<method '" + x.Name + "' of '" + x.Owner.Name + "' objects>", nil
	case *Module:
		return "<module '" + x.Name + "' (built-in)>", nil
	case *Instance:
		if f := x.cls.Lookup("__repr__"); f != nil {
			if _, ok := f.(*Function); ok {
				return it.callStrMethod(f, x, "__repr__")
			}
		}
		if x.exc != nil {
			args, err := it.reprSeq(x.exc.args, "(", ")", x.exc.args.elems, len(x.exc.args.elems) == 1)
			if err != nil {
				return "", err
			}
			if len(x.exc.args.elems) == 1 {
				args = args[:len(args)-2] + ")"
			}
			return x.cls.Name + args, nil
		}
		return "<" + it.className(x.cls) + " object at " + it.addr(x) + ">", nil
	case HasRepr:
		return x.Repr(it)
	}
	if o, ok := v.(Object); ok {
		return "<" + it.className(v.Type()) + " object at " + it.addr(o) + ">", nil
	}
	return "<" + v.Type().Name + " object>", nil
}

func (it *Interp) className(c *Class) string {
	mod := c.Module
	if m, ok := c.Dict.getStr("__module__"); ok {
		if s, ok := m.(Str); ok {
			mod = string(s)
		}
	}
	q := c.Name
	if qv, ok := c.Dict.getStr("__qualname__"); ok {
		if s, ok := qv.(Str); ok {
			q = string(s)
		}
	}
	if mod == "builtins" || mod == "" {
		return q
	}
	return mod + "." + q
}

func (it *Interp) addr(o Object) string {
	return "0x" + strconv.FormatUint(it.id(o), 16)
}

func (it *Interp) addrOf(v Value) string {
	if o, ok := v.(Object); ok {
		return it.addr(o)
	}
	return "0x0"
}

func (it *Interp) reprSeq(self Object, open, close string, elems []Value, trailingComma bool) (string, error) {
	if it.reprEnter(self) {
		return open + "..." + close, nil
	}
	defer it.reprLeave(self)
	var sb strings.Builder
	sb.WriteString(open)
	for i, e := range elems {
		if i > 0 {
			sb.WriteString(", ")
		}
		s, err := it.Repr(e)
		if err != nil {
			return "", err
		}
		sb.WriteString(s)
		if sb.Len() > it.limits.MaxOutput*4 {
			return "", it.checkSize(-1)
		}
	}
	if trailingComma {
		sb.WriteString(",")
	}
	sb.WriteString(close)
	return sb.String(), nil
}

func (it *Interp) reprDict(d *Dict) (string, error) {
	if it.reprEnter(d) {
		return "{...}", nil
	}
	defer it.reprLeave(d)
	var sb strings.Builder
	sb.WriteString("{")
	first := true
	for _, e := range d.entries {
		if e.key == nil {
			continue
		}
		if !first {
			sb.WriteString(", ")
		}
		first = false
		k, err := it.Repr(e.key)
		if err != nil {
			return "", err
		}
		v, err := it.Repr(e.value)
		if err != nil {
			return "", err
		}
		sb.WriteString(k)
		sb.WriteString(": ")
		sb.WriteString(v)
	}
	sb.WriteString("}")
	return sb.String(), nil
}

func (it *Interp) reprEnter(o Object) bool {
	for _, x := range it.reprStack {
		if x == o {
			return true
		}
	}
	it.reprStack = append(it.reprStack, o)
	return false
}

func (it *Interp) reprLeave(o Object) {
	it.reprStack = it.reprStack[:len(it.reprStack)-1]
}

func bytesRepr(s string) string {
	var sb strings.Builder
	q := byte('\'')
	if strings.IndexByte(s, '\'') >= 0 && strings.IndexByte(s, '"') < 0 {
		q = '"'
	}
	sb.WriteString("b")
	sb.WriteByte(q)
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == q || c == '\\':
			sb.WriteByte('\\')
			sb.WriteByte(c)
		case c == '\n':
			sb.WriteString(`\n`)
		case c == '\r':
			sb.WriteString(`\r`)
		case c == '\t':
			sb.WriteString(`\t`)
		case c < 32 || c >= 127:
			sb.WriteString(`\x`)
			sb.WriteString(strconv.FormatInt(int64(c)+0x100, 16)[1:])
		default:
			sb.WriteByte(c)
		}
	}
	sb.WriteByte(q)
	return sb.String()
}

func asciiOf(repr string) string { return pyfmt.ASCII(repr) }

// Format returns format(v, spec).
func (it *Interp) Format(v Value, spec string) (string, error) {
	switch x := v.(type) {
	case Str:
		if spec == "" {
			return string(x), nil
		}
		return pyfmt.FormatString(string(x), spec)
	case Int:
		if spec == "" {
			return strconv.FormatInt(int64(x), 10), nil
		}
		return pyfmt.FormatInt64(int64(x), spec)
	case *BigInt:
		return pyfmt.FormatInt(x.v, spec)
	case Bool:
		return pyfmt.FormatBool(bool(x), spec)
	case Float:
		if spec == "" {
			return pyfmt.FloatRepr(float64(x)), nil
		}
		return pyfmt.FormatFloat(float64(x), spec)
	case HasFormat:
		return x.Format(it, spec)
	case *Instance:
		if f := x.cls.Lookup("__format__"); f != nil {
			if _, ok := f.(*Function); ok {
				r, err := it.callMethodValue(f, x, []Value{Str(spec)}, nil)
				if err != nil {
					return "", err
				}
				s, ok := r.(Str)
				if !ok {
					it.DecRef(r)
					return "", newTypeError("__format__ must return a str, not " + r.Type().Name)
				}
				return string(s), nil
			}
		}
	}
	if spec != "" {
		return "", newTypeError("unsupported format string passed to " + v.Type().Name + ".__format__")
	}
	return it.Str(v)
}

// intValueBig returns the *big.Int of an int-like value.
func intValueBig(v Value) *big.Int {
	b, _ := toBig(v)
	return b
}
