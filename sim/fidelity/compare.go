package fidelity

import (
	"fmt"
	"strings"

	"github.com/gpumem/playground/sim/trace"
)

// FinalKeys are the final_stats entries that must match exactly: the peaks
// and the allocator's counters.
var FinalKeys = []string{
	"allocated_bytes.all.peak", "reserved_bytes.all.peak",
	"num_alloc_retries", "num_ooms", "num_device_alloc",
}

// Diff is the comparison of one case.
type Diff struct {
	Stdout     bool   // stdout equal byte for byte
	Error      bool   // escaped error equal ("Type: message")
	Rows       int    // trace rows that are equal, position by position
	TotalRows  int    // rows in the golden trace
	Final      bool   // every FinalKeys entry equal
	FirstIssue string // a description of the first difference, "" if none
}

// Exact reports whether everything matched.
func (d Diff) Exact() bool {
	return d.Stdout && d.Error && d.Final && d.Rows == d.TotalRows
}

// Compare compares a simulated run (got) with the recorded truth (want).
func Compare(want, got *trace.Golden) Diff {
	var d Diff
	note := func(format string, args ...any) {
		if d.FirstIssue == "" {
			d.FirstIssue = fmt.Sprintf(format, args...)
		}
	}
	d.Stdout = want.Stdout == got.Stdout
	if !d.Stdout {
		note("stdout: %s", firstLineDiff(want.Stdout, got.Stdout))
	}
	we, ge := deref(want.Error), deref(got.Error)
	d.Error = we == ge
	if !d.Error {
		note("error: want %q, got %q", clip(we, 160), clip(ge, 160))
	}
	d.TotalRows = len(want.Trace)
	for i, w := range want.Trace {
		if i >= len(got.Trace) {
			note("trace: %d rows recorded, %d simulated", len(want.Trace), len(got.Trace))
			break
		}
		if equalRow(w, got.Trace[i]) {
			d.Rows++
			continue
		}
		note("trace row %d: want %v, got %v", i, w, got.Trace[i])
	}
	if len(got.Trace) > len(want.Trace) {
		note("trace: %d rows recorded, %d simulated", len(want.Trace), len(got.Trace))
		d.Rows = min(d.Rows, d.TotalRows-1)
	}
	d.Final = true
	for _, k := range FinalKeys {
		if want.FinalStats[k] != got.FinalStats[k] {
			d.Final = false
			note("final %s: want %d, got %d", k, want.FinalStats[k], got.FinalStats[k])
		}
	}
	return d
}

func equalRow(a, b []int64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// firstLineDiff describes the first line where two outputs differ.
func firstLineDiff(want, got string) string {
	wl, gl := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := 0; i < max(len(wl), len(gl)); i++ {
		var w, g string
		if i < len(wl) {
			w = wl[i]
		}
		if i < len(gl) {
			g = gl[i]
		}
		if w != g {
			return fmt.Sprintf("line %d: want %q, got %q", i+1, clip(w, 160), clip(g, 160))
		}
	}
	return "differs"
}

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}
