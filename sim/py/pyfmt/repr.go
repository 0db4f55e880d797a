package pyfmt

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

const hexDigits = "0123456789abcdef"

// strRepr implements repr(str) (CPython's unicode_repr): single quotes
// unless the text has a single quote and no double quote; backslash, the
// quote, \t \n \r escaped; other non-printable characters as \xhh, \uhhhh
// or \Uhhhhhhhh. Go's unicode.IsPrint matches Python's str.isprintable
// (letters, marks, numbers, punctuation, symbols and the ASCII space).
// An invalid UTF-8 byte b is shown as the lone surrogate \udcXX it would
// be under Python's surrogateescape error handler.
func strRepr(s string) string {
	quote := byte('\'')
	if strings.IndexByte(s, '\'') >= 0 && strings.IndexByte(s, '"') < 0 {
		quote = '"'
	}
	var b strings.Builder
	b.Grow(len(s) + 2)
	b.WriteByte(quote)
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			i++
			switch {
			case c == quote || c == '\\':
				b.WriteByte('\\')
				b.WriteByte(c)
			case c == '\t':
				b.WriteString(`\t`)
			case c == '\n':
				b.WriteString(`\n`)
			case c == '\r':
				b.WriteString(`\r`)
			case c < ' ' || c == 0x7f:
				writeHexEscape(&b, rune(c))
			default:
				b.WriteByte(c)
			}
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			writeHexEscape(&b, 0xdc00+rune(c))
			i++
			continue
		}
		if unicode.IsPrint(r) {
			b.WriteString(s[i : i+size])
		} else {
			writeHexEscape(&b, r)
		}
		i += size
	}
	b.WriteByte(quote)
	return b.String()
}

// writeHexEscape writes \xhh, \uhhhh or \Uhhhhhhhh for r, as CPython does.
func writeHexEscape(b *strings.Builder, r rune) {
	var n int
	switch {
	case r <= 0xff:
		b.WriteString(`\x`)
		n = 2
	case r <= 0xffff:
		b.WriteString(`\u`)
		n = 4
	default:
		b.WriteString(`\U`)
		n = 8
	}
	for k := n - 1; k >= 0; k-- {
		b.WriteByte(hexDigits[(r>>(4*k))&0xf])
	}
}

// asciiOf escapes every non-ASCII character of a repr text, which is what
// ascii() does after repr(). Invalid UTF-8 bytes become \udcXX.
func asciiOf(repr string) string {
	var b strings.Builder
	for i := 0; i < len(repr); {
		c := repr[i]
		if c < utf8.RuneSelf {
			b.WriteByte(c)
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(repr[i:])
		if r == utf8.RuneError && size == 1 {
			r = 0xdc00 + rune(c)
		}
		writeHexEscape(&b, r)
		i += size
	}
	return b.String()
}
