package py

import (
	"strconv"
	"strings"
)

// UnpackArgs binds positional and keyword arguments to Go variables with
// CPython's TypeError messages. pairs alternate a parameter name and a
// pointer: "x" is required, "x?" optional (remaining after the first
// optional are optional too), "*" alone marks the following names keyword
// only. Pointer types: *Value (any value, borrowed), *int, *int64,
// *float64, *string, *bool (truth value), **Class, *[]Value (rest of the
// positionals when the name is "*args").
//
//	var x py.Value; var dim int = -1; var keep bool
//	err := py.UnpackArgs("sum", args, kwargs, "input", &x, "dim?", &dim, "*", "keepdim?", &keep)
func UnpackArgs(fn string, args []Value, kwargs []Kwarg, pairs ...any) error {
	type param struct {
		name     string
		ptr      any
		optional bool
		kwOnly   bool
		rest     bool
	}
	var ps []param
	kwOnly := false
	optional := false
	for i := 0; i < len(pairs); i++ {
		name, ok := pairs[i].(string)
		if !ok {
			return &InternalError{Msg: "UnpackArgs: bad pairs for " + fn}
		}
		if name == "*" {
			kwOnly = true
			continue
		}
		if i+1 >= len(pairs) {
			return &InternalError{Msg: "UnpackArgs: missing pointer for " + name}
		}
		p := param{ptr: pairs[i+1], kwOnly: kwOnly}
		i++
		if strings.HasPrefix(name, "*") {
			p.rest = true
			name = name[1:]
		}
		if strings.HasSuffix(name, "?") {
			optional = true
			name = name[:len(name)-1]
		}
		p.name = name
		p.optional = optional || p.rest
		ps = append(ps, p)
	}
	set := make([]bool, len(ps))
	npos := 0
	restIdx := -1
	for i, p := range ps {
		if p.rest {
			restIdx = i
			break
		}
		if !p.kwOnly {
			npos++
		}
	}
	if len(args) > npos && restIdx < 0 {
		s := "s"
		if npos == 1 {
			s = ""
		}
		was := "were"
		if len(args) == 1 {
			was = "was"
		}
		return newTypeError(fn + "() takes " + strconv.Itoa(npos) + " positional argument" + s + " but " + strconv.Itoa(len(args)) + " " + was + " given")
	}
	for i, a := range args {
		if i >= npos {
			if err := assignArg(fn, ps[restIdx].name, ps[restIdx].ptr, args[npos:]); err != nil {
				return err
			}
			set[restIdx] = true
			break
		}
		if err := assignArg(fn, ps[i].name, ps[i].ptr, a); err != nil {
			return err
		}
		set[i] = true
	}
	for _, k := range kwargs {
		found := false
		for i, p := range ps {
			if p.name == k.Name && !p.rest {
				if set[i] {
					return newTypeError(fn + "() got multiple values for argument '" + k.Name + "'")
				}
				if err := assignArg(fn, p.name, p.ptr, k.Value); err != nil {
					return err
				}
				set[i] = true
				found = true
				break
			}
		}
		if !found {
			return newTypeError(fn + "() got an unexpected keyword argument '" + k.Name + "'")
		}
	}
	for i, p := range ps {
		if !set[i] && !p.optional {
			if p.kwOnly {
				return newTypeError(fn + "() missing required keyword-only argument: '" + p.name + "'")
			}
			return newTypeError(fn + "() missing required argument '" + p.name + "' (pos " + strconv.Itoa(i+1) + ")")
		}
	}
	return nil
}

func assignArg(fn, name string, ptr any, v any) error {
	switch p := ptr.(type) {
	case *[]Value:
		*p = v.([]Value)
		return nil
	}
	val := v.(Value)
	bad := func(want string) error {
		return newTypeError(fn + "() argument '" + name + "' must be " + want + ", not " + val.Type().Name)
	}
	switch p := ptr.(type) {
	case *Value:
		*p = val
	case *int:
		i, ok := smallInt(val)
		if !ok {
			return bad("int")
		}
		*p = int(i)
	case *int64:
		i, ok := smallInt(val)
		if !ok {
			return bad("int")
		}
		*p = i
	case *float64:
		f, ok, _ := toFloat(val)
		if !ok {
			return bad("float")
		}
		*p = f
	case *string:
		s, ok := val.(Str)
		if !ok {
			return bad("str")
		}
		*p = string(s)
	case *bool:
		switch b := val.(type) {
		case Bool:
			*p = bool(b)
		case Int:
			*p = b != 0
		case NoneType:
			*p = false
		default:
			*p = true
		}
	case **Class:
		c, ok := val.(*Class)
		if !ok {
			return bad("type")
		}
		*p = c
	default:
		return &InternalError{Msg: "UnpackArgs: unsupported pointer type for " + name}
	}
	return nil
}
