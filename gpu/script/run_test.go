package script

import (
	"context"
	"errors"
	"os"
	"testing"

	"github.com/gpumem/playground/gpu"
	"github.com/gpumem/playground/gpu/gputest"
	"github.com/gpumem/playground/sim"
	"github.com/gpumem/playground/sim/trace"
)

func readCase(t *testing.T, name string) sim.Request {
	t.Helper()
	src, err := os.ReadFile("../../sim/testdata/oracle/cases/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return sim.Request{Script: string(src), Filename: name}
}

// The GPU run is the simulation's run on another device: the same output
// and allocator figures, every event stamped with GPU figures, and the
// device's memory back at the baseline afterwards.
func TestRunMatchesSimulation(t *testing.T) {
	for _, name := range []string{"s000_release.py", "q015_expandable.py", "q010_oom_fraction.py"} {
		t.Run(name, func(t *testing.T) {
			req := readCase(t, name)
			want, err := sim.Run(context.Background(), req, nil)
			if err != nil {
				t.Fatal(err)
			}
			dev := gputest.New(gputest.Options{Context: 554500096})
			var streamed int
			run, err := Run(context.Background(), dev, req, func(trace.Event) { streamed++ })
			if err != nil {
				t.Fatal(err)
			}
			got := run.Result
			if got.Stdout != want.Stdout || len(got.Events) != len(want.Events) || streamed != len(got.Events) {
				t.Fatalf("stdout %q vs %q, %d/%d events (%d streamed)", got.Stdout, want.Stdout, len(got.Events), len(want.Events), streamed)
			}
			var segs int64
			for i, ev := range got.Events {
				w := want.Events[i]
				if ev.Kind != w.Kind || ev.Line != w.Line || ev.Stats != w.Stats || ev.Size != w.Size {
					t.Fatalf("event %d: %+v, simulation %+v", i, ev, w)
				}
				if ev.GPU == nil {
					t.Fatalf("event %d (%s) has no GPU figures", i, ev.Kind)
				}
				switch ev.Kind {
				case trace.Alloc, trace.Free, trace.Relabel:
					if ev.GPU.ElapsedNanos != 0 {
						t.Errorf("event %d (%s) measured: %+v", i, ev.Kind, ev.GPU)
					}
				case trace.SegmentAlloc, trace.SegmentMap:
					segs++
					fallthrough
				default:
					if ev.GPU.ElapsedNanos == 0 {
						t.Errorf("event %d (%s) not measured", i, ev.Kind)
					}
				}
				if ev.GPU.DeviceAllocs != segs {
					t.Errorf("event %d: %d device allocations counted, %d segment events so far", i, ev.GPU.DeviceAllocs, segs)
				}
				if ev.Kind == trace.Line && ev.GPU.DriverUsed != 554500096+ev.Stats.Reserved {
					t.Errorf("event %d: driver used %d, reserved %d", i, ev.GPU.DriverUsed, ev.Stats.Reserved)
				}
			}
			if run.UsedBefore != run.UsedAfter || run.Calls.Allocs != segs {
				t.Errorf("used %d → %d, calls %+v", run.UsedBefore, run.UsedAfter, run.Calls)
			}
			if n, b := dev.Live(); n != 0 || b != 0 {
				t.Errorf("%d ranges (%d B) still held after the job", n, b)
			}
		})
	}
}

func TestRunLeakFails(t *testing.T) {
	dev := gputest.New(gputest.Options{LeakBytes: 2 << 20})
	run, err := Run(context.Background(), dev, sim.Request{Script: "import torch\nx = torch.ones(4, device='cuda')\n"}, nil)
	var leak *gpu.LeakError
	if !errors.As(err, &leak) || run == nil || run.UsedAfter-run.UsedBefore != 2<<20 {
		t.Errorf("Run = %+v, %v; want a 2 MiB leak", run, err)
	}
}

func TestRunDeviceOOM(t *testing.T) {
	dev := gputest.New(gputest.Options{MemoryLimit: 32 << 20})
	run, err := Run(context.Background(), dev, sim.Request{Script: "import torch\nx = torch.ones(64 << 20, dtype=torch.uint8, device='cuda')\n"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if e := run.Result.Error; e == nil || e.Type != "OutOfMemoryError" || run.Calls.OOMs == 0 {
		t.Errorf("error %+v, calls %+v; want the driver's OOM", e, run.Calls)
	}
}

func TestRunRejectsBackend(t *testing.T) {
	if _, err := Run(context.Background(), gputest.New(gputest.Options{}), sim.Request{Backend: scriptBackend{}}, nil); err == nil {
		t.Error("a request with a backend was accepted")
	}
}
