package compare

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gpumem/playground/sim/trace"
)

var update = flag.Bool("update", false, "rewrite the golden tables in testdata/")

// load reads a pair recorded on a GPU (TestOracleCasesOnGPU -record-dir).
func load(t *testing.T, name string) *Pair {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", name+".json"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	p, err := ReadPair(f)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestRecordedPairs compares the recorded GPU runs with their simulations:
// they agree line by line, differ by the context only, and the tables
// equal the golden ones.
func TestRecordedPairs(t *testing.T) {
	for _, name := range []string{"s000_release", "q010_oom_fraction", "q013_loss_leak", "q015_expandable"} {
		t.Run(name, func(t *testing.T) {
			p := load(t, name)
			tab := Compare(p, Options{})
			if !tab.Agree || !tab.SameStdout || tab.UsedBefore != tab.UsedAfter {
				t.Errorf("agree %v, same stdout %v, used %d → %d", tab.Agree, tab.SameStdout, tab.UsedBefore, tab.UsedAfter)
			}
			if tab.ContextDelta != 2<<20 {
				t.Errorf("context delta %d, want the 2 MiB of the backend's modules and scratch", tab.ContextDelta)
			}
			for _, r := range tab.Rows {
				for _, why := range r.Reasons {
					if why.Kind != Context && why.Kind != Timing {
						t.Errorf("line %d: unexpected reason %s %s", r.Line, why.Kind, why.Text)
					}
				}
				if r.DDriverUsed != 2<<20 && r.DDriverUsed != 0 {
					t.Errorf("line %d: Δdriver %d", r.Line, r.DDriverUsed)
				}
			}
			// The GPU steps' device calls are the simulation's segment events.
			for i, r := range tab.Rows {
				if r.Sim.DeviceAllocs != r.GPU.DeviceAllocs || r.Sim.DeviceFrees != r.GPU.DeviceFrees {
					t.Errorf("row %d line %d: sim %d/%d segment events, GPU %d/%d calls", i, r.Line,
						r.Sim.DeviceAllocs, r.Sim.DeviceFrees, r.GPU.DeviceAllocs, r.GPU.DeviceFrees)
				}
			}
			var b bytes.Buffer
			if err := tab.WriteText(&b, p.Script); err != nil {
				t.Fatal(err)
			}
			golden(t, filepath.Join("testdata", name+".golden"), b.Bytes())
		})
	}
}

func golden(t *testing.T, path string, got []byte) {
	t.Helper()
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs (run with -update to accept):\n%s", path, got)
	}
}

// reasons returns the kinds of the reasons of the row of line n (the first
// execution).
func reasons(tab *Table, line int) []Kind {
	for _, r := range tab.Rows {
		if r.Line == line {
			var ks []Kind
			for _, why := range r.Reasons {
				ks = append(ks, why.Kind)
			}
			return ks
		}
	}
	return nil
}

func has(ks []Kind, k Kind) bool {
	for _, x := range ks {
		if x == k {
			return true
		}
	}
	return false
}

// lineIndex is the position of the first line event of line n in evs.
func lineIndex(t *testing.T, evs []trace.Event, n int) int {
	t.Helper()
	for i, ev := range evs {
		if ev.Kind == trace.Line && ev.Line == n {
			return i
		}
	}
	t.Fatalf("no line event for line %d", n)
	return 0
}

