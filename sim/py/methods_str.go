package py

import (
	"strconv"
	"strings"
	"unicode"

	"github.com/gpumem/playground/sim/py/pyfmt"
)

type strFn func(it *Interp, s string, args []Value, kw []Kwarg) (Value, error)

// strMethod adds a str method that checks its receiver. Not inlined: its
// closure would be copied into every caller (size of the wasm module).
//
//go:noinline
func strMethod(name string, fn strFn) {
	StrClass.setMethod(name, func(it *Interp, self Value, args []Value, kw []Kwarg) (Value, error) {
		s, ok := self.(Str)
		if !ok {
			return nil, newTypeError("descriptor '" + name + "' requires a 'str' object but received a '" + self.Type().Name + "'")
		}
		return fn(it, string(s), args, kw)
	})
}

func optStrArg(it *Interp, args []Value, i int) (string, bool, error) {
	if len(args) <= i || args[i] == None {
		return "", false, nil
	}
	s, ok := args[i].(Str)
	if !ok {
		return "", false, newTypeError("must be str or None, not " + args[i].Type().Name)
	}
	return string(s), true, nil
}

func strList(it *Interp, parts []string) Value {
	vs := make([]Value, len(parts))
	for i, p := range parts {
		vs[i] = Str(p)
	}
	return it.NewList(vs)
}

