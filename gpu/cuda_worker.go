//go:build cuda

package gpu

import (
	"errors"
	"fmt"
	"time"
	"unsafe"

	"gorgonia.org/cu"

	"github.com/gpumem/playground/gpu/kernels"
	"github.com/gpumem/playground/sim/alloc"
)

// worker is the device as seen from its own OS thread: every method calls
// the driver directly. Only the worker goroutine touches it.
type worker struct {
	opts    Options
	name    string
	gran    int64
	ctx     cu.CUContext
	modules []cu.Module
	funcs   map[string]kernelFunc
	// moduleErrs holds, per entry, why its module did not load.
	moduleErrs map[string]error
	// pending maps the entries of the modules not loaded yet to
	// their module (loadModule loads it on the entry's first launch).
	pending  map[string]*kernels.Module
	lazyCode int64  // bytes the driver's figure grew by when loadModule loaded pending modules
	scratch  uint64 // kernels.SumMaxPartials f32 partial sums
	events   [2]cu.Event
	lastLap  int // index of the event recorded by the previous Lap
	baseline int64

	allocs   map[uint64]int64   // cuMemAlloc'd ranges: address → size
	reserved map[uint64]int64   // reservations: address → size
	mapped   map[uint64]mapping // Map calls: address → mapping
	live     int64              // bytes in allocs and mapped
	stats    CallStats
}

// mapping is one Map call: its size and physical allocation handle.
type mapping struct {
	size   int64
	handle uint64
}

var _ alloc.Device = (*worker)(nil)

// Malloc is cuMemAlloc.
func (w *worker) Malloc(size int64) (uint64, error) {
	if size <= 0 {
		return 0, fmt.Errorf("gpu: malloc of %d bytes", size)
	}
	if w.overLimit(size) {
		w.stats.OOMs++
		return 0, alloc.ErrDeviceOOM
	}
	t0 := time.Now()
	p, err := cu.MemAlloc(size)
	w.stats.AllocNanos += time.Since(t0).Nanoseconds()
	if errors.Is(err, cu.OutOfMemory) {
		w.stats.OOMs++
		return 0, alloc.ErrDeviceOOM
	}
	if err != nil {
		return 0, fmt.Errorf("gpu: cuMemAlloc(%d): %w", size, err)
	}
	w.stats.Allocs++
	w.allocs[uint64(p)] = size
	w.live += size
	return uint64(p), nil
}

// Free is cuMemFree of a range from Malloc.
func (w *worker) Free(addr uint64, size int64) error {
	if s, ok := w.allocs[addr]; !ok || s != size {
		return fmt.Errorf("gpu: free of %#x (%d bytes) that was not allocated", addr, size)
	}
	t0 := time.Now()
	err := cu.MemFree(cu.DevicePtr(addr))
	w.stats.FreeNanos += time.Since(t0).Nanoseconds()
	if err != nil {
		return fmt.Errorf("gpu: cuMemFree(%#x): %w", addr, err)
	}
	w.stats.Frees++
	delete(w.allocs, addr)
	w.live -= size
	return nil
}

// MemGetInfo is cuMemGetInfo; under a MemoryLimit, free is at most what the
// limit leaves. A failed call reports (0, 0).
func (w *worker) MemGetInfo() (free, total int64) {
	free, total, err := cu.MemInfo()
	if err != nil {
		return 0, 0
	}
	if w.opts.MemoryLimit > 0 {
		free = min(free, max(0, w.opts.MemoryLimit-w.live))
	}
	return free, total
}

// Reserve is cuMemAddressReserve, aligned to the granularity.
func (w *worker) Reserve(size int64) (uint64, error) {
	if size <= 0 || size%w.gran != 0 {
		return 0, fmt.Errorf("gpu: reserve of %d bytes: not a positive multiple of the granularity %d", size, w.gran)
	}
	addr, err := vmmReserve(size, w.gran)
	if err != nil {
		return 0, fmt.Errorf("gpu: reserve %d bytes: %w", size, err)
	}
	w.stats.Reserves++
	w.reserved[addr] = size
	return addr, nil
}

