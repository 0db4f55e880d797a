package pyfmt

import (
	"fmt"
	"strconv"
	"strings"
)

// evalFString evaluates an f-string literal (source text with prefix and
// quotes) whose expressions are names of ns, int or str literals.
func evalFString(src string, ns tv) (string, error) {
	i := strings.IndexAny(src, `'"`)
	prefix := strings.ToLower(src[:i])
	q := src[i : i+1]
	if strings.HasPrefix(src[i:], q+q+q) && len(src)-i >= 6 {
		q = q + q + q
	}
	body := src[i+len(q) : len(src)-len(q)]
	parts, err := ParseFString(body, strings.Contains(prefix, "r"))
	if err != nil {
		return "", err
	}
	return renderFParts(parts, ns, !strings.Contains(prefix, "r"))
}

func renderFParts(parts []FStringPart, ns tv, decode bool) (string, error) {
	var b strings.Builder
	for _, p := range parts {
		if p.Expr == "" {
			if decode {
				b.WriteString(decodeSimpleEscapes(p.Literal))
			} else {
				b.WriteString(p.Literal)
			}
			continue
		}
		v, err := evalSimpleExpr(p.Expr, ns)
		if err != nil {
			return "", err
		}
		if p.Conversion != 0 {
			v, _ = tvResolver{}.Convert(v, p.Conversion)
		}
		spec, err := renderFParts(p.Spec, ns, decode)
		if err != nil {
			return "", err
		}
		s, err := formatTV(v, spec)
		if err != nil {
			return "", err
		}
		b.WriteString(s)
	}
	return b.String(), nil
}

// evalSimpleExpr evaluates the tiny expression language of the tests.
func evalSimpleExpr(e string, ns tv) (tv, error) {
	e = strings.TrimSpace(e)
	if n, err := strconv.ParseInt(e, 10, 64); err == nil {
		return tInt64(n), nil
	}
	if len(e) >= 2 && (e[0] == '\'' || e[0] == '"') && e[len(e)-1] == e[0] {
		return tStr(e[1 : len(e)-1]), nil
	}
	if e == "{}" {
		return tv{T: "dict"}, nil
	}
	for i, k := range ns.Keys {
		if k == e {
			return ns.Items[i], nil
		}
	}
	return tv{}, fmt.Errorf("cannot evaluate %q", e)
}

// decodeSimpleEscapes handles the escapes the test f-strings use.
func decodeSimpleEscapes(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '\\' || i+1 == len(s) {
			b.WriteByte(s[i])
			continue
		}
		i++
		switch s[i] {
		case 'n':
			b.WriteByte('\n')
		case 't':
			b.WriteByte('\t')
		case '\\', '\'', '"':
			b.WriteByte(s[i])
		default:
			b.WriteByte('\\')
			b.WriteByte(s[i])
		}
	}
	return b.String()
}
