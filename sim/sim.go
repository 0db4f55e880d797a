// Package sim runs a PyTorch script against the simulated CUDA caching
// allocator and returns everything a view needs: the script's output, a
// Python-style error if one escaped, and the event stream (package trace).
//
// Sub-packages hold the parts: py (the script language), torch (the model of
// PyTorch), alloc (the caching allocator), profile (devices), trace (events),
// pickle (snapshot files).
package sim

import (
	"context"
	"fmt"
	"runtime/debug"
	"time"

	"github.com/gpumem/playground/sim/alloc"
	"github.com/gpumem/playground/sim/profile"
	"github.com/gpumem/playground/sim/trace"
)

// Version identifies the simulator's behaviour: the same script, version,
// profile and allocator settings give the same events.
const Version = "0.1.0"

// Request is one run of a script.
type Request struct {
	Script    string            // Python source
	Filename  string            // name shown in tracebacks; "" means "<script>"
	Profile   string            // device profile name; "" means the default (H100, PyTorch 2.11)
	AllocConf string            // PYTORCH_CUDA_ALLOC_CONF / PYTORCH_ALLOC_CONF value
	Env       map[string]string // further environment variables the script sees (os.environ)
	Limits    Limits
	// NoGolden skips Result.Golden, the oracle harness's record (final
	// memory_stats and snapshot): the browser never reads it, and building
	// it is a measurable part of a first run there.
	NoGolden bool `json:"-"`
	// Backend, if not nil, puts the run on another device than the
	// profile's simulated one (package gpu: a real GPU). nil: simulate.
	Backend Backend `json:"-"`
}

// Backend is a device that a run can use instead of the simulated one: the
// same interpreter, PyTorch model and caching allocator, with every segment
// the allocator asks for coming from Device. Run calls its methods on the
// goroutine that called Run.
type Backend interface {
	// Device is the allocator's device for the run.
	Device() alloc.Device
	// Stamp is called with every event just before it is kept and sent
	// (Seq, Line and Stats are set): the backend may add the figures only
	// it has (Event.GPU).
	Stamp(e *trace.Event)
}

// Limits bound a run of untrusted code. Zero fields take DefaultLimits' values.
type Limits struct {
	MaxSteps      int64         // interpreter steps (statements and calls)
	MaxDuration   time.Duration // wall time
	MaxOutput     int           // bytes of standard output
	MaxScript     int           // bytes of source
	MaxRecursion  int           // Python call depth
	MaxCollection int           // elements in one list/dict/set/str
	MaxEvents     int           // events kept in Result.Events
}

// DefaultLimits are the limits of the hosted playground.
func DefaultLimits() Limits {
	return Limits{
		MaxSteps:      50_000_000,
		MaxDuration:   10 * time.Second,
		MaxOutput:     1 << 20,
		MaxScript:     256 << 10,
		MaxRecursion:  200,
		MaxCollection: 10_000_000,
		MaxEvents:     1_000_000,
	}
}

// ScriptError is an exception that escaped the script, as Python shows it.
type ScriptError struct {
	Type      string // "RuntimeError", "SyntaxError", "torch.OutOfMemoryError", ...
	Message   string // str(exception)
	Traceback string // the whole text Python prints on stderr, ending in "Type: message\n"
	Line      int    // line of the innermost frame (or of the syntax error)
	Col       int    // column of a syntax error (1-based), else 0
}

// Error returns "Type: message", as the oracle harness records it.
func (e *ScriptError) Error() string {
	if e.Message == "" {
		return e.Type
	}
	return e.Type + ": " + e.Message
}

// Result is what a run produced.
type Result struct {
	Stdout string
	Error  *ScriptError  // nil if the script ended normally
	Events []trace.Event // the whole stream, in order
	Golden *trace.Golden // the same run in the oracle harness's format (nil with Request.NoGolden)
}

// Run executes req. sink, if not nil, receives every event as it happens
// (the browser and the websocket stream use it); the same events are in
// Result.Events. The error is for the host's problems (an unknown profile, a
// bad allocator setting); the script's own errors are in Result.Error.
//
// The run mirrors the oracle harness: CUDA is initialised lazily (at the
// first allocation or torch.cuda call, reading the allocator settings from
// os.environ then, so a script may set PYTORCH_CUDA_ALLOC_CONF before), a
// trace row is taken before every line event of the script, and a final
// row (line -1) after the script ended and its globals were released.
func Run(ctx context.Context, req Request, sink func(trace.Event)) (res *Result, err error) {
	defer func() {
		if r := recover(); r != nil {
			res, err = nil, fmt.Errorf("sim: internal error: %v\n%s", r, debug.Stack())
		}
	}()
	prof, err := profile.Lookup(req.Profile)
	if err != nil {
		return nil, fmt.Errorf("sim: %w", err)
	}
	env := map[string]string{}
	for k, v := range req.Env {
		env[k] = v
	}
	if req.AllocConf != "" {
		if _, err := alloc.ParseConfig(req.AllocConf); err != nil {
			return nil, fmt.Errorf("sim: allocator settings: %w", err)
		}
		env["PYTORCH_CUDA_ALLOC_CONF"] = req.AllocConf
	}
	r := newRunner(req, prof, sink)
	return r.run(ctx, env)
}
