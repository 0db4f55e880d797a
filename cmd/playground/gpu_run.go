package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"

	"github.com/gpumem/playground/gpu"
	"github.com/gpumem/playground/gpu/compare"
	"github.com/gpumem/playground/gpu/script"
	"github.com/gpumem/playground/sim"
)

// openGPU opens the GPU of `run --backend gpu` and `--compare`; tests
// replace it with a fake device. In a binary built without -tags cuda it
// returns gpu.ErrNotBuilt ("this binary was built without the GPU backend
// (build with -tags cuda)").
var openGPU = gpu.Open

// recordEnv names a file that `run --compare` writes both runs to (the
// JSON of compare.Pair), for recording fixtures on a GPU machine.
const recordEnv = "PLAYGROUND_GPU_RECORD"

// gpuRun runs a script on the real-GPU backend (--backend gpu) and prints
// its output and a per-line table of the allocator's figures, the driver's
// used memory, the GPU time and the cuMemAlloc/cuMemFree calls; with
// compare it also simulates the script and prints both side by side, with
// the differences and their reasons. It returns the exit status: 0, 1 when
// the script raised or the GPU did not get all its memory back, 2 when the
// run could not be made.
func gpuRun(backend string, cmp bool, path string, src []byte, stdout, stderr io.Writer) int {
	if backend != "gpu" && backend != "sim" {
		fmt.Fprintf(stderr, "playground: unknown backend %q (want sim or gpu)\n", backend)
		return 2
	}
	dev, err := openGPU(gpu.Options{})
	if err != nil {
		fmt.Fprintf(stderr, "playground: %v\n", err)
		return 2
	}
	defer dev.Close()
	req := sim.Request{Script: string(src), Filename: path, Env: map[string]string{}}
	for _, k := range allocEnv {
		if v, ok := os.LookupEnv(k); ok {
			req.Env[k] = v
		}
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if cmp {
		return gpuCompare(ctx, dev, req, stdout, stderr)
	}
	run, err := script.Run(ctx, dev, req, nil)
	var leak *gpu.LeakError
	if err != nil && !errors.As(err, &leak) {
		fmt.Fprintf(stderr, "playground: %v\n", err)
		return 2
	}
	io.WriteString(stdout, run.Result.Stdout)
	fmt.Fprintf(stdout, "\n%s\n", run.Device)
	compare.WriteSteps(stdout, string(src), compare.Steps(run.Result.Events, 0))
	c := run.Calls
	fmt.Fprintf(stdout, "\ndevice calls: %d cuMemAlloc/map (%s), %d cuMemFree/unmap (%s), %d refused (out of memory)\n",
		c.Allocs, ms(c.AllocNanos), c.Frees, ms(c.FreeNanos), c.OOMs)
	fmt.Fprintf(stdout, "kernels: %d launches (%s of host time in cuLaunchKernel), %d host-device copies (%s), %d modules loaded (%s)\n",
		c.Launches, ms(c.LaunchNanos), c.Copies, ms(c.CopyNanos), c.ModuleLoads, ms(c.ModuleNanos))
	fmt.Fprintf(stdout, "held at the end and returned: %d ranges, %d B; driver used %d B before, %d B after\n",
		run.HeldRanges, run.HeldBytes, run.UsedBefore, run.UsedAfter)
	return status(run.Result, err, stderr)
}

// gpuCompare runs both backends and prints the side-by-side table.
func gpuCompare(ctx context.Context, dev gpu.Device, req sim.Request, stdout, stderr io.Writer) int {
	p, err := compare.RunPair(ctx, dev, req, nil)
	var leak *gpu.LeakError
	if err != nil && !errors.As(err, &leak) {
		fmt.Fprintf(stderr, "playground: %v\n", err)
		return 2
	}
	if f := os.Getenv(recordEnv); f != "" {
		raw, merr := json.MarshalIndent(p, "", " ")
		if merr == nil {
			merr = os.WriteFile(f, append(raw, '\n'), 0o644)
		}
		if merr != nil {
			fmt.Fprintf(stderr, "playground: recording the runs: %v\n", merr)
			return 2
		}
	}
	io.WriteString(stdout, p.GPU.Stdout)
	fmt.Fprintln(stdout)
	compare.Compare(p, compare.Options{}).WriteText(stdout, req.Script)
	code := 0
	if p.GPU.Error != "" {
		fmt.Fprintf(stderr, "%s\n", p.GPU.Error)
		code = 1
	}
	if leak != nil {
		fmt.Fprintf(stderr, "playground: %v\n", leak)
		code = 1
	}
	return code
}

// status prints the script's traceback or the leak and returns the exit
// status.
func status(res *sim.Result, err error, stderr io.Writer) int {
	code := 0
	if res.Error != nil {
		io.WriteString(stderr, res.Error.Traceback)
		code = 1
	}
	if err != nil {
		fmt.Fprintf(stderr, "playground: %v\n", err)
		code = 1
	}
	return code
}

func ms(ns int64) string { return fmt.Sprintf("%.3f ms", float64(ns)/1e6) }
