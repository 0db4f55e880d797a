package fidelity

import (
	"context"
	"fmt"
	"io"
	"text/tabwriter"
)

// Result is one case's outcome in a fidelity run.
type Result struct {
	Case Case
	Diff Diff
	Err  error // the runner refused the case (not the script's own error)
}

// RunAll simulates every case and returns the outcomes in order.
func RunAll(ctx context.Context, cases []Case, profile string) []Result {
	out := make([]Result, 0, len(cases))
	for _, c := range cases {
		d, _, err := Run(ctx, c, profile)
		out = append(out, Result{Case: c, Diff: d, Err: err})
	}
	return out
}

// WriteTable prints the match table: one line per case and a summary line.
func WriteTable(w io.Writer, rs []Result) (exact int) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "case\tstdout\terror\trows\tfinal\tfirst difference")
	for _, r := range rs {
		d := r.Diff
		if d.Exact() {
			exact++
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%d/%d\t%s\t%s\n", r.Case.Name, mark(d.Stdout), mark(d.Error),
			d.Rows, d.TotalRows, mark(d.Final), d.FirstIssue)
	}
	tw.Flush()
	fmt.Fprintf(w, "exact: %d of %d cases\n", exact, len(rs))
	return exact
}

func mark(ok bool) string {
	if ok {
		return "ok"
	}
	return "DIFF"
}
