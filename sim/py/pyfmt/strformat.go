package pyfmt

import "math"

// markupIter walks a str.format template like CPython's MarkupIterator.
type markupIter struct {
	s   []rune
	pos int
}

// markup is one step of the iteration: literal text and, if present, a
// field with its raw name, spec and conversion.
type markup struct {
	literal       string
	hasField      bool
	name          []rune
	spec          []rune
	conversion    rune
	specNeedsExpn bool
}

// next returns the next step; ok is false at the end of the template.
func (it *markupIter) next() (m markup, ok bool, err error) {
	s := it.s
	if it.pos >= len(s) {
		return m, false, nil
	}
	start := it.pos
	var c rune
	follows := false
	for it.pos < len(s) {
		c = s[it.pos]
		it.pos++
		if c == '{' || c == '}' {
			follows = true
			break
		}
	}
	atEnd := it.pos >= len(s)
	n := it.pos - start
	if c == '}' && follows && (atEnd || s[it.pos] != '}') {
		return m, false, valueErr("Single '}' encountered in format string")
	}
	if atEnd && c == '{' && follows {
		return m, false, valueErr("Single '{' encountered in format string")
	}
	if !atEnd && follows {
		if s[it.pos] == c {
			it.pos++
			follows = false
		} else {
			n--
		}
	}
	m.literal = string(s[start : start+n])
	if !follows {
		return m, true, nil
	}
	m.hasField = true
	return m, true, it.parseField(&m)
}

// parseField is CPython's parse_field: name up to ':' '!' or '}' (with
// "[...]" skipped), optional conversion, and a brace-balanced spec.
func (it *markupIter) parseField(m *markup) error {
	s := it.s
	var c rune
	nameStart := it.pos
loop:
	for it.pos < len(s) {
		c = s[it.pos]
		it.pos++
		switch c {
		case '{':
			return valueErr("unexpected '{' in field name")
		case '[':
			for it.pos < len(s) && s[it.pos] != ']' {
				it.pos++
			}
		case '}', ':', '!':
			break loop
		}
	}
	m.name = s[nameStart:max(it.pos-1, nameStart)]
	if c != '!' && c != ':' {
		if c != '}' {
			return valueErr("expected '}' before end of string")
		}
		return nil
	}
	if c == '!' {
		if it.pos >= len(s) {
			return valueErr("end of string while looking for conversion specifier")
		}
		m.conversion = s[it.pos]
		it.pos++
		if it.pos < len(s) {
			c = s[it.pos]
			it.pos++
			if c == '}' {
				m.spec = []rune{}
				return nil
			}
			if c != ':' {
				return valueErr("expected ':' after conversion specifier")
			}
		}
	}
	specStart := it.pos
	count := 1
	for it.pos < len(s) {
		c = s[it.pos]
		it.pos++
		switch c {
		case '{':
			m.specNeedsExpn = true
			count++
		case '}':
			count--
			if count == 0 {
				m.spec = s[specStart : it.pos-1]
				return nil
			}
		}
	}
	return valueErr("unmatched '{' in format spec")
}

// parseFormatString collects all steps of a template.
func parseFormatString(s string) ([]Piece, error) {
	it := &markupIter{s: []rune(s)}
	var out []Piece
	for {
		m, ok, err := it.next()
		if err != nil {
			return out, err
		}
		if !ok {
			return out, nil
		}
		p := Piece{Literal: m.literal, HasField: m.hasField}
		if m.hasField {
			p.FieldName = string(m.name)
			p.Spec = string(m.spec)
			p.Conversion = m.conversion
		}
		out = append(out, p)
	}
}

// fieldInteger is unicode_format.h's get_integer: -1 unless every
// character is a decimal digit; ValueError on overflow.
func fieldInteger(rs []rune) (int, error) {
	if len(rs) == 0 {
		return -1, nil
	}
	acc := 0
	for _, r := range rs {
		d := decimalValue(r)
		if d < 0 {
			return -1, nil
		}
		if acc > (math.MaxInt64-d)/10 {
			return -1, valueErr("Too many decimal digits in format string")
		}
		acc = acc*10 + d
	}
	return acc, nil
}

// autoNumber is CPython's AutoNumber state shared across nested specs.
type autoNumber struct {
	state int // 0 init, 1 auto, 2 manual
	next  int
}

// splitFirst splits a field name at the first '.' or '[' and resolves the
// first part to an argument key, applying automatic numbering when an is
// non-nil (field_name_split).
func splitFirst(name []rune, an *autoNumber) (FieldKey, bool, []rune, error) {
	i := 0
	for i < len(name) && name[i] != '.' && name[i] != '[' {
		i++
	}
	first, rest := name[:i], name[i:]
	idx, err := fieldInteger(first)
	if err != nil {
		return FieldKey{}, false, nil, err
	}
	empty := len(first) == 0
	numeric := empty || idx != -1
	if an != nil {
		if an.state == 0 && numeric {
			an.state = 2
			if empty {
				an.state = 1
			}
		}
		if numeric {
			if an.state == 2 && empty {
				return FieldKey{}, false, nil, valueErr("cannot switch from manual field specification to automatic field numbering")
			}
			if an.state == 1 && !empty {
				return FieldKey{}, false, nil, valueErr("cannot switch from automatic field numbering to manual field specification")
			}
		}
		if empty {
			idx = an.next
			an.next++
		}
	}
	if idx >= 0 {
		return FieldKey{IsIndex: true, Index: idx}, empty, rest, nil
	}
	return FieldKey{Name: string(first)}, empty, rest, nil
}

// nextPart is FieldNameIterator_next: it consumes one ".attr" or "[key]"
// from rest. ok is false when rest is exhausted.
func nextPart(rest []rune) (part FieldPart, remaining []rune, ok bool, err error) {
	if len(rest) == 0 {
		return part, nil, false, nil
	}
	c := rest[0]
	rest = rest[1:]
	var name []rune
	switch c {
	case '.':
		part.IsAttr = true
		i := 0
		for i < len(rest) && rest[i] != '.' && rest[i] != '[' {
			i++
		}
		name, rest = rest[:i], rest[i:]
		part.Key = FieldKey{Name: string(name)}
	case '[':
		i := 0
		for i < len(rest) && rest[i] != ']' {
			i++
		}
		if i == len(rest) {
			return part, nil, false, valueErr("Missing ']' in format field")
		}
		name, rest = rest[:i], rest[i+1:]
		idx, err := fieldInteger(name)
		if err != nil {
			return part, nil, false, err
		}
		if idx >= 0 {
			part.Key = FieldKey{IsIndex: true, Index: idx}
		} else {
			part.Key = FieldKey{Name: string(name)}
		}
	default:
		return part, nil, false, valueErr("Only '.' or '[' may follow ']' in format field specifier")
	}
	if len(name) == 0 {
		return part, nil, false, valueErr("Empty attribute in format string")
	}
	return part, rest, true, nil
}

// splitFieldName parses a whole field name eagerly (no auto numbering).
func splitFieldName(name string) (FieldName, error) {
	first, auto, rest, err := splitFirst([]rune(name), nil)
	if err != nil {
		return FieldName{}, err
	}
	fn := FieldName{Auto: auto, First: first}
	for {
		part, r, ok, err := nextPart(rest)
		if err != nil {
			return fn, err
		}
		if !ok {
			return fn, nil
		}
		fn.Parts = append(fn.Parts, part)
		rest = r
	}
}
