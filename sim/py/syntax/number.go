package syntax

// Numeric literals: ints of any size, floats and imaginary numbers, with
// CPython's messages for malformed ones.

import (
	"math/big"
	"strconv"
	"strings"
)

// scanNumber scans an int, float or imaginary literal, following CPython's
// tokenizer and its messages.
func (s *scanner) scanNumber(t *token) {
	start := s.off
	startPos := s.pos()
	kind := "decimal"
	isFloat := false
	c := s.src[s.off]
	if c == '0' && (s.peekByte(1)|0x20 == 'x' || s.peekByte(1)|0x20 == 'o' || s.peekByte(1)|0x20 == 'b') {
		base := s.peekByte(1) | 0x20
		kind = map[byte]string{'x': "hexadecimal", 'o': "octal", 'b': "binary"}[base]
		s.off += 2
		s.col += 2
		digits := 0
		for {
			if s.peekByte(0) == '_' {
				s.off++
				s.col++
			}
			d := s.peekByte(0)
			if !isBaseDigit(d, base) {
				if isDigit(d) && base != 'x' {
					s.errorf(KindSyntax, s.pos(), "invalid digit '%c' in %s literal", d, kind)
					return
				}
				if digits == 0 || s.src[s.off-1] == '_' {
					s.errorf(KindSyntax, s.prevPos(), "invalid %s literal", kind)
					return
				}
				break
			}
			s.off++
			s.col++
			digits++
		}
		if !s.endOfNumber(kind) {
			return
		}
		s.intValue(t, string(s.src[start+2:s.off]), int(map[byte]int{'x': 16, 'o': 8, 'b': 2}[base]))
		return
	}
	// Decimal: integer part (possibly empty before '.').
	if c != '.' {
		if !s.digits() {
			return
		}
	}
	if s.peekByte(0) == '.' {
		isFloat = true
		s.off++
		s.col++
		if isDigit(s.peekByte(0)) && !s.digits() {
			return
		}
	}
	if s.peekByte(0)|0x20 == 'e' {
		save, saveCol := s.off, s.col
		s.off++
		s.col++
		if s.peekByte(0) == '+' || s.peekByte(0) == '-' {
			s.off++
			s.col++
			if !isDigit(s.peekByte(0)) {
				s.errorf(KindSyntax, s.prevPos(), "invalid decimal literal")
				return
			}
		}
		if !isDigit(s.peekByte(0)) {
			// "1else" is allowed: the 'e' starts a keyword.
			s.off, s.col = save, saveCol
			if !s.endOfNumber(kind) {
				return
			}
			s.numberValue(t, start, isFloat, startPos)
			return
		}
		if !s.digits() {
			return
		}
		isFloat = true
	}
	if s.peekByte(0)|0x20 == 'j' {
		s.off++
		s.col++
		if !s.endOfNumber("imaginary") {
			return
		}
		f, _ := strconv.ParseFloat(strings.ReplaceAll(string(s.src[start:s.off-1]), "_", ""), 64)
		t.tok = IMAG
		t.fval = f
		return
	}
	if !s.endOfNumber(kind) {
		return
	}
	s.numberValue(t, start, isFloat, startPos)
}

func (s *scanner) numberValue(t *token, start int, isFloat bool, startPos Position) {
	text := string(s.src[start:s.off])
	if isFloat {
		f, _ := strconv.ParseFloat(strings.ReplaceAll(text, "_", ""), 64)
		t.tok = FLOAT
		t.fval = f
		return
	}
	digits := strings.ReplaceAll(text, "_", "")
	if len(digits) > 1 && digits[0] == '0' && strings.Trim(digits, "0") != "" {
		s.errorf(KindSyntax, startPos, "leading zeros in decimal integer literals are not permitted; use an 0o prefix for octal integers")
		return
	}
	s.intValue(t, text, 10)
}

func (s *scanner) intValue(t *token, text string, base int) {
	t.tok = INT
	digits := strings.ReplaceAll(text, "_", "")
	if v, err := strconv.ParseInt(digits, base, 64); err == nil {
		t.ival = v
		return
	}
	b, ok := new(big.Int).SetString(digits, base)
	if !ok {
		s.errorf(KindSyntax, t.pos, "invalid literal %q", text)
		return
	}
	t.bigval = b
}

func isBaseDigit(c, base byte) bool {
	switch base {
	case 'x':
		return isDigit(c) || c|0x20 >= 'a' && c|0x20 <= 'f'
	case 'o':
		return c >= '0' && c <= '7'
	}
	return c == '0' || c == '1'
}

// digits scans decimal digits with single underscores between them.
func (s *scanner) digits() bool {
	for {
		for isDigit(s.peekByte(0)) {
			s.off++
			s.col++
		}
		if s.peekByte(0) != '_' {
			return true
		}
		s.off++
		s.col++
		if !isDigit(s.peekByte(0)) {
			s.errorf(KindSyntax, s.prevPos(), "invalid decimal literal")
			return false
		}
	}
}

// endOfNumber checks that a number is not directly followed by a name
// character, except for the keywords CPython tolerates there.
func (s *scanner) endOfNumber(kind string) bool {
	c := s.peekByte(0)
	if !isIdentByte(c) {
		// CPython 3.11 lets a non-ASCII character follow a number: it
		// starts a new (identifier) token.
		return true
	}
	rest := s.src[s.off:s.limit]
	for _, kw := range [...]string{"and", "else", "for", "if", "in", "is", "not", "or"} {
		if len(rest) >= len(kw) && string(rest[:len(kw)]) == kw {
			return true
		}
	}
	s.errorf(KindSyntax, s.prevPos(), "invalid %s literal", kind)
	return false
}
