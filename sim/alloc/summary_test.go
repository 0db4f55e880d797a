package alloc

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite golden files in testdata/")

// golden compares got with testdata/name, or rewrites it with -update.
func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("reading golden file: %v", err)
	}
	if got != string(want) {
		t.Errorf("%s differs:\n got:\n%s\nwant:\n%s", name, got, want)
	}
}

// TestSummaryExampleA checks memory_summary() after worked example (a)
// against the verified text of spec §9 (testdata/summary_a.golden, copied
// from the spec, not generated).
func TestSummaryExampleA(t *testing.T) {
	a := newTest(t, "")
	x := mustMalloc(t, a, 4194304)
	y := mustMalloc(t, a, 16777216)
	mustFree(t, a, x)
	mustFree(t, a, y)
	a.EmptyCache()
	got := a.Summary(0, false)
	want, err := os.ReadFile(filepath.Join("testdata", "summary_a.golden"))
	if err != nil {
		t.Fatal(err)
	}
	if got != string(want) {
		t.Errorf("summary differs:\n got:\n%s\nwant:\n%s", got, want)
	}
	// abbreviated drops exactly the pool rows.
	var kept []string
	for _, l := range strings.SplitAfter(string(want), "\n") {
		if !strings.Contains(l, "from large pool") && !strings.Contains(l, "from small pool") {
			kept = append(kept, l)
		}
	}
	if abbr := a.Summary(0, true); abbr != strings.Join(kept, "") {
		t.Errorf("abbreviated summary:\n%s", abbr)
	}
}

// TestSummaryUnits checks unit selection from the "all" row (spec §9) with
// mixed pools, against a golden file produced by this code and checked by
// hand.
func TestSummaryUnits(t *testing.T) {
	a := newTest(t, "")
	mustMalloc(t, a, 1024*1024*4)
	mustMalloc(t, a, 1000)
	c := mustMalloc(t, a, 3*1024*1024+7)
	mustFree(t, a, c)
	golden(t, "summary_units.golden", a.Summary(3, false))
}

func TestFormatCells(t *testing.T) {
	tests := []struct {
		sz   int64
		pref float64
		want string
	}{
		{0, 0, "     0 B  "},
		{20971520, 20971520, " 20480 KiB"},
		{629964800, 629964800, "615200 KiB"},
		{943718400, 943718400, "   900 MiB"},
		{0, 20971520, "     0 KiB"},
		{786431, 786431, "786431 B  "},
		{786432, 786432, "   768 KiB"},
	}
	for _, tc := range tests {
		if got := formatSizeCell(tc.sz, tc.pref); got != tc.want {
			t.Errorf("formatSizeCell(%d, %v) = %q, want %q", tc.sz, tc.pref, got, tc.want)
		}
	}
	counts := []struct {
		n    int64
		pref float64
		want string
	}{
		{2, 2, "      2   "},
		{749999, 749999, " 749999   "},
		{750000, 750000, "    750 K "},
		{1, 750000, "      0 K "},
		{2_000_000_000, 2_000_000_000, "   2000 M "},
	}
	for _, tc := range counts {
		if got := formatCountCell(tc.n, tc.pref); got != tc.want {
			t.Errorf("formatCountCell(%d, %v) = %q, want %q", tc.n, tc.pref, got, tc.want)
		}
	}
}
