package pickle

import "unicode/utf8"

// validPyUTF8 reports whether b is what CPython's pickle writes for a str:
// UTF-8 with the "surrogatepass" error handler, i.e. valid UTF-8 in which
// lone surrogate code points (U+D800..U+DFFF, bytes ED A0..BF 80..BF) are
// also allowed. CPython rejects anything else when unpickling.
func validPyUTF8(b []byte) bool {
	if utf8.Valid(b) {
		return true
	}
	for i := 0; i < len(b); {
		if b[i] < utf8.RuneSelf {
			i++
			continue
		}
		r, size := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && size == 1 {
			if i+2 < len(b) && b[i] == 0xED && b[i+1] >= 0xA0 && b[i+1] <= 0xBF && b[i+2] >= 0x80 && b[i+2] <= 0xBF {
				i += 3
				continue
			}
			return false
		}
		i += size
	}
	return true
}

// validPyUTF8String is validPyUTF8 for a string.
func validPyUTF8String(s string) bool {
	if utf8.ValidString(s) {
		return true
	}
	return validPyUTF8([]byte(s))
}