// TestReasons alters a recorded GPU stream the way a real difference would
// and checks the reason the row gets.
func TestReasons(t *testing.T) {
	t.Run("granularity", func(t *testing.T) {
		p := load(t, "s000_release")
		// The driver holds one more 1 MiB page after line 4 runs: the
		// line event of line 5 carries the state after line 4.
		for i := lineIndex(t, p.GPU.Events, 5); i < len(p.GPU.Events); i++ {
			if g := p.GPU.Events[i].GPU; g != nil {
				g.DriverUsed += 1 << 20
			}
		}
		tab := Compare(p, Options{})
		if ks := reasons(tab, 4); !has(ks, Granularity) || !has(ks, Context) {
			t.Errorf("line 4: %v, want granularity and context", ks)
		}
		if !tab.Agree {
			t.Error("a driver-only difference made the allocator figures disagree")
		}
	})
	t.Run("driver", func(t *testing.T) {
		p := load(t, "s000_release")
		for i := lineIndex(t, p.GPU.Events, 5); i < len(p.GPU.Events); i++ {
			if g := p.GPU.Events[i].GPU; g != nil {
				g.DriverUsed += 1 << 30 // another process took 1 GiB
			}
		}
		if ks := reasons(Compare(p, Options{}), 4); !has(ks, Driver) {
			t.Errorf("line 4: %v, want driver", ks)
		}
	})
	t.Run("oom", func(t *testing.T) {
		p := load(t, "s000_release")
		// The GPU refuses the allocation of line 7 (a smaller device):
		// from there on its figures stay lower.
		i := lineIndex(t, p.GPU.Events, 7)
		oom := trace.Event{Kind: trace.OOM, Line: 7, Text: "CUDA out of memory. Tried to allocate 4.00 MiB. GPU 0 has a total capacity of 1 GiB", Stats: p.GPU.Events[i].Stats}
		evs := append([]trace.Event{}, p.GPU.Events[:i+1]...)
		evs = append(evs, oom)
		for _, ev := range p.GPU.Events[i+1:] {
			ev.Stats.Allocated -= 1 << 20
			evs = append(evs, ev)
		}
		p.GPU.Events = evs
		tab := Compare(p, Options{})
		if ks := reasons(tab, 7); !has(ks, OOM) {
			t.Errorf("line 7: %v, want oom", ks)
		}
		if ks := reasons(tab, 9); !has(ks, OOM) {
			t.Errorf("line 9: %v, want oom (since line 7)", ks)
		}
		if !tab.Agree {
			t.Error("differences after a one-sided OOM counted as disagreement")
		}
	})
	t.Run("allocator", func(t *testing.T) {
		p := load(t, "s000_release")
		for i := lineIndex(t, p.GPU.Events, 8); i < len(p.GPU.Events); i++ {
			p.GPU.Events[i].Stats.Reserved += 2 << 20
		}
		tab := Compare(p, Options{})
		if ks := reasons(tab, 7); !has(ks, Allocator) || tab.Agree {
			t.Errorf("line 7: %v, agree %v; want allocator and disagreement", ks, tab.Agree)
		}
	})
	t.Run("diverged", func(t *testing.T) {
		p := load(t, "s000_release")
		i := lineIndex(t, p.GPU.Events, 14)
		p.GPU.Events = append(p.GPU.Events[:i:i], trace.Event{Kind: trace.End, Line: -1, Stats: p.GPU.Events[i].Stats, GPU: p.GPU.Events[i].GPU})
		tab := Compare(p, Options{})
		if ks := reasons(tab, 14); !has(ks, Diverged) || tab.Agree {
			t.Errorf("line 14: %v, agree %v; want diverged and disagreement", ks, tab.Agree)
		}
	})
	t.Run("output", func(t *testing.T) {
		p := load(t, "s000_release")
		for i := range p.GPU.Events {
			if ev := &p.GPU.Events[i]; ev.Kind == trace.Output && strings.HasPrefix(ev.Text, "start") {
				ev.Text = "start: 1 2\n"
			}
		}
		if ks := reasons(Compare(p, Options{}), 6); !has(ks, Output) {
			t.Errorf("line 6: %v, want output", ks)
		}
	})
	t.Run("timing", func(t *testing.T) {
		p := load(t, "s000_release")
		i := lineIndex(t, p.GPU.Events, 8) // closes line 7's step
		p.GPU.Events[i].GPU.ElapsedNanos = 50_000_000
		if ks := reasons(Compare(p, Options{}), 7); !has(ks, Timing) {
			t.Errorf("line 7: %v, want timing", ks)
		}
	})
}

// TestStepsOfSimulation checks the modelled driver figure and the segment
// counts of a stream without GPU figures.
func TestStepsOfSimulation(t *testing.T) {
	evs := []trace.Event{
		{Kind: trace.Line, Line: 1},
		{Kind: trace.SegmentAlloc, Size: 2 << 20, Stats: trace.Stats{Reserved: 2 << 20}},
		{Kind: trace.Alloc, Size: 512, Stats: trace.Stats{Reserved: 2 << 20, Allocated: 512}},
		{Kind: trace.Output, Text: "hi\n", Stats: trace.Stats{Reserved: 2 << 20, Allocated: 512}},
		{Kind: trace.Line, Line: 2, Stats: trace.Stats{Reserved: 2 << 20, Allocated: 512}},
		{Kind: trace.SegmentFree, Size: 2 << 20},
		{Kind: trace.End, Line: -1},
	}
	got := Steps(evs, 1000)
	if len(got) != 2 {
		t.Fatalf("%d steps, want 2", len(got))
	}
	if s := got[0]; s.Line != 1 || s.DriverUsed != 1000+2<<20 || s.DeviceAllocs != 1 || s.Output != "hi\n" || s.Allocated != 512 {
		t.Errorf("step 0 = %+v", s)
	}
	if s := got[1]; s.Line != 2 || s.DriverUsed != 1000 || s.DeviceFrees != 1 {
		t.Errorf("step 1 = %+v", s)
	}
}