// Map backs [addr, addr+size) of a reservation with new physical memory.
func (w *worker) Map(addr uint64, size int64) error {
	if size <= 0 || size%w.gran != 0 || addr%uint64(w.gran) != 0 {
		return fmt.Errorf("gpu: map of %#x (%d bytes): not aligned to the granularity %d", addr, size, w.gran)
	}
	if !w.inReserved(addr, size) {
		return fmt.Errorf("gpu: map of %#x (%d bytes) outside any reservation", addr, size)
	}
	end := addr + uint64(size)
	for a, m := range w.mapped {
		if a < end && a+uint64(m.size) > addr {
			return fmt.Errorf("gpu: map of %#x (%d bytes) overlaps the mapping at %#x", addr, size, a)
		}
	}
	if w.overLimit(size) {
		w.stats.OOMs++
		return alloc.ErrDeviceOOM
	}
	t0 := time.Now()
	h, err := vmmMap(addr, size, w.opts.Ordinal)
	w.stats.AllocNanos += time.Since(t0).Nanoseconds()
	var de *driverError
	if errors.As(err, &de) && de.outOfMemory() {
		w.stats.OOMs++
		return alloc.ErrDeviceOOM
	}
	if err != nil {
		return fmt.Errorf("gpu: map %#x (%d bytes): %w", addr, size, err)
	}
	w.stats.Allocs++
	w.mapped[addr] = mapping{size, h}
	w.live += size
	return nil
}

// Unmap releases the memory behind [addr, addr+size), which must be made of
// whole earlier Map calls (the rule of alloc.SimDevice, and of the driver:
// cuMemUnmap cannot split a mapping).
func (w *worker) Unmap(addr uint64, size int64) error {
	end := addr + uint64(size)
	var pieces []uint64
	var total int64
	for a, m := range w.mapped {
		if a >= addr && a+uint64(m.size) <= end {
			pieces = append(pieces, a)
			total += m.size
		} else if a < end && a+uint64(m.size) > addr {
			return fmt.Errorf("gpu: unmap of %#x (%d bytes) cuts the mapping at %#x", addr, size, a)
		}
	}
	if size <= 0 || total != size {
		return fmt.Errorf("gpu: unmap of %#x (%d bytes) covers %d mapped bytes", addr, size, total)
	}
	for _, a := range pieces {
		m := w.mapped[a]
		t0 := time.Now()
		err := vmmUnmap(m.handle, a, m.size)
		w.stats.FreeNanos += time.Since(t0).Nanoseconds()
		if err != nil {
			return fmt.Errorf("gpu: unmap %#x (%d bytes): %w", a, m.size, err)
		}
		w.stats.Frees++
		delete(w.mapped, a)
		w.live -= m.size
	}
	return nil
}

// ReleaseRange is cuMemAddressFree of a reservation with nothing mapped.
func (w *worker) ReleaseRange(addr uint64, size int64) error {
	if s, ok := w.reserved[addr]; !ok || s != size {
		return fmt.Errorf("gpu: release of %#x (%d bytes) that was not reserved", addr, size)
	}
	for a := range w.mapped {
		if a >= addr && a < addr+uint64(size) {
			return fmt.Errorf("gpu: release of %#x while %#x is still mapped", addr, a)
		}
	}
	if err := vmmAddressFree(addr, size); err != nil {
		return fmt.Errorf("gpu: release %#x: %w", addr, err)
	}
	w.stats.Releases++
	delete(w.reserved, addr)
	return nil
}

func (w *worker) inReserved(addr uint64, size int64) bool {
	for a, s := range w.reserved {
		if addr >= a && addr+uint64(size) <= a+uint64(s) {
			return true
		}
	}
	return false
}

func (w *worker) overLimit(size int64) bool {
	return w.opts.MemoryLimit > 0 && w.live+size > w.opts.MemoryLimit
}

// Name returns the GPU's product name.
func (w *worker) Name() string { return w.name }

// Granularity returns the VMM page size.
func (w *worker) Granularity() int64 { return w.gran }

