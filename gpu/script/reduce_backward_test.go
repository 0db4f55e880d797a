package script

import (
	"os"
	"strings"
	"testing"
)

// TestReduceBackwardRecorded runs testdata/torch-pending/reduce_backward.py
// (the reductions' backwards) on the CPU reference and compares its first
// records with the part of PyTorch's output recorded on an H200
// (gpu/testdata/h200-values-reduce-backward.txt; the script moves to
// testdata/torch once its whole output is recorded). Every record of the
// run must be computed.
func TestReduceBackwardRecorded(t *testing.T) {
	b, err := os.ReadFile("../testdata/h200-values-reduce-backward.txt")
	if err != nil {
		t.Fatal(err)
	}
	var want strings.Builder
	for _, line := range strings.SplitAfter(string(b), "\n") {
		if !strings.HasPrefix(line, "#") {
			want.WriteString(line)
		}
	}
	got := runReference(t, "testdata/torch-pending/reduce_backward.py")
	if strings.Contains(got, "not computed") {
		t.Errorf("output has values that were not computed:\n%s", got)
	}
	w := records(want.String())
	g := records(got)
	if len(w) == 0 || len(g) < len(w) {
		t.Fatalf("%d records, want at least %d", len(g), len(w))
	}
	for i := range w {
		if d := compareRecord(g[i], w[i]); d != "" {
			t.Errorf("record %d: %s\n got: %s\nwant: %s", i+1, d, g[i], w[i])
		}
	}
}
