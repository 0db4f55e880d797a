package gpu

import (
	"errors"
	"testing"
	"time"

	"github.com/gpumem/playground/sim/trace"
)

// fakeFigures is a device that advances by fixed steps.
type fakeFigures struct {
	used  int64
	stats CallStats
	fail  error
}

func (f *fakeFigures) Lap() (time.Duration, error) { return 3 * time.Microsecond, f.fail }
func (f *fakeFigures) DriverUsed() (int64, error)  { return f.used, nil }
func (f *fakeFigures) Stats() CallStats            { return f.stats }

func TestTracerStamps(t *testing.T) {
	// Counters from before the job are not the job's.
	dev := &fakeFigures{used: 1000, stats: CallStats{Allocs: 5, Frees: 5, AllocNanos: 100, FreeNanos: 100}}
	var got []trace.Event
	tr := NewTracer(dev, func(ev trace.Event) { got = append(got, ev) })
	tr.SetLine(4)
	tr.Emit(trace.Event{Kind: trace.Line})
	dev.used, dev.stats = 3000, CallStats{Allocs: 6, Frees: 5, AllocNanos: 150, FreeNanos: 107}
	tr.Emit(trace.Event{Kind: trace.SegmentAlloc, Size: 2000})
	tr.Emit(trace.Event{Kind: trace.End, Line: -1})
	want := []struct {
		seq, line int
		gpu       trace.GPU
	}{
		{0, 4, trace.GPU{DriverUsed: 1000, ElapsedNanos: 3000}},
		{1, 4, trace.GPU{DriverUsed: 3000, ElapsedNanos: 3000, DeviceAllocs: 1, DeviceNanos: 57}},
		{2, -1, trace.GPU{DriverUsed: 3000, ElapsedNanos: 3000, DeviceAllocs: 1, DeviceNanos: 57}},
	}
	if len(got) != len(want) {
		t.Fatalf("%d events, want %d", len(got), len(want))
	}
	for i, w := range want {
		if got[i].Seq != w.seq || got[i].Line != w.line || got[i].GPU == nil || *got[i].GPU != w.gpu {
			t.Errorf("event %d = seq %d line %d gpu %+v; want %+v", i, got[i].Seq, got[i].Line, got[i].GPU, w)
		}
	}
	if tr.Events() != 3 || tr.Err() != nil {
		t.Errorf("Events = %d, Err = %v", tr.Events(), tr.Err())
	}
}

func TestTracerKeepsFirstError(t *testing.T) {
	boom := errors.New("boom")
	dev := &fakeFigures{fail: boom}
	n := 0
	tr := NewTracer(dev, func(trace.Event) { n++ })
	tr.Emit(trace.Event{Kind: trace.Line})
	dev.fail = errors.New("later")
	tr.Emit(trace.Event{Kind: trace.Line})
	if !errors.Is(tr.Err(), boom) || n != 2 {
		t.Errorf("Err = %v after %d events; want the first error and both events delivered", tr.Err(), n)
	}
}