// CopyToDevice is cuMemcpyHtoD.
func (w *worker) CopyToDevice(dst uint64, src []byte) error {
	if len(src) == 0 {
		return nil
	}
	t0 := time.Now()
	err := cu.MemcpyHtoD(cu.DevicePtr(dst), unsafe.Pointer(&src[0]), int64(len(src)))
	w.stats.CopyNanos += time.Since(t0).Nanoseconds()
	w.stats.Copies++
	if err != nil {
		return fmt.Errorf("gpu: copy %d bytes to %#x: %w", len(src), dst, err)
	}
	return nil
}

// CopyFromDevice is cuMemcpyDtoH.
func (w *worker) CopyFromDevice(dst []byte, src uint64) error {
	if len(dst) == 0 {
		return nil
	}
	t0 := time.Now()
	err := cu.MemcpyDtoH(unsafe.Pointer(&dst[0]), cu.DevicePtr(src), int64(len(dst)))
	w.stats.CopyNanos += time.Since(t0).Nanoseconds()
	w.stats.Copies++
	if err != nil {
		return fmt.Errorf("gpu: copy %d bytes from %#x: %w", len(dst), src, err)
	}
	return nil
}

// Kernels returns the launch helpers, which call the driver directly.
func (w *worker) Kernels() Kernels { return launcher{w} }

// Synchronize is cuCtxSynchronize.
func (w *worker) Synchronize() error {
	if err := cu.Synchronize(); err != nil {
		return fmt.Errorf("gpu: synchronize: %w", err)
	}
	return nil
}

// Lap records the other event, waits for it and measures from the last one.
func (w *worker) Lap() (time.Duration, error) {
	next := 1 - w.lastLap
	if err := w.events[next].Record(cu.NoStream); err != nil {
		return 0, fmt.Errorf("gpu: record event: %w", err)
	}
	if err := w.events[next].Synchronize(); err != nil {
		return 0, fmt.Errorf("gpu: wait for event: %w", err)
	}
	ms, err := w.events[w.lastLap].Elapsed(w.events[next])
	if err != nil {
		return 0, fmt.Errorf("gpu: event time: %w", err)
	}
	w.lastLap = next
	return time.Duration(ms * float64(time.Millisecond)), nil
}

// Stats returns the counters.
func (w *worker) Stats() CallStats { return w.stats }

// DriverUsed is total − free from cuMemGetInfo, less the code of the
// modules loaded after Open (lazyCode: loadModule), which eager loading
// would have put in the baseline.
func (w *worker) DriverUsed() (int64, error) {
	free, total, err := cu.MemInfo()
	if err != nil {
		return 0, fmt.Errorf("gpu: cuMemGetInfo: %w", err)
	}
	return total - free - w.lazyCode, nil
}

// Baseline is DriverUsed at Open.
func (w *worker) Baseline() int64 { return w.baseline }

// Live counts ranges and bytes held.
func (w *worker) Live() (int, int64) { return len(w.allocs) + len(w.mapped), w.live }

// ReleaseAll returns everything and checks the driver's figure.
func (w *worker) ReleaseAll() error {
	leak := &LeakError{Ranges: len(w.allocs) + len(w.mapped), Bytes: w.live, Reservations: len(w.reserved), UsedBefore: w.baseline}
	// Kernels may still be using the memory: wait for them first.
	syncErr := w.Synchronize()
	var errs []error
	for a, s := range w.allocs {
		errs = append(errs, w.Free(a, s))
	}
	for a, m := range w.mapped {
		errs = append(errs, w.Unmap(a, m.size))
	}
	for a, s := range w.reserved {
		errs = append(errs, w.ReleaseRange(a, s))
	}
	used, err := w.DriverUsed()
	errs = append(errs, syncErr, err)
	leak.UsedAfter = used
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("gpu: release all: %w", err)
	}
	if leak.Ranges > 0 || leak.Reservations > 0 || leak.UsedAfter != leak.UsedBefore {
		return leak
	}
	return nil
}

// Do runs fn here: the worker is already on its thread.
func (w *worker) Do(fn func(Device) error) error { return fn(w) }

// Close cannot run on the worker's own thread: the worker would have to
// stop itself mid-call.
func (w *worker) Close() error {
	return errors.New("gpu: Close called from inside Do")
}
