package pickle

import (
	"bytes"
	"unicode/utf8"
)

// globalRef is a GLOBAL or STACK_GLOBAL reference on the decoder stack. Only
// the builtins CPython's protocol 2 and 3 picklers use for sets and bytes are
// accepted, and only as the callable of a REDUCE.
type globalRef struct {
	module, name string
}

// allowedGlobal reports whether module.name is one of the callables CPython
// uses to pickle plain data: set, frozenset, bytes and bytearray (protocols 2
// and 3 have no opcodes for them) and _codecs.encode (protocol 2 bytes).
func allowedGlobal(module, name string) bool {
	switch module {
	case "builtins", "__builtin__":
		return name == "set" || name == "frozenset" || name == "bytes" || name == "bytearray"
	case "_codecs":
		return name == "encode"
	}
	return false
}

// loadGlobal handles GLOBAL (module and name as text lines) and STACK_GLOBAL
// (module and name as strings on the stack).
func (d *decoder) loadGlobal() error {
	var module, name string
	if d.op == opGlobal {
		var err error
		if module, err = d.readLine(); err != nil {
			return err
		}
		if name, err = d.readLine(); err != nil {
			return err
		}
	} else {
		n, err := d.pop()
		if err != nil {
			return err
		}
		m, err := d.pop()
		if err != nil {
			return err
		}
		var ok1, ok2 bool
		module, ok1 = m.(string)
		name, ok2 = n.(string)
		if !ok1 || !ok2 {
			return d.fail(ErrMalformed, "STACK_GLOBAL needs two strings, got %s and %s", pyTypeName(m), pyTypeName(n))
		}
	}
	if !allowedGlobal(module, name) {
		return d.fail(ErrNotPlainData, "snapshot pickles contain only plain data; found a reference to %s.%s", module, name)
	}
	return d.push(globalRef{module: module, name: name})
}

// readLine reads a newline-terminated GLOBAL argument.
func (d *decoder) readLine() (string, error) {
	rest := d.data[d.pos:]
	if len(rest) > maxLineLength+1 {
		rest = rest[:maxLineLength+1]
	}
	i := bytes.IndexByte(rest, '\n')
	if i < 0 {
		if len(rest) > maxLineLength {
			return "", d.fail(ErrMalformed, "GLOBAL name longer than %d bytes", maxLineLength)
		}
		return "", d.fail(ErrTruncated, "GLOBAL name without newline")
	}
	s := rest[:i]
	if !utf8.Valid(s) {
		return "", d.fail(ErrMalformed, "GLOBAL name is not valid UTF-8")
	}
	d.pos += i + 1
	return string(s), nil
}

// loadReduce handles REDUCE for the allowed builtins.
func (d *decoder) loadReduce() error {
	a, err := d.pop()
	if err != nil {
		return err
	}
	f, err := d.pop()
	if err != nil {
		return err
	}
	fn, ok := f.(globalRef)
	if !ok {
		return d.fail(ErrNotPlainData, "REDUCE calls a %s, not an allowed builtin", pyTypeName(f))
	}
	at, ok := a.(*ptuple)
	if !ok {
		return d.fail(ErrMalformed, "REDUCE arguments are a %s, not a tuple", pyTypeName(a))
	}
	v, err := d.call(fn, at.items)
	if err != nil {
		return err
	}
	return d.push(v)
}

// call applies an allowed builtin to its arguments the way CPython would.
func (d *decoder) call(fn globalRef, args []any) (any, error) {
	bad := func() (any, error) {
		return nil, d.fail(ErrNotPlainData, "unexpected arguments to %s.%s", fn.module, fn.name)
	}
	switch fn.name {
	case "set", "frozenset":
		s := NewSet(fn.name == "frozenset")
		if err := d.charge(costContainer); err != nil {
			return nil, err
		}
		if len(args) == 0 {
			return s, nil
		}
		if len(args) != 1 {
			return bad()
		}
		var items []any
		switch it := args[0].(type) {
		case *plist:
			items = it.items
		case *ptuple:
			items = it.items
		default:
			return bad()
		}
		if err := d.addItems(s, items); err != nil {
			return nil, err
		}
		return s, nil
	case "bytes", "bytearray":
		var b []byte
		switch {
		case len(args) == 0:
			b = []byte{}
		case len(args) == 1:
			src, ok := args[0].([]byte)
			if !ok {
				return bad()
			}
			if err := d.charge(costBytes + int64(len(src))); err != nil {
				return nil, err
			}
			b = bytes.Clone(src)
			if b == nil {
				b = []byte{}
			}
		default:
			return bad()
		}
		if fn.name == "bytearray" {
			return ByteArray(b), nil
		}
		return b, nil
	case "encode":
		if len(args) != 2 {
			return bad()
		}
		s, ok1 := args[0].(string)
		enc, ok2 := args[1].(string)
		if !ok1 || !ok2 || (enc != "latin1" && enc != "latin-1") {
			return bad()
		}
		if err := d.charge(costBytes + int64(len(s))); err != nil {
			return nil, err
		}
		b := make([]byte, 0, len(s))
		for _, r := range s {
			if r > 0xFF {
				return nil, d.fail(ErrMalformed, "_codecs.encode: character U+%04X is not latin-1", r)
			}
			b = append(b, byte(r))
		}
		return b, nil
	}
	return bad()
}
