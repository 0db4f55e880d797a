package alloc

import (
	"fmt"

	"sort"

	"github.com/gpumem/playground/sim/profile"
)

// SimDevice is a simulated GPU: a capacity, the memory the CUDA context
// takes, and a deterministic address model.
//
// Capacity: cudaMalloc and Map succeed iff the bytes fit in
// TotalMemory − DriverUsedAtInit − (bytes currently allocated or mapped); the
// same figure is MemGetInfo's free. A real driver also loses memory to
// fragmentation and page granularity; the simulation does not.
//
// Addresses (allocator spec §15): inside the profile's window, each cudaMalloc
// or address reservation takes the highest free range of its size rounded up
// to 2 MiB, aligned to 2 MiB. So each new segment lies below the previous
// ones (the newest sorts first in a snapshot and wins equal-size ties), and a
// freed range is reused from the top. The real driver's placement is more
// involved (§15: power-of-two slots whose tails later small segments fill);
// an earlier model of exactly that put the 2 MiB segment of oracle case
// p026_snapshot above an earlier 20 MiB one, where the H100 put it below.
// This model reproduces every recorded oracle case; on other scripts the
// order of segments in a snapshot and ties between equal-size free blocks of
// different segments may still differ from a real GPU.
type SimDevice struct {
	total, used, context int64
	free                 []vaRange        // free address ranges, sorted by start
	allocs               map[uint64]int64 // cudaMalloc'd ranges: start → size
	reserved             map[uint64]int64 // reserved ranges: start → size
	mapped               map[uint64]int64 // mapped pieces: start → size
}

// vaRange is a half-open address range.
type vaRange struct{ start, end uint64 }

// NewSimDevice returns the simulated device of profile p.
func NewSimDevice(p profile.Profile) *SimDevice {
	return &SimDevice{
		total:    p.TotalMemory,
		context:  p.DriverUsedAtInit,
		free:     []vaRange{{p.Address.Base, p.Address.Base + p.Address.Span}},
		allocs:   map[uint64]int64{},
		reserved: map[uint64]int64{},
		mapped:   map[uint64]int64{},
	}
}

// MemGetInfo returns free and total bytes.
func (d *SimDevice) MemGetInfo() (free, total int64) {
	free = d.total - d.context - d.used
	if free < 0 {
		free = 0
	}
	return free, d.total
}

// Used returns the bytes currently allocated or mapped through the device.
func (d *SimDevice) Used() int64 { return d.used }

// Malloc allocates size bytes of device memory.
func (d *SimDevice) Malloc(size int64) (uint64, error) {
	if size <= 0 {
		return 0, fmt.Errorf("simdevice: malloc of %d bytes", size)
	}
	if free, _ := d.MemGetInfo(); size > free {
		return 0, ErrDeviceOOM
	}
	addr, ok := d.takeVA(size)
	if !ok {
		return 0, ErrDeviceOOM
	}
	d.allocs[addr] = size
	d.used += size
	return addr, nil
}

// Free releases a range returned by Malloc.
func (d *SimDevice) Free(addr uint64, size int64) error {
	if s, ok := d.allocs[addr]; !ok || s != size {
		return fmt.Errorf("simdevice: free of %#x (%d bytes) that was not allocated", addr, size)
	}
	delete(d.allocs, addr)
	d.used -= size
	d.giveVA(addr, uint64(size))
	return nil
}

// Reserve reserves an address range without backing memory.
func (d *SimDevice) Reserve(size int64) (uint64, error) {
	if size <= 0 {
		return 0, fmt.Errorf("simdevice: reserve of %d bytes", size)
	}
	addr, ok := d.takeVA(size)
	if !ok {
		return 0, fmt.Errorf("simdevice: no address space left for a %d-byte reservation", size)
	}
	d.reserved[addr] = size
	return addr, nil
}

