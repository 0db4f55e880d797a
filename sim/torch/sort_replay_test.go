package torch

import (
	"bufio"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/gpumem/playground/sim/alloc"
	"github.com/gpumem/playground/sim/profile"
	"github.com/gpumem/playground/sim/trace"
)

// TestSortScanSelectReplaysMeasurement replays items of
// testdata/questions/q16_sort_scan_select.out and q16b_sort_followup.out
// (PyTorch 2.11 on an H100):
// every allocation (requested size) and free of the op and of its
// backward, in order, must match the recorded trace (segment events
// aside). Items without a replay below are not modelled (value-dependent
// paths, ops outside this family) or are errors checked elsewhere.
func TestSortScanSelectReplaysMeasurement(t *testing.T) {
	want := readQ16(t)
	ran := 0
	for name, it := range q16Items() {
		rec, ok := want[name]
		if !ok {
			t.Errorf("%s: not in the recording", name)
			continue
		}
		ran++
		t.Run(name, func(t *testing.T) {
			fwd, bwd := replayItem(t, it)
			if fwd != rec.fwd {
				t.Errorf("forward\n got: %s\nwant: %s", fwd, rec.fwd)
			}
			if rec.bwd != "" && bwd != rec.bwd {
				t.Errorf("backward\n got: %s\nwant: %s", bwd, rec.bwd)
			}
		})
	}
	if ran < 100 {
		t.Errorf("only %d items replayed", ran)
	}
}

// q16Item builds an item's inputs and runs its op; the first result is
// the one backward runs from (when the recording has a backward).
type q16Item struct {
	make func(rt *Runtime) []*Tensor
	op   func(rt *Runtime, in []*Tensor) ([]*Tensor, error)
}

type q16Record struct{ fwd, bwd string }

// readQ16 parses "NAME | desc | F: events | B: events" lines of both
// recordings, dropping segment events (S<size>).
func readQ16(t *testing.T) map[string]q16Record {
	t.Helper()
	out := map[string]q16Record{}
	for _, name := range []string{"q16_sort_scan_select.out", "q16b_sort_followup.out"} {
		f, err := os.Open("testdata/questions/" + name)
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(f)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		for sc.Scan() {
			parts := strings.Split(sc.Text(), " | ")
			if len(parts) < 3 {
				continue
			}
			var r q16Record
			for _, p := range parts[2:] {
				switch {
				case strings.HasPrefix(p, "F:"):
					r.fwd = dropSegments(p[2:])
				case strings.HasPrefix(p, "B:"):
					r.bwd = dropSegments(p[2:])
				}
			}
			out[parts[0]] = r
		}
		f.Close()
	}
	return out
}

func dropSegments(s string) string {
	var keep []string
	for _, f := range strings.Fields(s) {
		if !strings.HasPrefix(f, "S") {
			keep = append(keep, f)
		}
	}
	return strings.Join(keep, " ")
}

// replayItem runs it on a fresh runtime and returns its forward and
// backward traces in the recording's notation.
func replayItem(t *testing.T, it q16Item) (string, string) {
	t.Helper()
	var evs []trace.Event
	p := profile.Default()
	a := alloc.New(p, alloc.DefaultConfig(), alloc.NewSimDevice(p), func(e trace.Event) { evs = append(evs, e) })
	rt := NewRuntime(Config{CuBLASWorkspace: p.CuBLASWorkspace, CuBLASLtWorkspace: p.CuBLASLtWorkspace,
		InitCUDA: func() (Memory, error) { return AllocMemory{a}, nil }})
	in := it.make(rt)
	start := len(evs)
	res, err := it.op(rt, in)
	if err != nil {
		t.Fatalf("op: %v", err)
	}
	fwd := formatEvents(evs[start:])
	bwd := ""
	if res[0].RequiresGrad() {
		g := must[*Tensor](t)(rt.OnesLike(res[0]))
		start = len(evs)
		if err := rt.Backward(res[:1], []*Tensor{g}, BackwardOptions{}); err != nil {
			t.Fatalf("backward: %v", err)
		}
		bwd = formatEvents(evs[start:])
		g.Release()
	}
	releaseAll(res)
	releaseAll(in)
	return fwd, bwd
}

// formatEvents writes allocations as "+id:requested" and frees as "-id"
// ("-?" for a block allocated before).
func formatEvents(evs []trace.Event) string {
	ids := map[uint64]int{}
	k := 0
	var out []string
	for _, e := range evs {
		switch e.Kind {
		case trace.Alloc:
			k++
			ids[e.Addr] = k
			out = append(out, fmt.Sprintf("+%d:%d", k, e.Requested))
		case trace.Free:
			if id, ok := ids[e.Addr]; ok {
				out = append(out, fmt.Sprintf("-%d", id))
			} else {
				out = append(out, "-?")
			}
		}
	}
	return strings.Join(out, " ")
}
