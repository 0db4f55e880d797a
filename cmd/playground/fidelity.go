package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"path/filepath"

	"github.com/gpumem/playground/sim/fidelity"
)

// fidelityCmd implements `playground fidelity DIR...`: run every recorded
// case through the simulator, print the match table, and fail when a case
// listed in DIR/exact.txt no longer matches exactly.
func fidelityCmd(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("fidelity", flag.ContinueOnError)
	fs.SetOutput(stderr)
	profileName := fs.String("profile", "", "device profile")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() == 0 {
		fmt.Fprintln(stderr, "usage: playground fidelity [--profile NAME] DIR...")
		return 2
	}
	status := 0
	for _, dir := range fs.Args() {
		cases, err := fidelity.Load(dir)
		if err != nil {
			fmt.Fprintf(stderr, "playground: %v\n", err)
			return 2
		}
		want, err := fidelity.Expected(filepath.Join(dir, "exact.txt"))
		if err != nil {
			fmt.Fprintf(stderr, "playground: %v\n", err)
			return 2
		}
		rs := fidelity.RunAll(context.Background(), cases, *profileName)
		fmt.Fprintf(stdout, "== %s\n", dir)
		fidelity.WriteTable(stdout, rs)
		for _, r := range rs {
			if want[r.Case.Name] && !r.Diff.Exact() {
				fmt.Fprintf(stderr, "REGRESSION %s: %s\n", r.Case.Name, r.Diff.FirstIssue)
				status = 1
			}
		}
	}
	return status
}