// Map backs part of a reserved range with memory.
func (d *SimDevice) Map(addr uint64, size int64) error {
	if size <= 0 || !d.inReserved(addr, size) {
		return fmt.Errorf("simdevice: map of %#x (%d bytes) outside any reservation", addr, size)
	}
	if free, _ := d.MemGetInfo(); size > free {
		return ErrDeviceOOM
	}
	d.mapped[addr] = size
	d.used += size
	return nil
}

// Unmap releases the memory behind [addr, addr+size), which must be mapped
// throughout (it may cut earlier Map calls: physical pages are independent).
func (d *SimDevice) Unmap(addr uint64, size int64) error {
	end := addr + uint64(size)
	type piece struct {
		a uint64
		s int64
	}
	var hit []piece
	var total int64
	for a, s := range d.mapped {
		e := a + uint64(s)
		if a < end && e > addr {
			hit = append(hit, piece{a, s})
			total += int64(min(e, end) - max(a, addr))
		}
	}
	if total != size {
		return fmt.Errorf("simdevice: unmap of %#x (%d bytes) covers %d mapped bytes", addr, size, total)
	}
	for _, p := range hit {
		delete(d.mapped, p.a)
		if p.a < addr {
			d.mapped[p.a] = int64(addr - p.a)
		}
		if e := p.a + uint64(p.s); e > end {
			d.mapped[end] = int64(e - end)
		}
	}
	d.used -= total
	return nil
}

// ReleaseRange gives back a reserved range; it must have nothing mapped.
func (d *SimDevice) ReleaseRange(addr uint64, size int64) error {
	if s, ok := d.reserved[addr]; !ok || s != size {
		return fmt.Errorf("simdevice: release of %#x (%d bytes) that was not reserved", addr, size)
	}
	for a := range d.mapped {
		if a >= addr && a < addr+uint64(size) {
			return fmt.Errorf("simdevice: release of %#x while %#x is still mapped", addr, a)
		}
	}
	delete(d.reserved, addr)
	d.giveVA(addr, uint64(size))
	return nil
}

// inReserved reports whether [addr, addr+size) lies in one reservation.
func (d *SimDevice) inReserved(addr uint64, size int64) bool {
	for a, s := range d.reserved {
		if addr >= a && addr+uint64(size) <= a+uint64(s) {
			return true
		}
	}
	return false
}

// takeVA finds the highest free, naturally aligned power-of-two slot for size
// bytes and marks [slot, slot+size) used.
func (d *SimDevice) takeVA(size int64) (uint64, bool) {
	const align = uint64(kSmallBuffer)
	slot := (uint64(size) + align - 1) &^ (align - 1)
	for i := len(d.free) - 1; i >= 0; i-- {
		r := d.free[i]
		if r.end-r.start < slot {
			continue
		}
		x := (r.end - slot) &^ (align - 1)
		if x < r.start {
			continue
		}
		d.carve(i, x, x+uint64(size))
		return x, true
	}
	return 0, false
}

// carve removes [a, b) from free range i.
func (d *SimDevice) carve(i int, a, b uint64) {
	r := d.free[i]
	var repl []vaRange
	if r.start < a {
		repl = append(repl, vaRange{r.start, a})
	}
	if b < r.end {
		repl = append(repl, vaRange{b, r.end})
	}
	d.free = append(d.free[:i], append(repl, d.free[i+1:]...)...)
}

// giveVA returns [addr, addr+size) to the free ranges, merging neighbours.
func (d *SimDevice) giveVA(addr, size uint64) {
	r := vaRange{addr, addr + size}
	i := sort.Search(len(d.free), func(i int) bool { return d.free[i].start >= r.start })
	if i > 0 && d.free[i-1].end == r.start {
		i--
		r.start = d.free[i].start
		d.free = append(d.free[:i], d.free[i+1:]...)
	}
	if i < len(d.free) && d.free[i].start == r.end {
		r.end = d.free[i].end
		d.free = append(d.free[:i], d.free[i+1:]...)
	}
	d.free = append(d.free, vaRange{})
	copy(d.free[i+1:], d.free[i:])
	d.free[i] = r
}
