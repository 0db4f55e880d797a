package pyfmt

import "fmt"

// fstringParser scans an f-string body the way CPython 3.11's
// Parser/string_parser.c does (fstring_find_literal, fstring_find_expr).
type fstringParser struct {
	s   string
	pos int
	raw bool
}

// syntaxErr builds the SyntaxError CPython raises for a malformed f-string.
func syntaxErr(format string, args ...any) *Error {
	return &Error{Type: "SyntaxError", Msg: fmt.Sprintf(format, args...)}
}

// parse parses parts until the end of the body (level 0) or the closing
// '}' of a nested format spec (level > 0).
func (p *fstringParser) parse(level int) ([]FStringPart, error) {
	var parts []FStringPart
	addLit := func(text string) {
		if text == "" {
			return
		}
		if n := len(parts); n > 0 && parts[n-1].Expr == "" {
			parts[n-1].Literal += text
			return
		}
		parts = append(parts, FStringPart{Literal: text})
	}
	for {
		lit, doubled, err := p.literal(level)
		if err != nil {
			return nil, err
		}
		addLit(lit)
		if doubled {
			continue
		}
		if p.pos >= len(p.s) || p.s[p.pos] == '}' {
			break
		}
		part, err := p.expr(level)
		if err != nil {
			return nil, err
		}
		if part.Debug != "" {
			addLit(part.Debug)
		}
		parts = append(parts, part)
	}
	if level != 0 && (p.pos >= len(p.s) || p.s[p.pos] != '}') {
		return nil, syntaxErr("f-string: expecting '}'")
	}
	return parts, nil
}

// literal scans literal text up to an undoubled '{' (or, in a nested
// spec, '{' or '}'). doubled reports that it stopped after a doubled brace,
// whose first character is included in the text.
func (p *fstringParser) literal(level int) (text string, doubled bool, err error) {
	s, start := p.s, p.pos
	i := p.pos
	for i < len(s) {
		ch := s[i]
		i++
		if !p.raw && ch == '\\' && i < len(s) {
			ch = s[i]
			i++
			if ch == 'N' {
				if i < len(s) {
					c := s[i]
					i++
					if c == '{' {
						for i < len(s) {
							c = s[i]
							i++
							if c == '}' {
								break
							}
						}
					}
				}
				continue
			}
		}
		if ch == '{' || ch == '}' {
			if level == 0 {
				if i < len(s) && s[i] == ch {
					p.pos = i + 1
					return s[start:i], true, nil
				}
				if ch == '}' {
					p.pos = i - 1
					return "", false, syntaxErr("f-string: single '}' is not allowed")
				}
			}
			i--
			break
		}
	}
	p.pos = i
	return s[start:i], false, nil
}

// expr parses one replacement field starting at '{'.
func (p *fstringParser) expr(level int) (FStringPart, error) {
	var part FStringPart
	if level >= 2 {
		return part, syntaxErr("f-string: expressions nested too deeply")
	}
	s := p.s
	p.pos++
	start := p.pos
	var quote byte
	triple := false
	var stack []byte
	i := p.pos
scan:
	for ; i < len(s); i++ {
		ch := s[i]
		if ch == '\\' {
			return part, syntaxErr("f-string expression part cannot include a backslash")
		}
		if quote != 0 {
			if ch == quote {
				if triple {
					if i+2 < len(s) && s[i+1] == ch && s[i+2] == ch {
						i += 2
						quote, triple = 0, false
					}
				} else {
					quote = 0
				}
			}
			continue
		}
		switch {
		case ch == '\'' || ch == '"':
			if i+2 < len(s) && s[i+1] == ch && s[i+2] == ch {
				triple = true
				i += 2
			}
			quote = ch
		case ch == '[' || ch == '{' || ch == '(':
			if len(stack) >= 200 {
				return part, syntaxErr("f-string: too many nested parenthesis")
			}
			stack = append(stack, ch)
		case ch == '#':
			return part, syntaxErr("f-string expression part cannot include '#'")
		case len(stack) == 0 && (ch == '!' || ch == ':' || ch == '}' || ch == '=' || ch == '>' || ch == '<'):
			if i+1 < len(s) && s[i+1] == '=' && (ch == '!' || ch == '=' || ch == '<' || ch == '>') {
				i++
				continue
			}
			if ch == '>' || ch == '<' {
				continue
			}
			break scan
		case ch == ']' || ch == '}' || ch == ')':
			if len(stack) == 0 {
				return part, syntaxErr("f-string: unmatched '%c'", ch)
			}
			open := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if !(open == '(' && ch == ')' || open == '[' && ch == ']' || open == '{' && ch == '}') {
				return part, syntaxErr("f-string: closing parenthesis '%c' does not match opening parenthesis '%c'", ch, open)
			}
		}
	}
	p.pos = i
	if quote != 0 {
		return part, syntaxErr("f-string: unterminated string")
	}
	if len(stack) > 0 {
		return part, syntaxErr("f-string: unmatched '%c'", stack[len(stack)-1])
	}
	if p.pos >= len(s) {
		return part, syntaxErr("f-string: expecting '}'")
	}
	part.Expr, part.Offset = s[start:p.pos], start
	if isBlankExpr(part.Expr) {
		if c := s[p.pos]; c == '!' || c == ':' || c == '=' {
			return part, syntaxErr("f-string: expression required before '%c'", c)
		}
		return part, syntaxErr("f-string: empty expression not allowed")
	}
	if s[p.pos] == '=' {
		p.pos++
		for p.pos < len(s) && cIsSpace(s[p.pos]) {
			p.pos++
		}
		if p.pos >= len(s) {
			return part, syntaxErr("f-string: expecting '}'")
		}
		part.Debug = s[start:p.pos]
	}
	if s[p.pos] == '!' {
		p.pos++
		if p.pos >= len(s) {
			return part, syntaxErr("f-string: expecting '}'")
		}
		c := s[p.pos]
		p.pos++
		if c != 's' && c != 'r' && c != 'a' {
			return part, syntaxErr("f-string: invalid conversion character: expected 's', 'r', or 'a'")
		}
		part.Conversion = rune(c)
	}
	if p.pos < len(s) && s[p.pos] == ':' {
		p.pos++
		if p.pos >= len(s) {
			return part, syntaxErr("f-string: expecting '}'")
		}
		spec, err := p.parse(level + 1)
		if err != nil {
			return part, err
		}
		part.HasSpec, part.Spec = true, spec
	}
	if p.pos >= len(s) || s[p.pos] != '}' {
		return part, syntaxErr("f-string: expecting '}'")
	}
	p.pos++
	if part.Debug != "" && !part.HasSpec && part.Conversion == 0 {
		part.Conversion = 'r'
	}
	return part, nil
}

// isBlankExpr reports whether an expression holds only the whitespace
// CPython's f-string scanner ignores.
func isBlankExpr(e string) bool {
	for i := 0; i < len(e); i++ {
		switch e[i] {
		case ' ', '\t', '\n', '\f':
		default:
			return false
		}
	}
	return true
}

// parseFString parses a whole f-string body.
func parseFString(body string, raw bool) ([]FStringPart, error) {
	p := &fstringParser{s: body, raw: raw}
	return p.parse(0)
}
