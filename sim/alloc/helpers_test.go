package alloc

import (
	"fmt"
	"strings"
	"testing"

	"github.com/gpumem/playground/sim/profile"
	"github.com/gpumem/playground/sim/trace"
)

// newTest returns an allocator on a simulated H100 with settings conf.
func newTest(t testing.TB, conf string) *Allocator {
	t.Helper()
	return newTestProfile(t, conf, profile.Default())
}

func newTestProfile(t testing.TB, conf string, p profile.Profile) *Allocator {
	t.Helper()
	cfg, err := ParseConfig(conf)
	if err != nil {
		t.Fatalf("ParseConfig(%q): %v", conf, err)
	}
	return New(p, cfg, nil, nil)
}

// stats returns memory_stats() as a map.
func stats(a *Allocator) map[string]int64 {
	m := map[string]int64{}
	for _, e := range a.MemoryStats() {
		m[e.Key] = e.Value
	}
	return m
}

// mustMalloc allocates or fails the test.
func mustMalloc(t testing.TB, a *Allocator, n int64) *Block {
	t.Helper()
	b, err := a.Malloc(n, trace.Label{Kind: trace.LabelUser})
	if err != nil {
		t.Fatalf("Malloc(%d): %v", n, err)
	}
	return b
}

func mustFree(t testing.TB, a *Allocator, b *Block) {
	t.Helper()
	if err := a.Free(b); err != nil {
		t.Fatalf("Free: %v", err)
	}
}

// layout renders the snapshot as "[4194304A 16777216F(req 0)] …" per segment.
func layout(a *Allocator) string {
	var segs []string
	for _, s := range a.Snapshot().Segments {
		var bl []string
		for _, b := range s.Blocks {
			st := "F"
			if b.State == StateActiveAllocated {
				st = "A"
			}
			bl = append(bl, fmt.Sprintf("%d%s(%d)", b.Size, st, b.RequestedSize))
		}
		segs = append(segs, "["+strings.Join(bl, " ")+"]")
	}
	return strings.Join(segs, " ")
}

// checkStats compares selected memory_stats keys.
func checkStats(t *testing.T, a *Allocator, want map[string]int64) {
	t.Helper()
	got := stats(a)
	for k, v := range want {
		g, ok := got[k]
		if !ok {
			t.Errorf("memory_stats has no key %q", k)
		} else if g != v {
			t.Errorf("%s = %d, want %d", k, g, v)
		}
	}
}
