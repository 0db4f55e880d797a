package syntax

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// String prefix flags.
const (
	prefixRaw = 1 << iota
	prefixBytes
	prefixF
	prefixU
)

// stringPrefix reports whether word is a valid string prefix (r, b, rb, f,
// rf, u in any case and order) and returns its flags.
func stringPrefix(word []byte) (int, bool) {
	flags := 0
	for _, c := range word {
		var f int
		switch c | 0x20 {
		case 'r':
			f = prefixRaw
		case 'b':
			f = prefixBytes
		case 'f':
			f = prefixF
		case 'u':
			f = prefixU
		default:
			return 0, false
		}
		if flags&f != 0 {
			return 0, false
		}
		flags |= f
	}
	switch {
	case flags&prefixU != 0 && flags != prefixU:
		return 0, false
	case flags&prefixBytes != 0 && flags&prefixF != 0:
		return 0, false
	}
	return flags, true
}

// scanString scans a string literal whose prefix (of the given flags)
// starts at s.off.
func (s *scanner) scanString(t *token, flags int) {
	startPos := s.pos()
	for s.src[s.off] != '"' && s.src[s.off] != '\'' {
		s.off++
		s.col++
	}
	q := s.src[s.off]
	triple := s.peekByte(1) == q && s.peekByte(2) == q
	qlen := 1
	if triple {
		qlen = 3
	}
	s.off += qlen
	s.col += int32(qlen)
	bodyOff, bodyPos := s.off, s.pos()
	bodyEnd := -1
	for bodyEnd < 0 {
		if s.atEOF() {
			line := s.line
			if triple {
				if s.off > 0 && (s.src[s.off-1] == '\n' || s.src[s.off-1] == '\r') {
					line--
				}
				s.errorf(KindSyntax, startPos, "unterminated triple-quoted string literal (detected at line %d)", line)
			} else {
				s.errorf(KindSyntax, startPos, "unterminated string literal (detected at line %d)", line)
			}
			return
		}
		c := s.src[s.off]
		switch {
		case c == q && (!triple || s.peekByte(1) == q && s.peekByte(2) == q):
			bodyEnd = s.off
			s.off += qlen
			s.col += int32(qlen)
		case c == '\\':
			s.advance()
			if !s.atEOF() {
				s.advance()
			}
		case (c == '\n' || c == '\r') && !triple:
			s.errorf(KindSyntax, startPos, "unterminated string literal (detected at line %d)", s.line)
			return
		default:
			s.advance()
		}
	}
	body := s.src[bodyOff:bodyEnd]
	defer func() {
		// Errors inside a literal are the parser's in CPython: they are
		// raised when the parser takes the literal, not by the tokenizer.
		t.litErr, s.litErr = s.litErr, nil
		if t.litErr != nil && len(s.fexprs) > 0 {
			t.fexprs = append([]fpiece(nil), s.fexprs...)
		}
		s.fexprs = s.fexprs[:0]
	}()
	raw := flags&prefixRaw != 0
	switch {
	case flags&prefixF != 0:
		t.tok = FSTRING
		endOff, endLine, endCol := s.off, s.line, s.col
		s.off, s.line, s.col = bodyOff, bodyPos.Line, bodyPos.Col
		saved := s.limit
		s.limit = bodyEnd
		t.fparts = s.scanFStringBody(raw, 0, Position{endLine, endCol})
		s.limit = saved
		s.off, s.line, s.col = endOff, endLine, endCol
	case flags&prefixBytes != 0:
		t.tok = BYTES
		for _, c := range body {
			if c >= utf8.RuneSelf {
				if s.litErr == nil {
					s.litErr = &Error{Kind: KindSyntax, Msg: "bytes can only contain ASCII literal characters",
						Filename: s.filename, Pos: startPos, End: s.pos(), Text: lineText(s.src, startPos.Line)}
				}
				break
			}
		}
		if raw {
			t.str = string(body)
		} else if str, msg := decodeEscapes(body, true); msg != "" {
			s.litErrorf(KindSyntax, s.pos(), "%s", msg)
		} else {
			t.str = str
		}
	default:
		t.tok = STRING
		if raw {
			t.str = normalizeNewlines(string(body))
		} else if str, msg := decodeEscapes(body, false); msg != "" {
			s.litErrorf(KindSyntax, s.pos(), "%s", msg)
		} else {
			t.str = str
		}
	}
}

