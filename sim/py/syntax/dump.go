package syntax

import (
	"reflect"
	"strconv"
	"strings"
)

// Dump renders the tree rooted at n as an S-expression for golden tests and
// debugging: `(Type@line:col Field=value ...)`. Identifiers print as
// name@line:col, literals as their value; position fields, zero values and
// nil fields are left out, so the dump shows the shape and where each node
// starts.
func Dump(n Node) string {
	var b strings.Builder
	dumpValue(&b, reflect.ValueOf(n), 0)
	return b.String()
}

var (
	positionType = reflect.TypeOf(Position{})
	tokenType    = reflect.TypeOf(Token(0))
)

func dumpValue(b *strings.Builder, v reflect.Value, depth int) {
	if depth > 2*maxNesting {
		b.WriteString("...")
		return
	}
	switch v.Kind() {
	case reflect.Interface:
		if v.IsNil() {
			b.WriteString("nil")
			return
		}
		dumpValue(b, v.Elem(), depth)
		return
	case reflect.Pointer:
		if v.IsNil() {
			b.WriteString("nil")
			return
		}
		if n, ok := v.Interface().(Node); ok {
			dumpNode(b, n, depth)
			return
		}
		dumpValue(b, v.Elem(), depth)
		return
	case reflect.Slice:
		if v.Type().Elem().Kind() == reflect.Uint8 {
			b.WriteString(strconv.Quote(string(v.Bytes())))
			return
		}
		b.WriteByte('(')
		for i := 0; i < v.Len(); i++ {
			if i > 0 {
				b.WriteByte(' ')
			}
			dumpValue(b, v.Index(i), depth+1)
		}
		b.WriteByte(')')
		return
	case reflect.Struct:
		dumpFields(b, v, depth)
		return
	}
	switch x := v.Interface().(type) {
	case Token:
		b.WriteString(x.String())
	case ParamKind:
		b.WriteString([...]string{"positional", "posonly", "varargs", "kwonly", "kwargs"}[x])
	case ComprehensionKind:
		b.WriteString([...]string{"list", "set", "dict", "gen"}[x])
	case string:
		b.WriteString(strconv.Quote(x))
	default:
		b.WriteString(strconv.Quote(v.String()))
	}
}

func dumpNode(b *strings.Builder, n Node, depth int) {
	start, _ := n.Span()
	switch n := n.(type) {
	case *Ident:
		b.WriteString(n.Name)
		b.WriteByte('@')
		b.WriteString(start.String())
		return
	case *Literal:
		switch n.Token {
		case STRING, BYTES:
			if n.Token == BYTES {
				b.WriteByte('b')
			}
			b.WriteString(strconv.Quote(n.Str))
		case INT:
			if n.BigInt != nil {
				b.WriteString(n.BigInt.String())
			} else {
				b.WriteString(strconv.FormatInt(n.Int, 10))
			}
		case FLOAT:
			b.WriteString(strconv.FormatFloat(n.Float, 'g', -1, 64))
		case IMAG:
			b.WriteString(strconv.FormatFloat(n.Float, 'g', -1, 64))
			b.WriteByte('j')
		default:
			b.WriteString(n.Token.String())
		}
		b.WriteByte('@')
		b.WriteString(start.String())
		return
	}
	v := reflect.ValueOf(n).Elem()
	b.WriteByte('(')
	b.WriteString(v.Type().Name())
	b.WriteByte('@')
	b.WriteString(start.String())
	dumpFieldList(b, v, depth)
	b.WriteByte(')')
}

// dumpFields renders a non-node struct (a Comparison) as (field=value ...).
func dumpFields(b *strings.Builder, v reflect.Value, depth int) {
	b.WriteByte('(')
	b.WriteString(v.Type().Name())
	dumpFieldList(b, v, depth)
	b.WriteByte(')')
}

func dumpFieldList(b *strings.Builder, v reflect.Value, depth int) {
	t := v.Type()
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		fv := v.Field(i)
		if !f.IsExported() || f.Type == positionType || fv.IsZero() && f.Name != "Kind" {
			continue
		}
		if f.Name == "Src" || f.Name == "Path" && t.Name() == "File" {
			continue
		}
		b.WriteByte(' ')
		b.WriteString(f.Name)
		b.WriteByte('=')
		if f.Name == "Conversion" {
			b.WriteByte(byte(fv.Uint()))
			continue
		}
		if fv.Kind() == reflect.Bool {
			b.WriteString("true")
			continue
		}
		dumpValue(b, fv, depth+1)
	}
}
