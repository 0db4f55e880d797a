package alloc

import (
	"fmt"
	"hash/fnv"
	"io"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/gpumem/playground/sim/profile"
	"github.com/gpumem/playground/sim/trace"
)

// TestTraceDigests pins the allocator's observable behaviour: long random
// programs under every randomized configuration, and the benchmark's
// working set, are run with an event sink, and a digest of the whole event
// stream (every address, size and headline figure), the history ring
// buffer, the final memory_stats, snapshot layout and memory_summary is
// compared with testdata/trace_digests.golden. The golden file was written
// by the implementation before the free-set rewrite (two-level sorted
// chunks), so any change of a block choice shows up here. Regenerate with
// -update only for an intended change of behaviour.
func TestTraceDigests(t *testing.T) {
	var sb strings.Builder
	for i, rc := range randomConfigs {
		for seed := uint64(1); seed <= 2; seed++ {
			d := digestRandom(t, seed*1000+uint64(i), rc.conf, rc.fraction, 6000)
			fmt.Fprintf(&sb, "random %d seed %d %q: %016x\n", i, seed, rc.conf, d)
		}
	}
	for i, conf := range []string{"", "expandable_segments:True", "max_split_size_mb:64"} {
		fmt.Fprintf(&sb, "workset %d %q: %016x\n", i, conf, digestWorkset(t, conf, 30000))
	}
	golden(t, "trace_digests.golden", sb.String())
}

// writeEvent writes every field of ev that the allocator sets.
func writeEvent(w io.Writer, ev trace.Event) {
	var l trace.Label
	if ev.Label != nil {
		l = *ev.Label
	}
	fmt.Fprintf(w, "%s %x %d %d %x %s %v %q %+v\n", ev.Kind, ev.Addr, ev.Size, ev.Requested, ev.Segment, ev.Pool, l, ev.Text, ev.Stats)
}

// writeState writes the allocator's inspectable state.
func writeState(w io.Writer, a *Allocator) {
	fmt.Fprintln(w, layout(a))
	fmt.Fprintln(w, a.Summary(0, false))
	for _, e := range a.MemoryStats() {
		fmt.Fprintf(w, "%s=%d\n", e.Key, e.Value)
	}
	for _, e := range a.Snapshot().Traces {
		fmt.Fprintf(w, "%+v\n", e)
	}
}

// digestRandom runs n random operations (as runRandom) and digests them.
func digestRandom(t *testing.T, seed uint64, conf string, fraction float64, n int) uint64 {
	t.Helper()
	h := fnv.New64a()
	r := rand.New(rand.NewPCG(seed, 11))
	cfg, err := ParseConfig(conf)
	if err != nil {
		t.Fatal(err)
	}
	a := New(smallProfile(), cfg, nil, func(ev trace.Event) { writeEvent(h, ev) })
	if fraction > 0 {
		if err := a.SetMemoryFraction(fraction); err != nil {
			t.Fatal(err)
		}
	}
	a.RecordHistory(true, 500)
	var live []*Block
	for i := 0; i < n; i++ {
		switch x := r.IntN(100); {
		case x < 55:
			name := fmt.Sprintf("t%d", i)
			b, err := a.Malloc(randomSize(r), trace.Label{Kind: trace.LabelUser, Name: name})
			if err != nil {
				fmt.Fprintf(h, "err %v\n", err)
			} else {
				live = append(live, b)
			}
		case x < 95:
			if len(live) > 0 {
				j := r.IntN(len(live))
				if err := a.Free(live[j]); err != nil {
					t.Fatalf("op %d: %v", i, err)
				}
				live[j] = live[len(live)-1]
				live = live[:len(live)-1]
			}
		case x < 97:
			a.EmptyCache()
		case x < 98:
			a.ResetPeakStats()
		default:
			writeState(h, a)
		}
	}
	writeState(h, a)
	return h.Sum64()
}

// digestWorkset runs the benchmark's pattern (10 000 live blocks, each step
// frees a random one and allocates another) on the default profile and
// digests the event stream.
func digestWorkset(t *testing.T, conf string, steps int) uint64 {
	t.Helper()
	h := fnv.New64a()
	cfg, err := ParseConfig(conf)
	if err != nil {
		t.Fatal(err)
	}
	a := New(profile.Default(), cfg, nil, func(ev trace.Event) { writeEvent(h, ev) })
	r := rand.New(rand.NewPCG(5, 6))
	size := func() int64 {
		if r.IntN(5) == 0 {
			return 1<<20 + r.Int64N(15<<20)
		}
		if r.IntN(3) == 0 {
			return 512 * (1 + r.Int64N(8)) // many equal sizes
		}
		return 1 + r.Int64N(1<<20)
	}
	label := trace.Label{Kind: trace.LabelUser}
	live := make([]*Block, 10000)
	for i := range live {
		live[i] = mustMalloc(t, a, size())
	}
	for i := 0; i < steps; i++ {
		j := r.IntN(len(live))
		mustFree(t, a, live[j])
		b, err := a.Malloc(size(), label)
		if err != nil {
			t.Fatal(err)
		}
		live[j] = b
	}
	writeState(h, a)
	return h.Sum64()
}
