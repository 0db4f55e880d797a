// Package compare puts a script's simulated run and its run on a real GPU
// side by side, one row per executed line, with the difference of the
// allocator's and the driver's figures and the reason for each difference:
// the CUDA context, the driver's page granularity or other memory on the
// GPU, a real out-of-memory, timing, printed output, or a real mismatch of
// the allocator model.
//
// It needs no GPU: it reads two event streams (package trace). The CLI's
// `playground run --compare` and the server's "Run on GPU" use it; its tests
// replay runs recorded on an H100 (testdata/*.json).
package compare

import (
	"encoding/json"
	"fmt"
	"io"

	"github.com/gpumem/playground/sim/trace"
)

// Run is one side of a Pair: what a run printed, raised and emitted.
type Run struct {
	Stdout string        `json:"stdout"`
	Error  string        `json:"error,omitempty"` // "Type: message" of an escaped exception
	Events []trace.Event `json:"events"`
	// UsedBefore and UsedAfter are the GPU's leak check (driver used memory
	// when the device was opened, and after the job gave everything back);
	// zero for the simulation.
	UsedBefore int64 `json:"driver_used_before,omitempty"`
	UsedAfter  int64 `json:"driver_used_after,omitempty"`
}

// Pair is one script run on the simulator and on a GPU: the input of
// Compare, and the format of recorded runs (testdata/*.json).
type Pair struct {
	Name   string `json:"name"`   // file name of the script
	Script string `json:"script"` // its source
	Source string `json:"source,omitempty"`
	Device string `json:"device"` // the GPU's name
	// SimContext is the driver's used memory the simulation models for the
	// CUDA context (the profile's DriverUsedAtInit).
	SimContext int64 `json:"sim_context"`
	// Granularity is the GPU's mapping page size (2 MiB on the H100).
	Granularity int64 `json:"granularity"`
	Sim         Run   `json:"sim"`
	GPU         Run   `json:"gpu"`
}

// ReadPair decodes a recorded Pair.
func ReadPair(r io.Reader) (*Pair, error) {
	var p Pair
	if err := json.NewDecoder(r).Decode(&p); err != nil {
		return nil, fmt.Errorf("compare: reading a recorded pair: %w", err)
	}
	return &p, nil
}
