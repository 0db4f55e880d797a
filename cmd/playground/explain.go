package main

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/gpumem/playground/sim/trace"
)

// writeExplain prints the per-line table of --explain: for every executed
// line, the change in allocated memory, the figures after it, and what was
// allocated or freed, with labels.
func writeExplain(w io.Writer, src string, events []trace.Event) {
	lines := strings.Split(src, "\n")
	code := func(n int) string {
		if n >= 1 && n <= len(lines) {
			return strings.TrimSpace(lines[n-1])
		}
		return ""
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(w)
	fmt.Fprintln(tw, "line\tcode\tΔallocated\tallocated\treserved\twhat happened")
	var (
		cur    = -1
		before trace.Stats
		last   trace.Stats
		what   []string
	)
	flush := func() {
		if cur < 0 {
			return
		}
		d := last.Allocated - before.Allocated
		if d == 0 && len(what) == 0 {
			return
		}
		fmt.Fprintf(tw, "%d\t%s\t%+d\t%d\t%d\t%s\n", cur, clip(code(cur), 40), d, last.Allocated, last.Reserved, strings.Join(what, "; "))
	}
	for _, e := range events {
		switch e.Kind {
		case trace.Line, trace.End:
			flush()
			cur, before, last, what = e.Line, e.Stats, e.Stats, nil
			if e.Kind == trace.End {
				cur = -1
			}
			continue
		case trace.Alloc:
			what = append(what, fmt.Sprintf("+%d %s", e.Size, labelText(e.Label)))
		case trace.Free:
			what = append(what, fmt.Sprintf("-%d %s", e.Size, labelText(e.Label)))
		case trace.SegmentAlloc, trace.SegmentMap:
			what = append(what, fmt.Sprintf("+segment %d", e.Size))
		case trace.SegmentFree, trace.SegmentUnmap:
			what = append(what, fmt.Sprintf("-segment %d", e.Size))
		case trace.OOM:
			what = append(what, "OUT OF MEMORY")
		}
		last = e.Stats
	}
	flush()
	tw.Flush()
}

func labelText(l *trace.Label) string {
	if l == nil {
		return "(unlabelled)"
	}
	if l.Name == "" {
		return string(l.Kind)
	}
	return fmt.Sprintf("%s %s", l.Kind, l.Name)
}

func clip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}
