package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"

	"github.com/gpumem/playground/sim"
)

// allocEnv are the environment variables a script's allocator reads.
var allocEnv = []string{"PYTORCH_CUDA_ALLOC_CONF", "PYTORCH_ALLOC_CONF", "CUBLAS_WORKSPACE_CONFIG",
	"CUBLASLT_WORKSPACE_SIZE", "TORCH_CUBLASLT_UNIFIED_WORKSPACE", "PYTORCH_NO_CUDA_MEMORY_CACHING"}

// runCmd implements `playground run`: simulate a script and print its output
// as python3 with PyTorch would on the profile's GPU.
func runCmd(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("run", flag.ContinueOnError)
	fs.SetOutput(stderr)
	profileName := fs.String("profile", "", "device profile (default: H100 80GB with PyTorch 2.11)")
	traceFile := fs.String("trace", "", "write the oracle harness's JSON for this run to `FILE`")
	explain := fs.Bool("explain", false, "print a per-line table of what was allocated and freed")
	backend := fs.String("backend", "sim", "where to run: sim, or gpu (binary built with -tags cuda)")
	compare := fs.Bool("compare", false, "run on the simulator and the GPU and print both side by side")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: playground run [--profile NAME] [--trace FILE] [--explain] [--backend sim|gpu] [--compare] SCRIPT.py")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() != 1 {
		fs.Usage()
		return 2
	}
	path := fs.Arg(0)
	src, err := os.ReadFile(path)
	if err != nil {
		fmt.Fprintf(stderr, "playground: %v\n", err)
		return 2
	}
	if *backend != "sim" || *compare {
		return gpuRun(*backend, *compare, path, src, stdout, stderr)
	}
	req := sim.Request{Script: string(src), Filename: path, Profile: *profileName, Env: map[string]string{}}
	for _, k := range allocEnv {
		if v, ok := os.LookupEnv(k); ok {
			req.Env[k] = v
		}
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	res, err := sim.Run(ctx, req, nil)
	if err != nil {
		fmt.Fprintf(stderr, "playground: %v\n", err)
		return 2
	}
	io.WriteString(stdout, res.Stdout)
	if *explain {
		writeExplain(stdout, string(src), res.Events)
	}
	if *traceFile != "" {
		raw, err := json.MarshalIndent(res.Golden, "", " ")
		if err == nil {
			err = os.WriteFile(*traceFile, append(raw, '\n'), 0o644)
		}
		if err != nil {
			fmt.Fprintf(stderr, "playground: writing trace: %v\n", err)
			return 2
		}
	}
	if res.Error != nil {
		io.WriteString(stderr, res.Error.Traceback)
		return 1
	}
	return 0
}
