package gpu

import (
	"time"

	"github.com/gpumem/playground/sim/trace"
)

// Figures is what a Tracer reads from a device: the part of Device that
// measures. *Device values satisfy it.
type Figures interface {
	Lap() (time.Duration, error)
	DriverUsed() (int64, error)
	Stats() CallStats
}

// Tracer stamps events from the allocator and the interpreter with their
// position in the stream, the current source line and the figures only a
// real GPU has (trace.GPU), then passes them on. It is the sink a GPU run
// gives to alloc.New. Not safe for concurrent use: call it on the device's
// worker thread (inside Device.Do), where the allocator runs.
type Tracer struct {
	dev  Figures
	sink func(trace.Event)
	base CallStats // dev's counters when the Tracer was made
	seq  int
	line int
	used int64 // the last measured DriverUsed
	err  error
}

// NewTracer returns a Tracer that reads dev and sends to sink. It starts the
// clock (a Lap) and takes dev's counters as zero, so that the figures of a
// job's stream count from the job's start, not from the device's Open.
func NewTracer(dev Figures, sink func(trace.Event)) *Tracer {
	t := &Tracer{dev: dev, sink: sink, base: dev.Stats()}
	_, err := dev.Lap()
	t.keep(err)
	t.used, err = dev.DriverUsed()
	t.keep(err)
	return t
}

// SetLine sets the source line that later events belong to.
func (t *Tracer) SetLine(line int) { t.line = line }

// Emit stamps ev and sends it. ElapsedNanos is the GPU time since the
// previous event, from CUDA events (Lap waits for the kernels launched in
// between, so a stream's elapsed times add up to the run's GPU time).
// A failed measurement leaves the figure 0 and is kept for Err.
func (t *Tracer) Emit(ev trace.Event) {
	ev.Seq = t.seq
	t.seq++
	if ev.Line == 0 {
		ev.Line = t.line
	}
	t.measure(&ev)
	if t.sink != nil {
		t.sink(ev)
	}
}

// Stamp adds the GPU figures to an event that someone else numbers and
// sends: the hook of a sim.Backend. Events that may follow a driver call
// or mark a point of the script (line, output, error, end, oom, segment_*)
// are measured: a Lap and a cuMemGetInfo. Alloc, free and relabel events,
// which make no driver call, carry the counters and the last measured
// driver figure with ElapsedNanos 0: their time is counted in the next
// measured event, so the elapsed times still add up, and a training loop's
// thousands of block events cost no synchronisation each.
func (t *Tracer) Stamp(ev *trace.Event) {
	t.seq++
	switch ev.Kind {
	case trace.Alloc, trace.Free, trace.Relabel:
		s := t.dev.Stats()
		ev.GPU = &trace.GPU{DriverUsed: t.used, DeviceAllocs: s.Allocs - t.base.Allocs,
			DeviceFrees: s.Frees - t.base.Frees, DeviceNanos: s.DeviceNanos() - t.base.DeviceNanos()}
	default:
		t.measure(ev)
	}
}

// measure sets ev.GPU from a Lap, cuMemGetInfo and the counters.
func (t *Tracer) measure(ev *trace.Event) {
	lap, err := t.dev.Lap()
	t.keep(err)
	used, err := t.dev.DriverUsed()
	t.keep(err)
	t.used = used
	s := t.dev.Stats()
	ev.GPU = &trace.GPU{
		DriverUsed:   used,
		ElapsedNanos: lap.Nanoseconds(),
		DeviceAllocs: s.Allocs - t.base.Allocs,
		DeviceFrees:  s.Frees - t.base.Frees,
		DeviceNanos:  s.DeviceNanos() - t.base.DeviceNanos(),
	}
}

// Events is the number of events emitted or stamped so far.
func (t *Tracer) Events() int { return t.seq }

// Err returns the first measurement error, if any.
func (t *Tracer) Err() error { return t.err }

func (t *Tracer) keep(err error) {
	if t.err == nil && err != nil {
		t.err = err
	}
}
