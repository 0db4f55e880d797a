// Package script runs a playground script on a real GPU (package gpu): the
// same interpreter, PyTorch model and caching allocator as sim.Run, with
// the device under the allocator. It is separate from package gpu so that
// the device and its kernels build and test without the simulator.
package script

import (
	"context"
	"errors"
	"fmt"

	"github.com/gpumem/playground/gpu"
	"github.com/gpumem/playground/gpu/gpuexec"
	"github.com/gpumem/playground/sim"
	"github.com/gpumem/playground/sim/alloc"
	"github.com/gpumem/playground/sim/torch"
	"github.com/gpumem/playground/sim/trace"
)

// Result is what Run reports besides the simulator's Result: the
// leak check's figures and the device's counters for the whole job.
type Result struct {
	Result     *sim.Result
	Device     string // the GPU's name
	UsedBefore int64  // DriverUsed when the device was opened (Baseline)
	UsedAfter  int64  // DriverUsed after the job gave everything back
	// HeldRanges and HeldBytes are what the allocator still held when the
	// script ended (blocks alive at exit, such as cuBLAS workspaces, which
	// PyTorch frees only when the process ends): Run returned them.
	HeldRanges int
	HeldBytes  int64
	Calls      gpu.CallStats // driver calls of this job
}

// Run runs req on dev: the same interpreter, PyTorch model and caching
// allocator as sim.Run, with every segment the allocator asks for a real
// cuMemAlloc (or cuMemCreate/cuMemMap for expandable segments), real
// out-of-memory from the driver, and every event stamped with the figures
// only a GPU has (trace.GPU: driver used memory, CUDA-event time, counts and
// time of the allocation calls). The whole run executes on the device's
// worker thread (Device.Do). sink, if not nil, receives every event as it
// happens.
//
// Afterwards every byte must be back: the allocator's cache is emptied when
// the script ends, the blocks still alive then (HeldRanges) are returned as
// a process exit would return them, and the driver's used memory must be
// the baseline again. A job after which it is not fails with a *LeakError. The error is for the host's problems; the script's own exception
// is in Result.Error, as with sim.Run.
//
// Every op the executor has kernels for (package gpu/gpuexec) runs them on
// the device, so printed tensors and .item() show real values and the
// per-line GPU time includes the kernels; the ops it lacks leave their
// outputs "not computed" (see gpu/gpuexec).
func Run(ctx context.Context, dev gpu.Device, req sim.Request, sink func(trace.Event)) (*Result, error) {
	if req.Backend != nil {
		return nil, errors.New("gpu: the request already has a backend")
	}
	run := &Result{Device: dev.Name(), UsedBefore: dev.Baseline()}
	var base gpu.CallStats
	err := dev.Do(func(d gpu.Device) error {
		base = d.Stats()
		tr := gpu.NewTracer(d, nil)
		req.Backend = scriptBackend{dev: d, tr: tr, ex: gpuexec.New(d)}
		res, err := sim.Run(ctx, req, sink)
		if err != nil {
			return err
		}
		run.Result = res
		if err := tr.Err(); err != nil {
			return fmt.Errorf("gpu: measuring the run: %w", err)
		}
		return nil
	})
	// What the allocator still holds at the end is returned here, as the
	// end of a PyTorch process would; the leak check is the driver's figure.
	run.HeldRanges, run.HeldBytes = dev.Live()
	relErr := dev.ReleaseAll()
	var leak *gpu.LeakError
	if errors.As(relErr, &leak) {
		run.UsedAfter = leak.UsedAfter
		if leak.UsedAfter == leak.UsedBefore {
			relErr = nil
		}
	} else if relErr == nil {
		run.UsedAfter, relErr = dev.DriverUsed()
	}
	s := dev.Stats()
	run.Calls = gpu.CallStats{
		Allocs: s.Allocs - base.Allocs, Frees: s.Frees - base.Frees,
		AllocNanos: s.AllocNanos - base.AllocNanos, FreeNanos: s.FreeNanos - base.FreeNanos,
		OOMs: s.OOMs - base.OOMs, Reserves: s.Reserves - base.Reserves, Releases: s.Releases - base.Releases,
		Launches: s.Launches - base.Launches, LaunchNanos: s.LaunchNanos - base.LaunchNanos,
		Copies: s.Copies - base.Copies, CopyNanos: s.CopyNanos - base.CopyNanos,
		ModuleLoads: s.ModuleLoads - base.ModuleLoads, ModuleNanos: s.ModuleNanos - base.ModuleNanos,
	}
	if err := errors.Join(err, relErr); err != nil {
		return run, err
	}
	return run, nil
}

// scriptBackend is the sim.Backend of a GPU run: the device (already on
// its worker thread) and the tracer that stamps the events.
type scriptBackend struct {
	dev gpu.Device
	tr  *gpu.Tracer
	ex  *gpuexec.Executor // computes the tensor values with the device's kernels
}

// Executor makes the run compute values (sim.ValueBackend).
func (b scriptBackend) Executor() torch.Executor { return b.ex }

func (b scriptBackend) Device() alloc.Device  { return b.dev }
func (b scriptBackend) Stamp(ev *trace.Event) { b.tr.Stamp(ev) }
