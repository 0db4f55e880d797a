package pyfmt

import (
	"encoding/json"
	"fmt"
	"strconv"
)

// evalOp mirrors testdata/oracle.py's run() with this package.
func evalOp(op string, a []any) (string, error) {
	switch op {
	case "format":
		return formatTV(val(a, 0), str(a, 1))
	case "repr":
		return testArg{val(a, 0)}.Repr()
	case "round":
		nd, _ := strconv.Atoi(str(a, 1))
		v := val(a, 0)
		if v.T == "int" {
			return RoundInt(v.bigInt(), nd).String(), nil
		}
		f, err := Round(v.float(), nd)
		return FloatRepr(f), err
	case "round0":
		i, err := RoundToInt(val(a, 0).float())
		if err != nil {
			return "", err
		}
		return i.String(), nil
	case "divmod":
		q, r, err := FloatDivmod(val(a, 0).float(), val(a, 1).float())
		return joinReprs(FloatRepr(q), FloatRepr(r)), err
	case "floordiv":
		q, err := FloatFloorDiv(val(a, 0).float(), val(a, 1).float())
		return FloatRepr(q), err
	case "mod":
		r, err := FloatMod(val(a, 0).float(), val(a, 1).float())
		return FloatRepr(r), err
	case "float":
		f, err := ParseFloat(str(a, 0))
		return FloatRepr(f), err
	case "int":
		base, _ := strconv.Atoi(str(a, 1))
		i, err := ParseInt(str(a, 0), base)
		if err != nil {
			return "", err
		}
		return i.String(), nil
	case "percent":
		return percentTV(str(a, 0), val(a, 1))
	case "strformat":
		return Format[tv](str(a, 0), tvResolver{args: val(a, 1).Items, kw: val(a, 2)})
	case "parse":
		return parseJSON(str(a, 0))
	case "strrepr":
		return StrRepr(str(a, 0)), nil
	case "ascii":
		return ASCII(StrRepr(str(a, 0))), nil
	case "fstring":
		return evalFString(str(a, 0), val(a, 1))
	}
	return "", fmt.Errorf("unknown op %q", op)
}

// formatTV is format(v, spec) for a test value.
func formatTV(v tv, spec string) (string, error) {
	switch v.T {
	case "int":
		return FormatInt(v.bigInt(), spec)
	case "float":
		return FormatFloat(v.float(), spec)
	case "str":
		return FormatString(v.V, spec)
	case "bool":
		return FormatBool(v.V == "1", spec)
	}
	if spec != "" {
		return "", &Error{"TypeError", "unsupported format string passed to " + testArg{v}.TypeName() + ".__format__"}
	}
	return testArg{v}.Str()
}

// percentTV is fmt % v with CPython's operand classification.
func percentTV(format string, v tv) (string, error) {
	switch v.T {
	case "tuple":
		args := make([]Arg, len(v.Items))
		for i, it := range v.Items {
			args[i] = testArg{it}
		}
		return Percent(format, args, true, nil)
	case "dict":
		return Percent(format, []Arg{testArg{v}}, false, testMapping{v})
	case "list":
		// A list supports __getitem__, so CPython treats it as a mapping.
		return Percent(format, []Arg{testArg{v}}, false, testMapping{tv{T: "dict"}})
	}
	return Percent(format, []Arg{testArg{v}}, false, nil)
}

// parseJSON renders ParseFormatString like list(_string.formatter_parser(s)).
func parseJSON(s string) (string, error) {
	pieces, err := ParseFormatString(s)
	if err != nil {
		return "", err
	}
	out := []any{}
	for _, p := range pieces {
		if !p.HasField {
			out = append(out, []any{p.Literal, nil, nil, nil})
			continue
		}
		var conv any
		if p.Conversion != 0 {
			conv = string(p.Conversion)
		}
		out = append(out, []any{p.Literal, p.FieldName, p.Spec, conv})
	}
	b, err := json.Marshal(out)
	return pyJSON(string(b)), err
}

