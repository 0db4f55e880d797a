// Package gputest provides a gpu.Device without a GPU, for the tests of the
// code above package gpu (the script runner, the CLI's comparison, the
// server's GPU jobs) in a build without the cuda tag.
//
// Its memory is alloc.SimDevice's (capacity and addresses of a profile), its
// counters are counted like the real device's, its clock advances by a fixed
// step per Lap and per driver call, and by default it has no kernels:
// Kernels' methods and the copies return ErrNoKernels. With Options.Compute
// its memory is host bytes and its kernels are the pure-Go reference
// (package gpu/refkern): the CPU reference of the GPU backend.
package gputest

import (
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/gpumem/playground/gpu"
	"github.com/gpumem/playground/gpu/refkern"
	"github.com/gpumem/playground/sim/alloc"
	"github.com/gpumem/playground/sim/profile"
)

// ErrNoKernels is returned by the kernel launches and copies of a Device.
var ErrNoKernels = errors.New("gputest: the fake device runs no kernels")

// Options configure New. Zero fields take the values shown.
type Options struct {
	Profile profile.Profile // capacity and address window: profile.Default()
	// Context is DriverUsed before any allocation: the profile's
	// DriverUsedAtInit.
	Context int64
	// MemoryLimit caps the bytes held at once, as gpu.Options.MemoryLimit.
	MemoryLimit int64
	Lap         time.Duration // GPU time of one Lap: 10 µs
	CallTime    time.Duration // time counted per Malloc/Map/Free/Unmap: 50 µs
	// LeakBytes is added to DriverUsed by every ReleaseAll: memory the
	// "driver" did not get back, for tests of the leak check.
	LeakBytes int64
	// Compute backs every allocation and mapping with host bytes and gives
	// the device the pure-Go reference kernels (package gpu/refkern) and
	// working copies: a CPU reference of the GPU backend. Without it the
	// device has no memory contents and its kernels fail.
	Compute bool
}

// Device is a fake gpu.Device. Safe for concurrent use, as the real one.
type Device struct {
	mu sync.Mutex
	s  state
}

// state is the device without its lock: what Do hands to its function.
type state struct {
	opts   Options
	sim    *alloc.SimDevice
	ranges map[uint64]int64 // Malloc'd and mapped ranges still held
	resv   map[uint64]int64 // reservations still held
	live   int64
	leaked int64
	stats  gpu.CallStats
	closed bool
	mem    *refkern.Memory  // host bytes of the ranges (Options.Compute)
	kern   *refkern.Kernels // the reference kernels over mem
}

var (
	_ gpu.Device = (*Device)(nil)
	_ gpu.Device = (*state)(nil)
)

// New returns a fake device.
func New(opts Options) *Device {
	if opts.Profile.Name == "" {
		opts.Profile = profile.Default()
	}
	if opts.Context == 0 {
		opts.Context = opts.Profile.DriverUsedAtInit
	}
	if opts.Lap == 0 {
		opts.Lap = 10 * time.Microsecond
	}
	if opts.CallTime == 0 {
		opts.CallTime = 50 * time.Microsecond
	}
	p := opts.Profile
	p.DriverUsedAtInit = opts.Context
	d := &Device{s: state{opts: opts, sim: alloc.NewSimDevice(p), ranges: map[uint64]int64{}, resv: map[uint64]int64{}}}
	if opts.Compute {
		d.s.mem = &refkern.Memory{}
		d.s.kern = refkern.New(d.s.mem)
	}
	return d
}

// locked runs fn under the lock, failing after Close.
func (d *Device) locked(fn func(s *state) error) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.s.closed {
		return gpu.ErrClosed
	}
	return fn(&d.s)
}

// Malloc implements alloc.Device.
func (d *Device) Malloc(size int64) (addr uint64, err error) {
	err = d.locked(func(s *state) (e error) { addr, e = s.Malloc(size); return })
	return
}

// Free implements alloc.Device.
func (d *Device) Free(addr uint64, size int64) error {
	return d.locked(func(s *state) error { return s.Free(addr, size) })
}

// MemGetInfo implements alloc.Device.
func (d *Device) MemGetInfo() (free, total int64) {
	d.locked(func(s *state) error { free, total = s.MemGetInfo(); return nil })
	return
}

// Reserve implements alloc.Device.
func (d *Device) Reserve(size int64) (addr uint64, err error) {
	err = d.locked(func(s *state) (e error) { addr, e = s.Reserve(size); return })
	return
}

// Map implements alloc.Device.
func (d *Device) Map(addr uint64, size int64) error {
	return d.locked(func(s *state) error { return s.Map(addr, size) })
}

