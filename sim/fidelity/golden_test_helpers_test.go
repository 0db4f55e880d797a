package fidelity

import "github.com/gpumem/playground/sim/trace"

func goldenOf(stdout string, err *string, rows [][]int64) *trace.Golden {
	return &trace.Golden{Stdout: stdout, Error: err, Trace: rows, FinalStats: map[string]int64{}}
}