// tvResolver resolves str.format fields against test values.
type tvResolver struct {
	args []tv
	kw   tv
}

func (r tvResolver) Arg(k FieldKey) (tv, error) {
	if k.IsIndex {
		if k.Index >= len(r.args) {
			return tv{}, IndexOutOfRange(k.Index)
		}
		return r.args[k.Index], nil
	}
	for i, key := range r.kw.Keys {
		if key == k.Name {
			return r.kw.Items[i], nil
		}
	}
	return tv{}, &Error{"KeyError", StrRepr(k.Name)}
}

func (r tvResolver) Attr(v tv, name string) (tv, error) {
	switch {
	case name == "real" && (v.T == "int" || v.T == "float"):
		return v, nil
	case name == "imag" && v.T == "int":
		return tInt("0"), nil
	}
	return tv{}, &Error{"AttributeError", fmt.Sprintf("'%s' object has no attribute %s", testArg{v}.TypeName(), StrRepr(name))}
}

func (r tvResolver) Item(v tv, k FieldKey) (tv, error) {
	switch v.T {
	case "list", "tuple":
		if !k.IsIndex {
			return tv{}, &Error{"TypeError", v.T + " indices must be integers or slices, not str"}
		}
		if k.Index >= len(v.Items) {
			return tv{}, &Error{"IndexError", v.T + " index out of range"}
		}
		return v.Items[k.Index], nil
	case "dict":
		if k.IsIndex {
			return tv{}, &Error{"KeyError", strconv.Itoa(k.Index)}
		}
		for i, key := range v.Keys {
			if key == k.Name {
				return v.Items[i], nil
			}
		}
		return tv{}, &Error{"KeyError", StrRepr(k.Name)}
	}
	return tv{}, &Error{"TypeError", fmt.Sprintf("'%s' object is not subscriptable", testArg{v}.TypeName())}
}

func (r tvResolver) Convert(v tv, conv rune) (tv, error) {
	var s string
	var err error
	switch conv {
	case 's':
		s, err = testArg{v}.Str()
	case 'r':
		s, err = testArg{v}.Repr()
	case 'a':
		s, err = testArg{v}.Repr()
		s = ASCII(s)
	}
	return tStr(s), err
}

func (r tvResolver) Format(v tv, spec string) (string, error) { return formatTV(v, spec) }

// pyJSON rewrites Go's JSON to Python's json.dumps spacing and escaping.
func pyJSON(s string) string {
	var v any
	if err := json.Unmarshal([]byte(s), &v); err != nil {
		return s
	}
	return dumpPy(v)
}

// dumpPy encodes like Python's json.dumps with default settings.
func dumpPy(v any) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case string:
		return asciiJSONString(x)
	case []any:
		s := "["
		for i, e := range x {
			if i > 0 {
				s += ", "
			}
			s += dumpPy(e)
		}
		return s + "]"
	}
	return fmt.Sprint(v)
}

// asciiJSONString quotes s like json.dumps (ensure_ascii=True).
func asciiJSONString(s string) string {
	b := []byte{'"'}
	for _, r := range s {
		switch {
		case r == '"':
			b = append(b, '\\', '"')
		case r == '\\':
			b = append(b, '\\', '\\')
		case r == '\n':
			b = append(b, '\\', 'n')
		case r == '\r':
			b = append(b, '\\', 'r')
		case r == '\t':
			b = append(b, '\\', 't')
		case r == '\b':
			b = append(b, '\\', 'b')
		case r == '\f':
			b = append(b, '\\', 'f')
		case r < 0x20 || (r >= 0x7f && r <= 0xffff):
			b = append(b, fmt.Sprintf("\\u%04x", r)...)
		case r > 0xffff:
			r -= 0x10000
			b = append(b, fmt.Sprintf("\\u%04x\\u%04x", 0xd800+(r>>10), 0xdc00+(r&0x3ff))...)
		default:
			b = append(b, byte(r))
		}
	}
	return string(append(b, '"'))
}
