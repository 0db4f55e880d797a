package pyfmt

import (
	"math"
	"math/big"
	"strconv"
	"strings"
	"unicode"
)

// asciiNumeric is CPython's _PyUnicode_TransformDecimalAndSpaceToASCII:
// non-ASCII whitespace becomes ' ', non-ASCII decimal digits become ASCII
// digits and any other non-ASCII character becomes '?' (never valid).
func asciiNumeric(s string) string {
	ascii := true
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			ascii = false
			break
		}
	}
	if ascii {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		switch {
		case r < 0x80:
			b.WriteRune(r)
		case pyIsSpace(r):
			b.WriteByte(' ')
		case decimalValue(r) >= 0:
			b.WriteByte(byte('0' + decimalValue(r)))
		default:
			b.WriteByte('?')
		}
	}
	return b.String()
}

// pyIsSpace is str.isspace for one character.
func pyIsSpace(r rune) bool { return unicode.IsSpace(r) || (r >= 0x1c && r <= 0x1f) }

// cIsSpace is the C locale's isspace, used once text is ASCII.
func cIsSpace(c byte) bool { return c == ' ' || (c >= '\t' && c <= '\r') }

// trimCSpace strips C-locale whitespace from both ends.
func trimCSpace(s string) string {
	i, j := 0, len(s)
	for i < j && cIsSpace(s[i]) {
		i++
	}
	for j > i && cIsSpace(s[j-1]) {
		j--
	}
	return s[i:j]
}

// parseFloat implements float(str).
func parseFloat(orig string) (float64, error) {
	fail := func() (float64, error) {
		return 0, valueErr("could not convert string to float: %s", strRepr(orig))
	}
	s := trimCSpace(asciiNumeric(orig))
	if strings.IndexByte(s, '_') >= 0 {
		var ok bool
		if s, ok = dropUnderscores(s); !ok {
			return fail()
		}
	}
	body := s
	neg := false
	if body != "" && (body[0] == '+' || body[0] == '-') {
		neg = body[0] == '-'
		body = body[1:]
	}
	switch strings.ToLower(body) {
	case "inf", "infinity":
		return math.Inf(map[bool]int{false: 1, true: -1}[neg]), nil
	case "nan":
		if neg {
			return math.Copysign(math.NaN(), -1), nil
		}
		return math.NaN(), nil
	}
	if !isDecimalFloat(body) {
		return fail()
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil && !math.IsInf(f, 0) && f != 0 {
		return fail()
	}
	return f, nil
}

// dropUnderscores removes underscores that each sit between two digits,
// as CPython's _Py_string_to_number_with_underscores requires.
func dropUnderscores(s string) (string, bool) {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '_' {
			if i == 0 || i == len(s)-1 || !isDigit(s[i-1]) || !isDigit(s[i+1]) {
				return "", false
			}
			continue
		}
		b.WriteByte(s[i])
	}
	return b.String(), true
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// isDecimalFloat matches digits[.digits][e[sign]digits] or .digits[...],
// with at least one mantissa digit.
func isDecimalFloat(s string) bool {
	i, n := 0, 0
	for i < len(s) && isDigit(s[i]) {
		i++
		n++
	}
	if i < len(s) && s[i] == '.' {
		i++
		for i < len(s) && isDigit(s[i]) {
			i++
			n++
		}
	}
	if n == 0 {
		return false
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		m := 0
		for i < len(s) && isDigit(s[i]) {
			i++
			m++
		}
		if m == 0 {
			return false
		}
	}
	return i == len(s)
}

// parseInt implements int(str, base).
func parseInt(orig string, base int) (*big.Int, error) {
	if (base != 0 && base < 2) || base > 36 {
		return nil, valueErr("int() base must be >= 2 and <= 36, or 0")
	}
	fail := func() (*big.Int, error) {
		r := []rune(strRepr(orig))
		if len(r) > 200 {
			r = r[:200]
		}
		return nil, valueErr("invalid literal for int() with base %d: %s", base, string(r))
	}
	s := trimCSpace(asciiNumeric(orig))
	neg := false
	if s != "" && (s[0] == '+' || s[0] == '-') {
		neg = s[0] == '-'
		s = s[1:]
	}
	b := base
	prefixed := false
	if len(s) >= 2 && s[0] == '0' {
		switch s[1] | 0x20 {
		case 'x':
			prefixed = b == 16 || b == 0
			if prefixed {
				b = 16
			}
		case 'o':
			prefixed = b == 8 || b == 0
			if prefixed {
				b = 8
			}
		case 'b':
			prefixed = b == 2 || b == 0
			if prefixed {
				b = 2
			}
		}
	}
	if prefixed {
		s = s[2:]
		// One underscore may follow the base prefix.
		if strings.HasPrefix(s, "_") {
			s = s[1:]
		}
	}
	if b == 0 {
		b = 10
		// Base 0 forbids leading zeros on non-zero decimal numbers.
		if len(s) > 1 && s[0] == '0' && strings.Trim(s, "0_") != "" {
			return fail()
		}
	}
	var digits strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '_' {
			if i == 0 || i == len(s)-1 || s[i+1] == '_' {
				return fail()
			}
			continue
		}
		if digitVal(c) >= b {
			return fail()
		}
		digits.WriteByte(c)
	}
	ds := digits.String()
	if ds == "" {
		return fail()
	}
	if b&(b-1) != 0 && MaxStrDigits > 0 && len(ds) > MaxStrDigits {
		return nil, valueErr("Exceeds the limit (%d digits) for integer string conversion: value has %d digits; use sys.set_int_max_str_digits() to increase the limit", MaxStrDigits, len(ds))
	}
	v, ok := new(big.Int).SetString(ds, b)
	if !ok {
		return fail()
	}
	if neg {
		v.Neg(v)
	}
	return v, nil
}

// digitVal is the value of an ASCII digit or letter in bases up to 36
// (99 for anything else).
func digitVal(c byte) int {
	switch {
	case c >= '0' && c <= '9':
		return int(c - '0')
	case c >= 'a' && c <= 'z':
		return int(c-'a') + 10
	case c >= 'A' && c <= 'Z':
		return int(c-'A') + 10
	}
	return 99
}
