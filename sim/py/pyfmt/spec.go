package pyfmt

import (
	"math"
	"unicode"
	"unicode/utf8"
)

// parseSpec implements CPython's parse_internal_render_format_spec:
// defaultType is the presentation type used when none is given ('d' for
// int, 's' for str, 0 for float), typeName only feeds error messages.
func parseSpec(spec, typeName string, defaultType rune) (Spec, error) {
	s := Spec{Fill: ' ', Width: -1, Precision: -1, Type: defaultType}
	rs := []rune(spec)
	pos, end := 0, len(rs)
	fillGiven, alignGiven := false, false
	if end-pos >= 2 && isAlign(rs[pos+1]) {
		s.Align = byte(rs[pos+1])
		s.Fill = rs[pos]
		fillGiven, alignGiven = true, true
		pos += 2
	} else if end-pos >= 1 && isAlign(rs[pos]) {
		s.Align = byte(rs[pos])
		alignGiven = true
		pos++
	}
	if pos < end && (rs[pos] == ' ' || rs[pos] == '+' || rs[pos] == '-') {
		s.Sign = byte(rs[pos])
		pos++
	}
	if pos < end && rs[pos] == 'z' {
		s.NoNegZero = true
		pos++
	}
	if pos < end && rs[pos] == '#' {
		s.Alt = true
		pos++
	}
	if !fillGiven && pos < end && rs[pos] == '0' {
		s.Fill = '0'
		// Only numbers (default right alignment) get '=' here; strings
		// keep their default left alignment.
		if !alignGiven && defaultType != 's' {
			s.Align = '='
		}
		pos++
	}
	n, consumed, err := specInteger(rs, &pos)
	if err != nil {
		return s, err
	}
	if consumed > 0 {
		s.Width = n
	}
	if pos < end && rs[pos] == ',' {
		s.Grouping = ','
		pos++
	}
	if pos < end && rs[pos] == '_' {
		if s.Grouping != 0 {
			return s, valueErr("Cannot specify both ',' and '_'.")
		}
		s.Grouping = '_'
		pos++
	}
	if pos < end && rs[pos] == ',' && s.Grouping == '_' {
		return s, valueErr("Cannot specify both ',' and '_'.")
	}
	if pos < end && rs[pos] == '.' {
		pos++
		n, consumed, err := specInteger(rs, &pos)
		if err != nil {
			return s, err
		}
		if consumed == 0 {
			return s, valueErr("Format specifier missing precision")
		}
		s.Precision = n
	}
	if end-pos > 1 {
		return s, valueErr("Invalid format specifier '%s' for object of type '%s'", spec, typeName)
	}
	if end-pos == 1 {
		s.Type = rs[pos]
	}
	if s.Grouping != 0 {
		switch s.Type {
		case 'd', 'e', 'f', 'g', 'E', 'G', '%', 'F', 0:
		case 'b', 'o', 'x', 'X':
			if s.Grouping != '_' {
				return s, valueErr("Cannot specify ',' with '%s'.", codeChar(s.Type))
			}
		default:
			return s, valueErr("Cannot specify '%c' with '%s'.", s.Grouping, codeChar(s.Type))
		}
	}
	return s, nil
}

// isAlign reports whether c is an alignment character.
func isAlign(c rune) bool { return c == '<' || c == '>' || c == '=' || c == '^' }

// specInteger consumes Unicode decimal digits at *pos like CPython's
// get_integer, failing when the value would overflow Py_ssize_t.
func specInteger(rs []rune, pos *int) (n, consumed int, err error) {
	var acc int64
	for *pos < len(rs) {
		d := decimalValue(rs[*pos])
		if d < 0 {
			break
		}
		if acc > (math.MaxInt64-int64(d))/10 {
			return 0, consumed, valueErr("Too many decimal digits in format string")
		}
		acc = acc*10 + int64(d)
		*pos++
		consumed++
	}
	if acc > math.MaxInt {
		return 0, consumed, valueErr("Too many decimal digits in format string")
	}
	return int(acc), consumed, nil
}

// decimalValue returns the decimal digit value of r (any Unicode Nd
// character, like Py_UNICODE_TODECIMAL) or -1.
func decimalValue(r rune) int {
	if r >= '0' && r <= '9' {
		return int(r - '0')
	}
	if r < 0x80 || !unicode.Is(unicode.Nd, r) {
		return -1
	}
	// Nd characters come in aligned runs of ten starting at a zero.
	n := 0
	for unicode.Is(unicode.Nd, r-1) && n < 100 {
		r--
		n++
	}
	return n % 10
}

// runeLen counts code points the way Python's len() would for s.
func runeLen(s string) int { return utf8.RuneCountInString(s) }
