package main

// tables marks the bytes of pc-value tables in the pctab region [start, end)
// of an image as kept or dropped. The linker shares identical tables between
// functions, so a byte is zeroed only when no kept table uses it.
type tables struct {
	im         memImage
	start, end int64
	keep, drop map[int64]bool
}

// walk decodes the table at pctab offset off (runtime.step's encoding:
// pairs of a zig-zag value delta and a pc delta, both varints, until a zero
// value delta after the first pair) and returns its length and the largest
// value it takes.
func (t *tables) walk(off uint32) (n int64, maxVal int64, err error) {
	p := t.start + int64(off)
	i := p
	varint := func() (uint32, error) {
		var v uint32
		for shift := uint(0); shift < 35; shift += 7 {
			if i >= t.end {
				return 0, errUnusual
			}
			c := t.im.mem[i]
			i++
			v |= uint32(c&0x7f) << shift
			if c < 0x80 {
				return v, nil
			}
		}
		return 0, errUnusual
	}
	val, maxVal := int32(-1), int64(-1)
	for first := true; ; first = false {
		if i >= t.end {
			return 0, 0, errUnusual
		}
		if t.im.mem[i] == 0 && !first {
			return i + 1 - p, maxVal, nil
		}
		d, err := varint()
		if err != nil {
			return 0, 0, err
		}
		val += int32(-(d & 1) ^ (d >> 1))
		maxVal = max(maxVal, int64(val))
		if _, err := varint(); err != nil {
			return 0, 0, err
		}
	}
}

// mark records the bytes of the table at off (0: no table) as kept or
// dropped.
func (t *tables) mark(off uint32, keep bool) error {
	if off == 0 {
		return nil
	}
	n, _, err := t.walk(off)
	if err != nil {
		return err
	}
	set := t.drop
	if keep {
		set = t.keep
	}
	for a := t.start + int64(off); a < t.start+int64(off)+n; a++ {
		set[a] = true
	}
	return nil
}

// max returns the largest value of the table at off.
func (t *tables) max(off uint32) (int64, error) {
	_, m, err := t.walk(off)
	return m, err
}