func initStrMethods() {
	strMethod("join", func(it *Interp, s string, args []Value, kw []Kwarg) (Value, error) {
		if len(args) != 1 {
			return nil, newTypeError("str.join() takes exactly one argument (" + strconv.Itoa(len(args)) + " given)")
		}
		items, err := it.iterToSlice(args[0])
		if err != nil {
			if e, ok := err.(*Instance); ok && e.cls == TypeError {
				return nil, newTypeError("can only join an iterable")
			}
			return nil, err
		}
		defer it.decRefAll(items)
		parts := make([]string, len(items))
		for i, v := range items {
			p, ok := v.(Str)
			if !ok {
				return nil, newTypeError("sequence item " + strconv.Itoa(i) + ": expected str instance, " + v.Type().Name + " found")
			}
			parts[i] = string(p)
		}
		r := strings.Join(parts, s)
		return Str(r), it.checkSize(len(r))
	})
	strMethod("split", func(it *Interp, s string, args []Value, kw []Kwarg) (Value, error) {
		var sep Value = None
		maxsplit := -1
		if err := UnpackArgs("split", args, kw, "sep?", &sep, "maxsplit?", &maxsplit); err != nil {
			return nil, err
		}
		if sep == None {
			return strList(it, splitWhitespace(s, maxsplit)), nil
		}
		sp := string(sep.(Str))
		if sp == "" {
			return nil, newValueError("empty separator")
		}
		return strList(it, strings.SplitN(s, sp, maxsplitN(maxsplit))), nil
	})
	strMethod("rsplit", func(it *Interp, s string, args []Value, kw []Kwarg) (Value, error) {
		var sep Value = None
		maxsplit := -1
		if err := UnpackArgs("rsplit", args, kw, "sep?", &sep, "maxsplit?", &maxsplit); err != nil {
			return nil, err
		}
		if sep == None || maxsplit < 0 {
			if sep == None {
				return strList(it, splitWhitespace(s, -1)), nil
			}
			return strList(it, strings.Split(s, string(sep.(Str)))), nil
		}
		sp := string(sep.(Str))
		var parts []string
		for maxsplit > 0 {
			i := strings.LastIndex(s, sp)
			if i < 0 {
				break
			}
			parts = append([]string{s[i+len(sp):]}, parts...)
			s = s[:i]
			maxsplit--
		}
		return strList(it, append([]string{s}, parts...)), nil
	})
	strMethod("splitlines", func(it *Interp, s string, args []Value, kw []Kwarg) (Value, error) {
		var keep bool
		if err := UnpackArgs("splitlines", args, kw, "keepends?", &keep); err != nil {
			return nil, err
		}
		var out []string
		for len(s) > 0 {
			i := strings.IndexAny(s, "\n\r")
			if i < 0 {
				out = append(out, s)
				break
			}
			end := i + 1
			if s[i] == '\r' && i+1 < len(s) && s[i+1] == '\n' {
				end++
			}
			if keep {
				out = append(out, s[:end])
			} else {
				out = append(out, s[:i])
			}
			s = s[end:]
		}
		return strList(it, out), nil
	})
	for _, n := range []string{"strip", "lstrip", "rstrip"} {
		name := n
		strMethod(name, func(it *Interp, s string, args []Value, kw []Kwarg) (Value, error) {
			chars, has, err := optStrArg(it, args, 0)
			if err != nil {
				return nil, err
			}
			switch name {
			case "strip":
				if !has {
					return Str(strings.TrimFunc(s, unicode.IsSpace)), nil
				}
				return Str(strings.Trim(s, chars)), nil
			case "lstrip":
				if !has {
					return Str(strings.TrimLeftFunc(s, unicode.IsSpace)), nil
				}
				return Str(strings.TrimLeft(s, chars)), nil
			}
			if !has {
				return Str(strings.TrimRightFunc(s, unicode.IsSpace)), nil
			}
			return Str(strings.TrimRight(s, chars)), nil
		})
	}
	for _, n := range []string{"startswith", "endswith"} {
		name := n
		strMethod(name, func(it *Interp, s string, args []Value, kw []Kwarg) (Value, error) {
			if len(args) < 1 {
				return nil, newTypeError(name + "() takes at least 1 argument (0 given)")
			}
			var cands []string
			switch p := args[0].(type) {
			case Str:
				cands = []string{string(p)}
			case *Tuple:
				for _, e := range p.elems {
					es, ok := e.(Str)
					if !ok {
						return nil, newTypeError("tuple for " + name + " must only contain str, not " + e.Type().Name)
					}
					cands = append(cands, string(es))
				}
			default:
				return nil, newTypeError(name + " first arg must be str or a tuple of str, not " + args[0].Type().Name)
			}
			for _, c := range cands {
				if name == "startswith" && strings.HasPrefix(s, c) || name == "endswith" && strings.HasSuffix(s, c) {
					return True, nil
				}
			}
			return False, nil
		})
	}
	strMethod("replace", func(it *Interp, s string, args []Value, kw []Kwarg) (Value, error) {
		var old, nw string
		count := -1
		if err := UnpackArgs("replace", args, kw, "old", &old, "new", &nw, "count?", &count); err != nil {
			return nil, err
		}
		r := strings.Replace(s, old, nw, count)
		return Str(r), it.checkSize(len(r))
	})
	strMethod("upper", func(it *Interp, s string, args []Value, kw []Kwarg) (Value, error) {
		return Str(strings.ToUpper(s)), nil
	})
	strMethod("lower", func(it *Interp, s string, args []Value, kw []Kwarg) (Value, error) {
		return Str(strings.ToLower(s)), nil
	})
	strMethod("title", func(it *Interp, s string, args []Value, kw []Kwarg) (Value, error) {
		prev := false
		out := []rune(s)
		for i, r := range out {
			if unicode.IsLetter(r) {
				if prev {
					out[i] = unicode.ToLower(r)
				} else {
					out[i] = unicode.ToUpper(r)
				}
				prev = true
			} else {
				prev = false
			}
		}
		return Str(string(out)), nil
	})
	strMethod("capitalize", func(it *Interp, s string, args []Value, kw []Kwarg) (Value, error) {
		if s == "" {
			return Str(""), nil
		}
		rs := []rune(strings.ToLower(s))
		rs[0] = unicode.ToUpper(rs[0])
		return Str(string(rs)), nil
	})
	for _, n := range []string{"find", "rfind", "index", "rindex", "count"} {
		name := n
		strMethod(name, func(it *Interp, s string, args []Value, kw []Kwarg) (Value, error) {
			if len(args) < 1 {
				return nil, newTypeError(name + "() takes at least 1 argument (0 given)")
			}
			sub, ok := args[0].(Str)
			if !ok {
				return nil, newTypeError("must be str, not " + args[0].Type().Name)
			}
			switch name {
			case "count":
				return Int(strings.Count(s, string(sub))), nil
			case "find", "index":
				i := strings.Index(s, string(sub))
				if i < 0 && name == "index" {
					return nil, newValueError("substring not found")
				}
				if i > 0 {
					i = strLen(s[:i])
				}
				return Int(i), nil
			}
			i := strings.LastIndex(s, string(sub))
			if i < 0 && name == "rindex" {
				return nil, newValueError("substring not found")
			}
			if i > 0 {
				i = strLen(s[:i])
			}
			return Int(i), nil
		})
	}
	for _, n := range []string{"isdigit", "isalpha", "isspace", "isalnum", "isupper", "islower", "isnumeric", "isdecimal", "isidentifier"} {
		name := n
		strMethod(name, func(it *Interp, s string, args []Value, kw []Kwarg) (Value, error) {
			if s == "" {
				return False, nil
			}
			cased := false
			for i, r := range s {
				switch name {
				case "isdigit", "isnumeric", "isdecimal":
					if !unicode.IsDigit(r) {
						return False, nil
					}
				case "isalpha":
					if !unicode.IsLetter(r) {
						return False, nil
					}
				case "isspace":
					if !unicode.IsSpace(r) {
						return False, nil
					}
				case "isalnum":
					if !unicode.IsLetter(r) && !unicode.IsDigit(r) {
						return False, nil
					}
				case "isupper":
					if unicode.IsLower(r) {
						return False, nil
					}
					cased = cased || unicode.IsUpper(r)
				case "islower":
					if unicode.IsUpper(r) {
						return False, nil
					}
					cased = cased || unicode.IsLower(r)
				case "isidentifier":
					if !(unicode.IsLetter(r) || r == '_' || (i > 0 && unicode.IsDigit(r))) {
						return False, nil
					}
				}
			}
			if name == "isupper" || name == "islower" {
				return boolOf(cased), nil
			}
			return True, nil
		})
	}
	for _, n := range []string{"ljust", "rjust", "center"} {
		name := n
		strMethod(name, func(it *Interp, s string, args []Value, kw []Kwarg) (Value, error) {
			var width int
			fill := " "
			if err := UnpackArgs(name, args, kw, "width", &width, "fillchar?", &fill); err != nil {
				return nil, err
			}
			if strLen(fill) != 1 {
				return nil, newTypeError("The fill character must be exactly one character long")
			}
			n := strLen(s)
			if width <= n {
				return Str(s), nil
			}
			if err := it.checkSize(width); err != nil {
				return nil, err
			}
			pad := width - n
			switch name {
			case "ljust":
				return Str(s + strings.Repeat(fill, pad)), nil
			case "rjust":
				return Str(strings.Repeat(fill, pad) + s), nil
			}
			left := pad / 2
			if pad%2 == 1 && width%2 == 1 {
				left++
			}
			return Str(strings.Repeat(fill, left) + s + strings.Repeat(fill, pad-left)), nil
		})
	}
	strMethod("zfill", func(it *Interp, s string, args []Value, kw []Kwarg) (Value, error) {
		var width int
		if err := UnpackArgs("zfill", args, kw, "width", &width); err != nil {
			return nil, err
		}
		n := strLen(s)
		if width <= n {
			return Str(s), nil
		}
		sign := ""
		if len(s) > 0 && (s[0] == '-' || s[0] == '+') {
			sign, s = s[:1], s[1:]
		}
		return Str(sign + strings.Repeat("0", width-n) + s), nil
	})
	strMethod("partition", func(it *Interp, s string, args []Value, kw []Kwarg) (Value, error) {
		var sep string
		if err := UnpackArgs("partition", args, kw, "sep", &sep); err != nil {
			return nil, err
		}
		i := strings.Index(s, sep)
		if i < 0 {
			return it.NewTuple([]Value{Str(s), Str(""), Str("")}), nil
		}
		return it.NewTuple([]Value{Str(s[:i]), Str(sep), Str(s[i+len(sep):])}), nil
	})
	strMethod("rpartition", func(it *Interp, s string, args []Value, kw []Kwarg) (Value, error) {
		var sep string
		if err := UnpackArgs("rpartition", args, kw, "sep", &sep); err != nil {
			return nil, err
		}
		i := strings.LastIndex(s, sep)
		if i < 0 {
			return it.NewTuple([]Value{Str(""), Str(""), Str(s)}), nil
		}
		return it.NewTuple([]Value{Str(s[:i]), Str(sep), Str(s[i+len(sep):])}), nil
	})
	strMethod("format", func(it *Interp, s string, args []Value, kw []Kwarg) (Value, error) {
		fr := &formatResolver{it: it, args: args, kw: kw}
		r, err := pyfmt.Format[Value](s, fr)
		it.decRefAll(fr.tmp)
		if err != nil {
			return nil, err
		}
		return Str(r), it.checkSize(len(r))
	})
	strMethod("encode", func(it *Interp, s string, args []Value, kw []Kwarg) (Value, error) {
		return Bytes(s), nil
	})
	strMethod("removeprefix", func(it *Interp, s string, args []Value, kw []Kwarg) (Value, error) {
		var p string
		if err := UnpackArgs("removeprefix", args, kw, "prefix", &p); err != nil {
			return nil, err
		}
		return Str(strings.TrimPrefix(s, p)), nil
	})
	strMethod("removesuffix", func(it *Interp, s string, args []Value, kw []Kwarg) (Value, error) {
		var p string
		if err := UnpackArgs("removesuffix", args, kw, "suffix", &p); err != nil {
			return nil, err
		}
		return Str(strings.TrimSuffix(s, p)), nil
	})
	strMethod("swapcase", func(it *Interp, s string, args []Value, kw []Kwarg) (Value, error) {
		rs := []rune(s)
		for i, r := range rs {
			if unicode.IsUpper(r) {
				rs[i] = unicode.ToLower(r)
			} else {
				rs[i] = unicode.ToUpper(r)
			}
		}
		return Str(string(rs)), nil
	})
	strMethod("expandtabs", func(it *Interp, s string, args []Value, kw []Kwarg) (Value, error) {
		return Str(strings.ReplaceAll(s, "\t", "        ")), nil
	})
}