// Unmap implements alloc.Device.
func (d *Device) Unmap(addr uint64, size int64) error {
	return d.locked(func(s *state) error { return s.Unmap(addr, size) })
}

// ReleaseRange implements alloc.Device.
func (d *Device) ReleaseRange(addr uint64, size int64) error {
	return d.locked(func(s *state) error { return s.ReleaseRange(addr, size) })
}

// Name is the profile's GPU name with "(fake)".
func (d *Device) Name() string { return d.s.Name() }

// Granularity is 2 MiB, the H100's.
func (d *Device) Granularity() int64 { return d.s.Granularity() }

// CopyToDevice copies into the host bytes (Options.Compute); otherwise it
// returns ErrNoKernels.
func (d *Device) CopyToDevice(dst uint64, src []byte) error {
	return d.locked(func(s *state) error { return s.CopyToDevice(dst, src) })
}

// CopyFromDevice copies from the host bytes (Options.Compute); otherwise it
// returns ErrNoKernels.
func (d *Device) CopyFromDevice(dst []byte, src uint64) error {
	return d.locked(func(s *state) error { return s.CopyFromDevice(dst, src) })
}

// Kernels returns the reference kernels (Options.Compute) or launchers
// that fail with ErrNoKernels. The reference kernels are not locked: use
// them inside Do, as the real device's.
func (d *Device) Kernels() gpu.Kernels { return d.s.Kernels() }

// Synchronize does nothing.
func (d *Device) Synchronize() error { return d.locked(func(*state) error { return nil }) }

// Lap returns Options.Lap.
func (d *Device) Lap() (lap time.Duration, err error) {
	err = d.locked(func(s *state) (e error) { lap, e = s.Lap(); return })
	return
}

// Stats returns the counters.
func (d *Device) Stats() gpu.CallStats {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.s.Stats()
}

// DriverUsed is the context plus the bytes held plus the leaked bytes.
func (d *Device) DriverUsed() (used int64, err error) {
	err = d.locked(func(s *state) (e error) { used, e = s.DriverUsed(); return })
	return
}

// Baseline is Options.Context.
func (d *Device) Baseline() int64 { return d.s.Baseline() }

// Live reports the ranges held.
func (d *Device) Live() (ranges int, bytes int64) {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.s.Live()
}

// ReleaseAll returns everything, as the real device's.
func (d *Device) ReleaseAll() error {
	return d.locked(func(s *state) error { return s.ReleaseAll() })
}

// Do runs fn under the lock with the unlocked device.
func (d *Device) Do(fn func(gpu.Device) error) error {
	return d.locked(func(s *state) error { return fn(s) })
}

// Close releases everything; later calls fail with gpu.ErrClosed.
func (d *Device) Close() error {
	return d.locked(func(s *state) error {
		err := s.ReleaseAll()
		s.closed = true
		return err
	})
}

func (s *state) Malloc(size int64) (uint64, error) {
	s.stats.AllocNanos += s.opts.CallTime.Nanoseconds()
	if s.opts.MemoryLimit > 0 && s.live+size > s.opts.MemoryLimit {
		s.stats.OOMs++
		return 0, alloc.ErrDeviceOOM
	}
	addr, err := s.sim.Malloc(size)
	if err != nil {
		if errors.Is(err, alloc.ErrDeviceOOM) {
			s.stats.OOMs++
		}
		return 0, err
	}
	if s.mem != nil {
		if err := s.mem.Add(addr, size); err != nil {
			return 0, err
		}
	}
	s.stats.Allocs++
	s.ranges[addr] = size
	s.live += size
	return addr, nil
}

func (s *state) Free(addr uint64, size int64) error {
	if err := s.sim.Free(addr, size); err != nil {
		return err
	}
	s.stats.Frees++
	s.stats.FreeNanos += s.opts.CallTime.Nanoseconds()
	delete(s.ranges, addr)
	s.live -= size
	if s.mem != nil {
		s.mem.Remove(addr)
	}
	return nil
}

func (s *state) MemGetInfo() (free, total int64) {
	free, total = s.sim.MemGetInfo()
	if s.opts.MemoryLimit > 0 {
		free = min(free, max(s.opts.MemoryLimit-s.live, 0))
	}
	return free, total
}

func (s *state) Reserve(size int64) (uint64, error) {
	addr, err := s.sim.Reserve(size)
	if err == nil {
		s.stats.Reserves++
		s.resv[addr] = size
	}
	return addr, err
}

