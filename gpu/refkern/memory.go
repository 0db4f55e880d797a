package refkern

import (
	"fmt"
	"sort"
)

// Memory is a device address space backed by host bytes: ranges added at
// device addresses (what cuMemAlloc or a mapping would give) and looked up
// by any address inside them.
type Memory struct {
	ranges []hostRange // sorted by base, disjoint
}

type hostRange struct {
	base  uint64
	bytes []byte
}

// Add backs [base, base+size) with zeroed host bytes. It fails if the range
// overlaps one already added.
func (m *Memory) Add(base uint64, size int64) error {
	if size < 0 {
		return fmt.Errorf("refkern: range of %d bytes", size)
	}
	i := sort.Search(len(m.ranges), func(i int) bool { return m.ranges[i].base >= base })
	end := base + uint64(size)
	if i < len(m.ranges) && m.ranges[i].base < end {
		return fmt.Errorf("refkern: range %#x+%d overlaps %#x", base, size, m.ranges[i].base)
	}
	if i > 0 {
		p := m.ranges[i-1]
		if p.base+uint64(len(p.bytes)) > base {
			return fmt.Errorf("refkern: range %#x+%d overlaps %#x", base, size, p.base)
		}
	}
	m.ranges = append(m.ranges, hostRange{})
	copy(m.ranges[i+1:], m.ranges[i:])
	m.ranges[i] = hostRange{base: base, bytes: make([]byte, size)}
	return nil
}

// Remove drops the range that starts at base; it reports whether there was one.
func (m *Memory) Remove(base uint64) bool {
	i := sort.Search(len(m.ranges), func(i int) bool { return m.ranges[i].base >= base })
	if i == len(m.ranges) || m.ranges[i].base != base {
		return false
	}
	m.ranges = append(m.ranges[:i], m.ranges[i+1:]...)
	return true
}

// Bytes returns the n host bytes at device address addr; they must lie in
// one range.
func (m *Memory) Bytes(addr uint64, n int64) ([]byte, error) {
	i := sort.Search(len(m.ranges), func(i int) bool { return m.ranges[i].base > addr }) - 1
	if i < 0 || n < 0 {
		return nil, fmt.Errorf("refkern: address %#x (%d bytes) is not in device memory", addr, n)
	}
	r := m.ranges[i]
	off := addr - r.base
	if off+uint64(n) > uint64(len(r.bytes)) {
		return nil, fmt.Errorf("refkern: address %#x (%d bytes) is outside its range %#x+%d", addr, n, r.base, len(r.bytes))
	}
	return r.bytes[off : off+uint64(n) : off+uint64(n)], nil
}

// Ranges is the number of ranges held.
func (m *Memory) Ranges() int { return len(m.ranges) }
