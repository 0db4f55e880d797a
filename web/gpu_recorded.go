package web

import (
	"context"
	"fmt"

	"github.com/gpumem/playground/gpu/compare"
	"github.com/gpumem/playground/sim"
	"github.com/gpumem/playground/sim/profile"
	"github.com/gpumem/playground/sim/trace"
	"github.com/gpumem/playground/web/gpujob"
)

// RecordedGPURunner is "Run on GPU" without a GPU, for tests and demos: the
// script is simulated now, as GPURunner does, and a run recorded on a real
// GPU (the GPU side of a compare.Pair, gpu/compare/testdata/*.json) stands
// in for the device: its events are streamed and its figures compared with
// the simulation's. Only the recorded script can run: for another one the
// recording would say nothing, so such a job fails.
type RecordedGPURunner struct {
	Pair *compare.Pair
}

// Run implements gpujob.Runner.
func (r RecordedGPURunner) Run(ctx context.Context, job gpujob.Job, emit func(trace.Event)) (gpujob.Result, error) {
	rec := r.Pair
	if job.Script != rec.Script {
		return gpujob.Result{}, fmt.Errorf("web: this server replays a GPU recording of %s; only that script can run on its GPU", rec.Name)
	}
	req := simRequest(job)
	prof, err := profile.Lookup(req.Profile)
	if err != nil {
		return gpujob.Result{}, fmt.Errorf("web: %w", err)
	}
	simRes, err := sim.Run(ctx, req, nil)
	if err != nil {
		return gpujob.Result{}, fmt.Errorf("web: the simulation: %w", err)
	}
	for _, ev := range rec.GPU.Events {
		if err := ctx.Err(); err != nil {
			return gpujob.Result{}, context.Cause(ctx)
		}
		emit(ev)
	}
	p := &compare.Pair{Name: rec.Name, Script: rec.Script, Source: rec.Source, Device: rec.Device, SimContext: prof.DriverUsedAtInit,
		Granularity: rec.Granularity, Sim: compare.Run{Stdout: simRes.Stdout, Events: simRes.Events}, GPU: rec.GPU}
	if simRes.Error != nil {
		p.Sim.Error = simRes.Error.Error()
	}
	return pairResult(p)
}
