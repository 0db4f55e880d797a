package main

import (
	"errors"
	"fmt"
	"sort"
)

// Opcodes of the constant expressions in data segments.
const (
	opI32Const = 0x41
	opEnd      = 0x0b
)

// errUnusual marks a data section that Pack leaves alone: valid WebAssembly,
// but not the form Go's linker writes.
var errUnusual = errors.New("data section not in the form Go's linker writes")

// section is one section of a module: its id, its body and its whole
// encoding (id, size, body) for copying it unchanged.
type section struct {
	id   byte
	body []byte
	raw  []byte
}

// reader decodes the binary format's integers from b.
type reader struct {
	b   []byte
	pos int
}

var errTruncated = errors.New("truncated")

func (r *reader) byte() (byte, error) {
	if r.pos >= len(r.b) {
		return 0, errTruncated
	}
	c := r.b[r.pos]
	r.pos++
	return c, nil
}

func (r *reader) uleb() (uint64, error) {
	var x uint64
	for shift := uint(0); shift < 64; shift += 7 {
		c, err := r.byte()
		if err != nil {
			return 0, err
		}
		x |= uint64(c&0x7f) << shift
		if c < 0x80 {
			return x, nil
		}
	}
	return 0, errors.New("LEB128 integer too long")
}

func (r *reader) sleb() (int64, error) {
	var x int64
	for shift := uint(0); shift < 64; shift += 7 {
		c, err := r.byte()
		if err != nil {
			return 0, err
		}
		x |= int64(c&0x7f) << shift
		if c < 0x80 {
			if c&0x40 != 0 && shift+7 < 64 {
				x |= -1 << (shift + 7)
			}
			return x, nil
		}
	}
	return 0, errors.New("LEB128 integer too long")
}

func (r *reader) bytes(n uint64) ([]byte, error) {
	if n > uint64(len(r.b)-r.pos) {
		return nil, errTruncated
	}
	p := r.b[r.pos : r.pos+int(n)]
	r.pos += int(n)
	return p, nil
}

// sections splits a module (after its 8-byte header) into sections.
func sections(mod []byte) ([]section, error) {
	r := &reader{b: mod, pos: 8}
	var out []section
	for r.pos < len(mod) {
		start := r.pos
		id, err := r.byte()
		if err != nil {
			return nil, err
		}
		n, err := r.uleb()
		if err != nil {
			return nil, fmt.Errorf("section %d: %w", id, err)
		}
		body, err := r.bytes(n)
		if err != nil {
			return nil, fmt.Errorf("section %d: %w", id, err)
		}
		out = append(out, section{id: id, body: body, raw: mod[start:r.pos]})
	}
	return out, nil
}

// parseData decodes a data section written by Go's linker: active segments
// of memory 0 at i32.const offsets, not overlapping; it returns them by
// increasing address. Other valid forms give errUnusual.
func parseData(body []byte) ([]segment, error) {
	r := &reader{b: body}
	n, err := r.uleb()
	if err != nil {
		return nil, err
	}
	var segs []segment
	for i := uint64(0); i < n; i++ {
		flags, err := r.uleb()
		if err != nil {
			return nil, err
		}
		if flags != 0 {
			return nil, errUnusual
		}
		op, err := r.byte()
		if err != nil {
			return nil, err
		}
		if op != opI32Const {
			return nil, errUnusual
		}
		off, err := r.sleb()
		if err != nil {
			return nil, err
		}
		if end, err := r.byte(); err != nil {
			return nil, err
		} else if end != opEnd {
			return nil, errUnusual
		}
		size, err := r.uleb()
		if err != nil {
			return nil, err
		}
		data, err := r.bytes(size)
		if err != nil {
			return nil, err
		}
		off = int64(uint32(off)) // i32.const is a signed encoding of an unsigned address
		segs = append(segs, segment{offset: off, data: data})
	}
	if r.pos != len(body) {
		return nil, errors.New("bytes after the last segment")
	}
	// Go writes each of its data sections in address order, but not the
	// sections themselves. Without overlaps the order does not matter.
	sort.SliceStable(segs, func(i, j int) bool { return segs[i].offset < segs[j].offset })
	for k := 1; k < len(segs); k++ {
		if segs[k].offset < segs[k-1].offset+int64(len(segs[k-1].data)) {
			return nil, errUnusual
		}
	}
	return segs, nil
}

func appendULEB(b []byte, x uint64) []byte {
	for {
		c := byte(x & 0x7f)
		x >>= 7
		if x == 0 {
			return append(b, c)
		}
		b = append(b, c|0x80)
	}
}

func appendSLEB(b []byte, x int64) []byte {
	for {
		c := byte(x & 0x7f)
		x >>= 7
		if (x == 0 && c&0x40 == 0) || (x == -1 && c&0x40 != 0) {
			return append(b, c)
		}
		b = append(b, c|0x80)
	}
}
