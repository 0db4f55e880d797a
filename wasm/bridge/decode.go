package bridge

import (
	"errors"
	"fmt"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// maxDepth bounds the nesting of values skipped in a request.
const maxDepth = 64

// decoder reads one request document. It accepts what encoding/json accepts
// when decoding into Request (keys matched case-insensitively, null leaving a
// field empty, unknown members skipped, the last duplicate winning) and
// rejects the rest; the native tests compare the two.
type decoder struct {
	s   []byte
	pos int
}

// decodeRequest parses raw as a Request.
func decodeRequest(raw []byte) (Request, error) {
	var req Request
	d := &decoder{s: raw}
	d.space()
	if d.literal("null") {
		return req, d.finish()
	}
	if !d.eat('{') {
		return req, d.errorf("want an object")
	}
	d.space()
	if d.eat('}') {
		return req, d.finish()
	}
	for {
		d.space()
		key, err := d.string()
		if err != nil {
			return req, err
		}
		d.space()
		if !d.eat(':') {
			return req, d.errorf("want ':' after the key")
		}
		d.space()
		if f := req.field(key); f != nil {
			if d.literal("null") {
				// encoding/json leaves the field as it was.
			} else if v, err := d.string(); err != nil {
				return req, fmt.Errorf("field %q: %w", key, err)
			} else {
				*f = v
			}
		} else if err := d.skip(0); err != nil {
			return req, err
		}
		d.space()
		if d.eat('}') {
			return req, d.finish()
		}
		if !d.eat(',') {
			return req, d.errorf("want ',' or '}'")
		}
	}
}

// field returns the member a JSON key names, matched like encoding/json
// (exact or case-insensitive), or nil for an unknown key.
func (r *Request) field(key string) *string {
	for _, f := range []struct {
		name string
		p    *string
	}{{"script", &r.Script}, {"profile", &r.Profile}, {"allocConf", &r.AllocConf}, {"filename", &r.Filename}} {
		if key == f.name || strings.EqualFold(key, f.name) {
			return f.p
		}
	}
	return nil
}

func (d *decoder) errorf(format string, args ...any) error {
	return fmt.Errorf("offset %d: %s", d.pos, fmt.Sprintf(format, args...))
}

func (d *decoder) space() {
	for d.pos < len(d.s) {
		switch d.s[d.pos] {
		case ' ', '\t', '\n', '\r':
			d.pos++
		default:
			return
		}
	}
}

func (d *decoder) eat(c byte) bool {
	if d.pos < len(d.s) && d.s[d.pos] == c {
		d.pos++
		return true
	}
	return false
}

func (d *decoder) literal(w string) bool {
	if strings.HasPrefix(string(d.s[d.pos:]), w) {
		d.pos += len(w)
		return true
	}
	return false
}

// finish checks that only white space follows the document.
func (d *decoder) finish() error {
	d.space()
	if d.pos != len(d.s) {
		return d.errorf("data after the request")
	}
	return nil
}

// string reads a JSON string, decoding escapes as encoding/json does: lone
// surrogates and invalid UTF-8 become U+FFFD.
func (d *decoder) string() (string, error) {
	if !d.eat('"') {
		return "", d.errorf("want a string")
	}
	var b []byte
	for {
		if d.pos >= len(d.s) {
			return "", errors.New("unterminated string")
		}
		c := d.s[d.pos]
		switch {
		case c == '"':
			d.pos++
			return string(b), nil
		case c < 0x20:
			return "", d.errorf("control character in a string")
		case c == '\\':
			d.pos++
			if d.pos >= len(d.s) {
				return "", errors.New("unterminated string")
			}
			e := d.s[d.pos]
			d.pos++
			switch e {
			case '"', '\\', '/':
				b = append(b, e)
			case 'b':
				b = append(b, '\b')
			case 'f':
				b = append(b, '\f')
			case 'n':
				b = append(b, '\n')
			case 'r':
				b = append(b, '\r')
			case 't':
				b = append(b, '\t')
			case 'u':
				r, ok := d.hex4()
				if !ok {
					return "", d.errorf("bad \\u escape")
				}
				if utf16.IsSurrogate(r) {
					save := d.pos
					if d.eat('\\') && d.eat('u') {
						if r2, ok := d.hex4(); ok {
							if dec := utf16.DecodeRune(r, r2); dec != utf8.RuneError {
								b = utf8.AppendRune(b, dec)
								continue
							}
						}
					}
					d.pos = save
					r = utf8.RuneError
				}
				b = utf8.AppendRune(b, r)
			default:
				return "", d.errorf("bad escape \\%c", e)
			}
		case c < utf8.RuneSelf:
			b = append(b, c)
			d.pos++
		default:
			r, size := utf8.DecodeRune(d.s[d.pos:])
			if r == utf8.RuneError && size == 1 {
				b = utf8.AppendRune(b, utf8.RuneError)
			} else {
				b = append(b, d.s[d.pos:d.pos+size]...)
			}
			d.pos += size
		}
	}
}

// hex4 reads the four hex digits of a \u escape.
func (d *decoder) hex4() (rune, bool) {
	if d.pos+4 > len(d.s) {
		return 0, false
	}
	var r rune
	for _, c := range d.s[d.pos : d.pos+4] {
		switch {
		case '0' <= c && c <= '9':
			c -= '0'
		case 'a' <= c && c <= 'f':
			c = c - 'a' + 10
		case 'A' <= c && c <= 'F':
			c = c - 'A' + 10
		default:
			return 0, false
		}
		r = r<<4 | rune(c)
	}
	d.pos += 4
	return r, true
}

// skip reads and discards one value of an unknown member.
func (d *decoder) skip(depth int) error {
	if depth > maxDepth {
		return d.errorf("nested too deeply")
	}
	if d.pos >= len(d.s) {
		return errors.New("unexpected end of the request")
	}
	switch c := d.s[d.pos]; {
	case c == '"':
		_, err := d.string()
		return err
	case c == '{' || c == '[':
		return d.skipContainer(depth, c)
	case c == '-' || ('0' <= c && c <= '9'):
		return d.number()
	case d.literal("true"), d.literal("false"), d.literal("null"):
		return nil
	default:
		return d.errorf("unexpected %q", c)
	}
}

// skipContainer skips an object or array that starts at the cursor.
func (d *decoder) skipContainer(depth int, open byte) error {
	d.pos++
	closer := byte(']')
	if open == '{' {
		closer = '}'
	}
	d.space()
	if d.eat(closer) {
		return nil
	}
	for {
		d.space()
		if open == '{' {
			if _, err := d.string(); err != nil {
				return err
			}
			d.space()
			if !d.eat(':') {
				return d.errorf("want ':'")
			}
			d.space()
		}
		if err := d.skip(depth + 1); err != nil {
			return err
		}
		d.space()
		if d.eat(closer) {
			return nil
		}
		if !d.eat(',') {
			return d.errorf("want ',' or %q", closer)
		}
	}
}

// number skips a number with JSON's grammar.
func (d *decoder) number() error {
	digits := func() int {
		n := 0
		for d.pos < len(d.s) && '0' <= d.s[d.pos] && d.s[d.pos] <= '9' {
			d.pos++
			n++
		}
		return n
	}
	d.eat('-')
	if d.eat('0') {
		// no more integer digits after a leading zero
	} else if digits() == 0 {
		return d.errorf("bad number")
	}
	if d.eat('.') && digits() == 0 {
		return d.errorf("bad number")
	}
	if d.eat('e') || d.eat('E') {
		if !d.eat('+') {
			d.eat('-')
		}
		if digits() == 0 {
			return d.errorf("bad number")
		}
	}
	return nil
}
