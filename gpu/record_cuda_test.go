//go:build cuda

package gpu

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"math"
	"os"
	"testing"

	"github.com/gpumem/playground/sim/alloc"
	"github.com/gpumem/playground/sim/profile"
	"github.com/gpumem/playground/sim/trace"
)

var recordPath = flag.String("record", "", "write TestRecordStream's event stream (JSON) to this file")

// recordedScript is the PyTorch script whose steps TestRecordStream performs
// by hand (the interpreter is not wired to this backend yet): the same
// allocator calls, kernels and output, line by line.
const recordedScript = `import torch
x = torch.ones(256, 1024, 1024, device="cuda")
y = x * 2
s = y.sum()
print(s.item())
del x
torch.cuda.empty_cache()
big = torch.empty(1024 * 2**30, dtype=torch.uint8, device="cuda")
`

// recording is the fixture format of web/gpujob's replay runner.
type recording struct {
	Source string        `json:"source"`
	Device string        `json:"device"`
	Script string        `json:"script"`
	Stdout string        `json:"stdout"`
	Error  string        `json:"error,omitempty"`
	Events []trace.Event `json:"events"`
}

// TestRecordStream runs the caching allocator (sim/alloc) on the real
// device through the steps of recordedScript, stamping events with a
// Tracer, and checks the GPU figures; with -record FILE it writes the stream.
func TestRecordStream(t *testing.T) {
	afterTest(t)
	const n = 256 << 20 // elements of x and y
	rec := recording{Script: recordedScript, Device: testDev.Name()}
	var scriptErr error
	err := testDev.Do(func(d Device) error {
		recording := true
		tr := NewTracer(d, func(ev trace.Event) {
			if recording {
				rec.Events = append(rec.Events, ev)
			}
		})
		a := alloc.New(profile.Default(), alloc.DefaultConfig(), d, tr.Emit)
		k := d.Kernels()
		line := func(n int) {
			tr.SetLine(n)
			tr.Emit(trace.Event{Kind: trace.Line, Line: n, Stats: a.Stats()})
		}
		user := func(name string) trace.Label { return trace.Label{Kind: trace.LabelUser, Name: name} }
		line(1)
		line(2)
		x, err := a.Malloc(4*n, user("x"))
		if err != nil {
			return err
		}
		if err := k.Fill(F32, x.Addr(), 1, n); err != nil {
			return err
		}
		line(3)
		y, err := a.Malloc(4*n, user("y"))
		if err != nil {
			return err
		}
		if err := k.Scale(F32, y.Addr(), x.Addr(), 2, n); err != nil {
			return err
		}
		line(4)
		s, err := a.Malloc(4, user("s"))
		if err != nil {
			return err
		}
		if err := k.Sum(F32, s.Addr(), y.Addr(), n); err != nil {
			return err
		}
		line(5)
		buf := make([]byte, 4)
		if err := d.CopyFromDevice(buf, s.Addr()); err != nil {
			return err
		}
		rec.Stdout = fmt.Sprintf("%.1f\n", decode(F32, buf)[0])
		tr.Emit(trace.Event{Kind: trace.Output, Text: rec.Stdout, Stats: a.Stats()})
		line(6)
		if err := a.Free(x); err != nil {
			return err
		}
		line(7)
		a.EmptyCache()
		line(8)
		_, scriptErr = a.Malloc(1024<<30, user("big"))
		var oom *alloc.OOMError
		if !errors.As(scriptErr, &oom) {
			return fmt.Errorf("1 TiB allocation (more than any GPU has): %v, want an OOMError", scriptErr)
		}
		rec.Error = "torch.OutOfMemoryError: " + oom.Error()
		tb := "Traceback (most recent call last):\n  File \"<script>\", line 8, in <module>\n" + rec.Error + "\n"
		tr.Emit(trace.Event{Kind: trace.Error, Text: tb, Stats: a.Stats()})
		// The script's globals are released at the end: y and s.
		for _, b := range []*alloc.Block{y, s} {
			if err := a.Free(b); err != nil {
				return err
			}
		}
		tr.Emit(trace.Event{Kind: trace.End, Line: -1, Stats: a.Stats()})
		recording = false
		a.EmptyCache()
		return errors.Join(a.Err(), tr.Err())
	})
	if err != nil {
		t.Fatal(err)
	}
	if rec.Stdout != "536870912.0\n" {
		t.Errorf("printed %q, want the sum 536870912.0", rec.Stdout)
	}
	checkRecordedStream(t, rec.Events)
	if *recordPath != "" {
		rec.Source = "recorded on " + rec.Device + " by gpu's TestRecordStream: the caching allocator (sim/alloc) on the real device, the script's steps performed by hand"
		data, err := json.MarshalIndent(rec, "", " ")
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(*recordPath, append(data, '\n'), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// checkRecordedStream checks the stream's shape and its GPU figures.
func checkRecordedStream(t *testing.T, evs []trace.Event) {
	t.Helper()
	var segAllocs, segFrees, ooms int
	var prev *trace.GPU
	for i, ev := range evs {
		if ev.Seq != i || ev.GPU == nil {
			t.Fatalf("event %d: seq %d, gpu %v", i, ev.Seq, ev.GPU)
		}
		g := ev.GPU
		if prev != nil && (g.DeviceAllocs < prev.DeviceAllocs || g.DeviceFrees < prev.DeviceFrees || g.DeviceNanos < prev.DeviceNanos) {
			t.Errorf("event %d: device counters went back: %+v after %+v", i, g, prev)
		}
		switch ev.Kind {
		case trace.SegmentAlloc:
			segAllocs++
			if ev.Size >= 1<<30 && g.DriverUsed-prev.DriverUsed < ev.Size {
				t.Errorf("event %d: a %d-byte segment raised driver used by %d", i, ev.Size, g.DriverUsed-prev.DriverUsed)
			}
		case trace.SegmentFree:
			segFrees++
			if ev.Size >= 1<<30 && prev.DriverUsed-g.DriverUsed < ev.Size {
				t.Errorf("event %d: freeing a %d-byte segment lowered driver used by %d", i, ev.Size, prev.DriverUsed-g.DriverUsed)
			}
		case trace.OOM:
			ooms++
		}
		prev = g
	}
	// x's and y's 1 GiB segments and s's 2 MiB one; x's freed by empty_cache.
	if segAllocs != 3 || segFrees < 1 || ooms != 1 {
		t.Errorf("%d segment_alloc, %d segment_free, %d oom events; want 3, ≥1, 1", segAllocs, segFrees, ooms)
	}
	last := evs[len(evs)-1]
	if last.Kind != trace.End || last.Stats.Allocated != 0 || last.Stats.Reserved != 1<<30+2<<20 {
		t.Errorf("last event %s with stats %+v", last.Kind, last.Stats)
	}
	// The sum kernel ran over 256 Mi elements (1 GiB read): its line took
	// measurable GPU time.
	for _, ev := range evs {
		if ev.Kind == trace.Line && ev.Line == 5 && ev.GPU.ElapsedNanos < 10_000 {
			t.Errorf("line 4's kernels took %d ns of GPU time", ev.GPU.ElapsedNanos)
		}
	}
}

// TestAllocatorExpandableOnGPU runs the allocator with expandable segments
// on the device: pages are really mapped, and everything comes back.
func TestAllocatorExpandableOnGPU(t *testing.T) {
	afterTest(t)
	cfg, err := alloc.ParseConfig("expandable_segments:True")
	if err != nil {
		t.Fatal(err)
	}
	var maps, unmaps int
	err = testDev.Do(func(d Device) error {
		a := alloc.New(profile.Default(), cfg, d, func(ev trace.Event) {
			switch ev.Kind {
			case trace.SegmentMap:
				maps++
			case trace.SegmentUnmap:
				unmaps++
			}
		})
		var blocks []*alloc.Block
		for _, size := range []int64{30 << 20, 100 << 10, 30 << 20, 300 << 20, 100 << 10} {
			b, err := a.Malloc(size, trace.Label{Kind: trace.LabelUser})
			if err != nil {
				return err
			}
			// Touch the whole block: the mapping must be real memory.
			if err := d.Kernels().Fill(F32, b.Addr(), float32(math.Pi), b.Size()/4); err != nil {
				return err
			}
			blocks = append(blocks, b)
		}
		if err := d.Synchronize(); err != nil {
			return err
		}
		for _, b := range blocks {
			if err := a.Free(b); err != nil {
				return err
			}
		}
		a.EmptyCache()
		if n, bytes := d.Live(); n != 0 || bytes != 0 {
			return fmt.Errorf("after empty_cache the device still holds %d ranges, %d bytes", n, bytes)
		}
		return a.Err()
	})
	if err != nil {
		t.Fatal(err)
	}
	if maps == 0 || unmaps == 0 {
		t.Errorf("%d segment_map and %d segment_unmap events", maps, unmaps)
	}
}
