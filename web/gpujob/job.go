package gpujob

import (
	"context"
	"encoding/json"
	"time"

	"github.com/gpumem/playground/sim/trace"
)

// Job is one script to run on a GPU.
type Job struct {
	Script    string
	Profile   string // device profile name for the side-by-side simulation ("" = default)
	AllocConf string // PYTORCH_CUDA_ALLOC_CONF
	Limits    Limits
}

// Limits bound one job on a shared server. Zero fields mean no limit.
// The queue enforces MaxWall, MaxOutput and MaxEvents itself (it cancels
// the job's context); MaxSteps and MaxGPUMemory are for the Runner (the
// interpreter's step counter, gpu.Options.MemoryLimit); MaxScript is
// checked before a job is queued.
type Limits struct {
	MaxScript    int           // bytes of source
	MaxSteps     int64         // interpreter steps
	MaxWall      time.Duration // wall time of the run, not counting the wait in the queue
	MaxGPUMemory int64         // bytes the job may hold on the GPU at once
	MaxOutput    int64         // bytes of standard output (text of output events)
	MaxEvents    int           // events streamed to the client
}

// DefaultLimits are the hosted server's limits.
func DefaultLimits() Limits {
	return Limits{
		MaxScript:    256 << 10,
		MaxSteps:     50_000_000,
		MaxWall:      60 * time.Second,
		MaxGPUMemory: 16 << 30,
		MaxOutput:    1 << 20,
		MaxEvents:    1_000_000,
	}
}

// Result is what a finished job reports to the client.
type Result struct {
	Worker     string `json:"worker"`                       // the GPU slot that ran it
	Stdout     string `json:"stdout,omitempty"`             // the script's standard output
	Error      string `json:"error,omitempty"`              // an exception that escaped the script, "Type: message"
	Events     int    `json:"events"`                       // events streamed
	WallNanos  int64  `json:"wall_ns"`                      // time from start to end of the run
	UsedBefore int64  `json:"driver_used_before,omitempty"` // leak check: GPU memory used before the job
	UsedAfter  int64  `json:"driver_used_after,omitempty"`  // and after it
	// Compare is the runner's side-by-side table of the job's GPU run and
	// its simulation (JSON of package gpu/compare's Table), if it made one.
	Compare json.RawMessage `json:"compare,omitempty"`
}

// Runner executes one job, sending each event to emit in order (from one
// goroutine at a time) and returning when the script ends or ctx is done.
// A Runner must stop promptly when ctx is cancelled: the GPU stays
// reserved for it until Run returns. The error is for the host's problems;
// the script's own exception goes in Result.Error.
type Runner interface {
	Run(ctx context.Context, job Job, emit func(trace.Event)) (Result, error)
}

// RunnerFunc adapts a function to Runner.
type RunnerFunc func(ctx context.Context, job Job, emit func(trace.Event)) (Result, error)

// Run calls f.
func (f RunnerFunc) Run(ctx context.Context, job Job, emit func(trace.Event)) (Result, error) {
	return f(ctx, job, emit)
}

// Worker is one GPU slot of a Queue: one job at a time runs on it.
type Worker struct {
	// Name is shown to the user ("GPU 0 (NVIDIA H100 80GB HBM3)").
	Name string
	// Runner executes the jobs.
	Runner Runner
	// LeakCheck, if set, is called after every job; it returns the GPU's
	// used memory before the job and after it (for package gpu: Baseline
	// and DriverUsed after ReleaseAll). Different figures fail the job
	// with a *LeakError.
	LeakCheck func() (usedBefore, usedAfter int64)
}