// litErrorf records an error found while decoding a literal (the first
// wins); the parser raises it when it takes the token.
func (s *scanner) litErrorf(kind string, pos Position, format string, args ...any) {
	if s.litErr == nil {
		s.litErr = &Error{Kind: kind, Msg: fmt.Sprintf(format, args...), Filename: s.filename, Pos: pos, Text: lineText(s.src, pos.Line)}
	}
}

// normalizeNewlines turns "\r\n" and "\r" into "\n" as CPython's reader does.
func normalizeNewlines(s string) string {
	if !strings.Contains(s, "\r") {
		return s
	}
	s = strings.ReplaceAll(s, "\r\n", "\n")
	return strings.ReplaceAll(s, "\r", "\n")
}

// decodeEscapes interprets the backslash escapes of a non-raw string or
// bytes body. On failure it returns CPython's message.
func decodeEscapes(body []byte, isBytes bool) (string, string) {
	if !strings.ContainsAny(string(body), "\\\r") {
		return string(body), ""
	}
	var b strings.Builder
	b.Grow(len(body))
	for i := 0; i < len(body); {
		c := body[i]
		if c == '\r' {
			b.WriteByte('\n')
			i++
			if i < len(body) && body[i] == '\n' {
				i++
			}
			continue
		}
		if c != '\\' || i+1 >= len(body) {
			b.WriteByte(c)
			i++
			continue
		}
		start := i
		e := body[i+1]
		i += 2
		switch e {
		case '\n':
		case '\r':
			if i < len(body) && body[i] == '\n' {
				i++
			}
		case '\\', '\'', '"':
			b.WriteByte(e)
		case 'a':
			b.WriteByte('\a')
		case 'b':
			b.WriteByte('\b')
		case 'f':
			b.WriteByte('\f')
		case 'n':
			b.WriteByte('\n')
		case 'r':
			b.WriteByte('\r')
		case 't':
			b.WriteByte('\t')
		case 'v':
			b.WriteByte('\v')
		case '0', '1', '2', '3', '4', '5', '6', '7':
			v := int(e - '0')
			for k := 0; k < 2 && i < len(body) && body[i] >= '0' && body[i] <= '7'; k++ {
				v = v*8 + int(body[i]-'0')
				i++
			}
			if isBytes {
				b.WriteByte(byte(v))
			} else {
				b.WriteRune(rune(v))
			}
		case 'x', 'u', 'U':
			n := map[byte]int{'x': 2, 'u': 4, 'U': 8}[e]
			if isBytes && e != 'x' {
				b.WriteByte('\\')
				b.WriteByte(e)
				continue
			}
			j := i
			for j < i+n && j < len(body) && isBaseDigit(body[j], 'x') {
				j++
			}
			if j < i+n {
				if isBytes {
					return "", "(value error) invalid \\x escape at position " + strconv.Itoa(start)
				}
				names := map[byte]string{'x': "truncated \\xXX escape", 'u': "truncated \\uXXXX escape", 'U': "truncated \\UXXXXXXXX escape"}
				end := j - 1
				return "", "(unicode error) 'unicodeescape' codec can't decode bytes in position " +
					strconv.Itoa(start) + "-" + strconv.Itoa(end) + ": " + names[e]
			}
			v, _ := strconv.ParseUint(string(body[i:j]), 16, 32)
			i = j
			if isBytes {
				b.WriteByte(byte(v))
			} else if v > utf8.MaxRune {
				return "", "(unicode error) 'unicodeescape' codec can't decode bytes in position " +
					strconv.Itoa(start) + "-" + strconv.Itoa(j-1) + ": illegal Unicode character"
			} else {
				b.WriteRune(rune(v))
			}
		case 'N':
			if isBytes {
				b.WriteString("\\N")
				continue
			}
			return "", "\\N{...} escapes are not supported in the playground"
		default:
			// Unknown escapes keep their backslash (a warning in CPython).
			b.WriteByte('\\')
			i--
		}
	}
	return b.String(), ""
}