func maxsplitN(m int) int {
	if m < 0 {
		return -1
	}
	return m + 1
}

func splitWhitespace(s string, maxsplit int) []string {
	var out []string
	i := 0
	rs := []rune(s)
	for i < len(rs) {
		for i < len(rs) && unicode.IsSpace(rs[i]) {
			i++
		}
		if i >= len(rs) {
			break
		}
		if maxsplit >= 0 && len(out) == maxsplit {
			end := len(rs)
			for end > i && unicode.IsSpace(rs[end-1]) {
				end--
			}
			out = append(out, string(rs[i:end]))
			return out
		}
		j := i
		for j < len(rs) && !unicode.IsSpace(rs[j]) {
			j++
		}
		out = append(out, string(rs[i:j]))
		i = j
	}
	if out == nil {
		out = []string{}
	}
	return out
}

// formatResolver adapts the object model to pyfmt.Format (str.format).
type formatResolver struct {
	it   *Interp
	args []Value
	kw   []Kwarg
	tmp  []Value
}

func (r *formatResolver) Arg(key pyfmt.FieldKey) (Value, error) {
	if key.IsIndex {
		if key.Index >= len(r.args) {
			return nil, NewException(IndexError, "Replacement index "+strconv.Itoa(key.Index)+" out of range for positional args tuple")
		}
		return r.args[key.Index], nil
	}
	for _, k := range r.kw {
		if k.Name == key.Name {
			return k.Value, nil
		}
	}
	return nil, newExcArgs(KeyError, []Value{Str(key.Name)})
}

func (r *formatResolver) Attr(v Value, name string) (Value, error) {
	a, err := r.it.GetAttr(v, name)
	if err != nil {
		return nil, err
	}
	r.tmp = append(r.tmp, a)
	return a, nil
}

func (r *formatResolver) Item(v Value, key pyfmt.FieldKey) (Value, error) {
	var k Value = Str(key.Name)
	if key.IsIndex {
		k = Int(key.Index)
	}
	a, err := r.it.GetItem(v, k)
	if err != nil {
		return nil, err
	}
	r.tmp = append(r.tmp, a)
	return a, nil
}

func (r *formatResolver) Convert(v Value, conv rune) (Value, error) {
	switch conv {
	case 'r', 'a':
		s, err := r.it.Repr(v)
		if conv == 'a' {
			s = asciiOf(s)
		}
		return Str(s), err
	case 's':
		s, err := r.it.Str(v)
		return Str(s), err
	}
	return nil, newValueError("Unknown conversion specifier " + string(conv))
}

func (r *formatResolver) Format(v Value, spec string) (string, error) {
	return r.it.Format(v, spec)
}
