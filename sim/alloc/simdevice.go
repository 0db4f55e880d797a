package alloc

import (
	"fmt"

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
// Addresses (allocator spec §15) follow the real driver's placement as the
// H200 showed it for every oracle case (driverVA): a segment takes the lowest
// free hole that fits among the driver's 32 MiB-granular chunks, else a new
// chunk below the previous ones. So the first 2 MiB and ≤ 20 MiB segments lie
// in the context's first chunk, above everything and in ascending order (the
// oldest wins equal-size ties there); each later chunk lies below the earlier
// ones, and small segments fill the unused tails of the newest chunks first.
// The order of live segments equals the recorded one at every step in 69 of
// the 80 recorded cases; the rest depend on memory the process allocated
// outside the caching allocator (TestDriverVAReplay). A real PyTorch process
// loads other modules and libraries, so on other scripts the order of
// segments in a snapshot and ties between equal-size free blocks of
// different segments may still differ from a real GPU.
type SimDevice struct {
	total, used, context int64
	va                   *driverVA
	allocs               map[uint64]int64 // cudaMalloc'd ranges: start → size
	reserved             map[uint64]int64 // reserved ranges: start → size
	mapped               map[uint64]int64 // mapped pieces: start → size
}

// NewSimDevice returns the simulated device of profile p.
func NewSimDevice(p profile.Profile) *SimDevice {
	return &SimDevice{
		total:    p.TotalMemory,
		context:  p.DriverUsedAtInit,
		va:       newDriverVA(p.Address.Base, p.Address.Span, p.Address.Upward),
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
	addr, ok := d.va.take(uint64(size))
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
	d.va.give(addr, uint64(size))
	return nil
}

// Reserve reserves an address range without backing memory.
func (d *SimDevice) Reserve(size int64) (uint64, error) {
	if size <= 0 {
		return 0, fmt.Errorf("simdevice: reserve of %d bytes", size)
	}
	addr, ok := d.va.reserve(uint64(size))
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
	d.va.give(addr, uint64(size))
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
