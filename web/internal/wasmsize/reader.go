package wasmsize

import "errors"

// reader walks the binary format's LEB128 integers; the first error sticks
// and makes every later read return zero values.
type reader struct {
	b   []byte
	pos int
	err error
}

var errTruncated = errors.New("truncated")

func (r *reader) uleb() int {
	var x uint64
	for shift := uint(0); ; shift += 7 {
		if r.err != nil {
			return 0
		}
		if r.pos >= len(r.b) || shift > 63 {
			r.err = errTruncated
			return 0
		}
		c := r.b[r.pos]
		r.pos++
		x |= uint64(c&0x7f) << shift
		if c < 0x80 {
			if x > 1<<40 {
				r.err = errors.New("LEB128 integer too large")
				return 0
			}
			return int(x)
		}
	}
}

func (r *reader) sleb() int64 {
	var x int64
	for shift := uint(0); shift < 64; shift += 7 {
		if r.err != nil {
			return 0
		}
		if r.pos >= len(r.b) {
			r.err = errTruncated
			return 0
		}
		c := r.b[r.pos]
		r.pos++
		x |= int64(c&0x7f) << shift
		if c < 0x80 {
			if c&0x40 != 0 && shift+7 < 64 {
				x |= -1 << (shift + 7)
			}
			return x
		}
	}
	r.err = errors.New("LEB128 integer too long")
	return 0
}

func (r *reader) bytes(n int) []byte {
	if r.err != nil {
		return nil
	}
	if n < 0 || n > len(r.b)-r.pos {
		r.err = errTruncated
		r.pos = len(r.b)
		return nil
	}
	p := r.b[r.pos : r.pos+n]
	r.pos += n
	return p
}

func (r *reader) more() bool { return r.err == nil && r.pos < len(r.b) }
