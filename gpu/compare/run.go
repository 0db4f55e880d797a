package compare

import (
	"context"
	"errors"
	"fmt"

	"github.com/gpumem/playground/gpu"
	"github.com/gpumem/playground/gpu/script"
	"github.com/gpumem/playground/sim"
	"github.com/gpumem/playground/sim/profile"
	"github.com/gpumem/playground/sim/trace"
)

// RunPair runs req on the simulator, then on dev (gpu.RunScript), and
// returns both runs as a Pair. gpuSink, if not nil, receives the GPU run's
// events as they happen. A *gpu.LeakError from the GPU run is returned
// with the Pair (the run itself is complete).
func RunPair(ctx context.Context, dev gpu.Device, req sim.Request, gpuSink func(trace.Event)) (*Pair, error) {
	prof, err := profile.Lookup(req.Profile)
	if err != nil {
		return nil, fmt.Errorf("compare: %w", err)
	}
	simRes, err := sim.Run(ctx, req, nil)
	if err != nil {
		return nil, fmt.Errorf("compare: the simulation: %w", err)
	}
	run, gerr := script.Run(ctx, dev, req, gpuSink)
	var leak *gpu.LeakError
	if gerr != nil && !(errors.As(gerr, &leak) && run != nil && run.Result != nil) {
		return nil, fmt.Errorf("compare: the GPU run: %w", gerr)
	}
	p := &Pair{Name: req.Filename, Script: req.Script, Device: run.Device, SimContext: prof.DriverUsedAtInit,
		Granularity: dev.Granularity(), Sim: side(simRes), GPU: side(run.Result)}
	p.GPU.UsedBefore, p.GPU.UsedAfter = run.UsedBefore, run.UsedAfter
	return p, gerr
}

func side(r *sim.Result) Run {
	out := Run{Stdout: r.Stdout, Events: r.Events}
	if r.Error != nil {
		out.Error = r.Error.Error()
	}
	return out
}