func (s *state) Map(addr uint64, size int64) error {
	s.stats.AllocNanos += s.opts.CallTime.Nanoseconds()
	if s.opts.MemoryLimit > 0 && s.live+size > s.opts.MemoryLimit {
		s.stats.OOMs++
		return alloc.ErrDeviceOOM
	}
	if err := s.sim.Map(addr, size); err != nil {
		if errors.Is(err, alloc.ErrDeviceOOM) {
			s.stats.OOMs++
		}
		return err
	}
	if s.mem != nil {
		// Each mapping is its own host range: a tensor across two
		// mappings is out of the reference's reach (an error, not a
		// wrong value).
		if err := s.mem.Add(addr, size); err != nil {
			return err
		}
	}
	s.stats.Allocs++
	s.ranges[addr] = size
	s.live += size
	return nil
}

func (s *state) Unmap(addr uint64, size int64) error {
	if err := s.sim.Unmap(addr, size); err != nil {
		return err
	}
	s.stats.Frees++
	s.stats.FreeNanos += s.opts.CallTime.Nanoseconds()
	s.live -= size
	// An Unmap may cover several Map calls or part of one: drop the ranges
	// it covers and keep what remains of a partly covered one.
	end := addr + uint64(size)
	for a, n := range s.ranges {
		e := a + uint64(n)
		if a >= end || e <= addr {
			continue
		}
		delete(s.ranges, a)
		if s.mem != nil {
			s.mem.Remove(a)
		}
		if a < addr {
			s.ranges[a] = int64(addr - a)
		}
		if e > end {
			s.ranges[end] = int64(e - end)
		}
	}
	return nil
}

func (s *state) ReleaseRange(addr uint64, size int64) error {
	if err := s.sim.ReleaseRange(addr, size); err != nil {
		return err
	}
	s.stats.Releases++
	delete(s.resv, addr)
	return nil
}

func (s *state) Name() string       { return s.opts.Profile.GPUName + " (fake)" }
func (s *state) Granularity() int64 { return 2 << 20 }
func (s *state) CopyToDevice(dst uint64, src []byte) error {
	if s.mem == nil {
		return ErrNoKernels
	}
	b, err := s.mem.Bytes(dst, int64(len(src)))
	if err != nil {
		return err
	}
	s.stats.Copies++
	copy(b, src)
	return nil
}
func (s *state) CopyFromDevice(dst []byte, src uint64) error {
	if s.mem == nil {
		return ErrNoKernels
	}
	b, err := s.mem.Bytes(src, int64(len(dst)))
	if err != nil {
		return err
	}
	s.stats.Copies++
	copy(dst, b)
	return nil
}
func (s *state) Kernels() gpu.Kernels {
	if s.kern == nil {
		return noKernels{}
	}
	return s.kern
}
func (s *state) Synchronize() error { return nil }
func (s *state) Lap() (time.Duration, error) {
	return s.opts.Lap, nil
}
func (s *state) Stats() gpu.CallStats { return s.stats }
func (s *state) DriverUsed() (int64, error) {
	free, total := s.sim.MemGetInfo()
	return total - free + s.leaked, nil
}
func (s *state) Baseline() int64                    { return s.opts.Context }
func (s *state) Live() (int, int64)                 { return len(s.ranges), s.live }
func (s *state) Do(fn func(gpu.Device) error) error { return fn(s) }
func (s *state) Close() error                       { return errors.New("gputest: Close called from inside Do") }

// ReleaseAll returns what is held and compares DriverUsed with Baseline,
// as the real device's.
func (s *state) ReleaseAll() error {
	leak := &gpu.LeakError{Ranges: len(s.ranges), Bytes: s.live, Reservations: len(s.resv), UsedBefore: s.opts.Context}
	var errs []error
	// Ranges inside reservations are mapped pieces: unmap them first.
	for a, n := range s.ranges {
		if s.inReservation(a) {
			errs = append(errs, s.Unmap(a, n))
		} else {
			errs = append(errs, s.Free(a, n))
		}
	}
	for a, n := range s.resv {
		errs = append(errs, s.ReleaseRange(a, n))
	}
	s.leaked += s.opts.LeakBytes
	leak.UsedAfter, _ = s.DriverUsed()
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("gputest: release all: %w", err)
	}
	if leak.Ranges > 0 || leak.Reservations > 0 || leak.UsedAfter != leak.UsedBefore {
		return leak
	}
	return nil
}

func (s *state) inReservation(addr uint64) bool {
	for a, n := range s.resv {
		if addr >= a && addr < a+uint64(n) {
			return true
		}
	}
	return false
}
