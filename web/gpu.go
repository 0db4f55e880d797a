package web

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"

	"github.com/gpumem/playground/gpu"
	"github.com/gpumem/playground/gpu/compare"
	"github.com/gpumem/playground/sim"
	"github.com/gpumem/playground/sim/trace"
	"github.com/gpumem/playground/web/gpujob"
)

// GPU is the "Run on GPU" service of a server with a GPU: the websocket
// endpoint (/gpu/ws) of a gpujob queue, and what the page needs to know
// (/gpu/info). Build it with NewGPU and pass it in Options.GPU.
type GPU struct {
	// Handler serves the websocket protocol of package gpujob.
	Handler http.Handler
	// Info is what /gpu/info reports: the device and the job limits.
	Info GPUInfo
}

// GPUInfo tells the page that "Run on GPU" is available, on what, and
// under which limits.
type GPUInfo struct {
	Devices []string      `json:"devices"`
	Limits  gpujob.Limits `json:"limits"`
	Stats   *gpujob.Stats `json:"stats,omitempty"`
	queue   *gpujob.Queue // for live stats
}

// NewGPU puts dev behind a queue (one job at a time) and a websocket
// handler with the given per-job limits (zero: gpujob.DefaultLimits).
// Each job runs the script on the simulator and on dev (compare.RunPair),
// streams the GPU run's events, and returns the side-by-side table in its
// result; after it, the driver's used memory must be back at the device's
// baseline, or the job fails as a leak. Close the returned queue (then the
// device) when the server stops.
func NewGPU(dev gpu.Device, limits gpujob.Limits, opts gpujob.Options) (*GPU, *gpujob.Queue, error) {
	name := dev.Name()
	return NewGPUService([]gpujob.Worker{{
		Name:   "GPU 0 (" + name + ")",
		Runner: GPURunner{Dev: dev},
		LeakCheck: func() (int64, int64) {
			used, err := dev.DriverUsed()
			if err != nil {
				return dev.Baseline(), -1
			}
			return dev.Baseline(), used
		},
	}}, []string{name}, limits, opts)
}

// NewGPUService is NewGPU for any workers: the queue over them and its
// websocket handler, with devices as /gpu/info names them. Tests and demos
// use it with a RecordedGPURunner or gpujob.ReplayRunner in place of a GPU.
func NewGPUService(workers []gpujob.Worker, devices []string, limits gpujob.Limits, opts gpujob.Options) (*GPU, *gpujob.Queue, error) {
	if limits == (gpujob.Limits{}) {
		limits = gpujob.DefaultLimits()
	}
	q, err := gpujob.NewQueue(workers, opts)
	if err != nil {
		return nil, nil, fmt.Errorf("web: GPU queue: %w", err)
	}
	h := gpujob.NewHandler(q, gpujob.HandlerOptions{Limits: limits, Log: opts.Log})
	return &GPU{Handler: h, Info: GPUInfo{Devices: devices, Limits: limits, queue: q}}, q, nil
}

// GPURunner is the gpujob.Runner of one GPU: the script on the simulator,
// then on the device, both under the job's limits.
type GPURunner struct {
	Dev gpu.Device
}

// Run implements gpujob.Runner. The events sent to emit are the GPU run's.
func (r GPURunner) Run(ctx context.Context, job gpujob.Job, emit func(trace.Event)) (gpujob.Result, error) {
	p, err := compare.RunPair(ctx, r.Dev, simRequest(job), emit)
	var leak *gpu.LeakError
	if err != nil && !errors.As(err, &leak) {
		return gpujob.Result{}, err
	}
	res, cerr := pairResult(p)
	if cerr != nil {
		return res, cerr
	}
	return res, err
}

// simRequest is the simulator's request for a job, under its limits.
func simRequest(job gpujob.Job) sim.Request {
	lim := sim.DefaultLimits()
	if job.Limits.MaxSteps > 0 {
		lim.MaxSteps = job.Limits.MaxSteps
	}
	if job.Limits.MaxWall > 0 {
		lim.MaxDuration = job.Limits.MaxWall
	}
	if job.Limits.MaxOutput > 0 {
		lim.MaxOutput = int(job.Limits.MaxOutput)
	}
	if job.Limits.MaxScript > 0 {
		lim.MaxScript = job.Limits.MaxScript
	}
	if job.Limits.MaxEvents > 0 {
		lim.MaxEvents = job.Limits.MaxEvents
	}
	return sim.Request{Script: job.Script, Filename: "<script>", Profile: job.Profile, AllocConf: job.AllocConf, Limits: lim}
}

// pairResult is a job's result: the GPU run's output and leak check, and
// the side-by-side table of the pair.
func pairResult(p *compare.Pair) (gpujob.Result, error) {
	res := gpujob.Result{Stdout: p.GPU.Stdout, Error: p.GPU.Error, UsedBefore: p.GPU.UsedBefore, UsedAfter: p.GPU.UsedAfter}
	raw, err := json.Marshal(compare.Compare(p, compare.Options{}))
	if err != nil {
		return res, fmt.Errorf("web: encoding the comparison: %w", err)
	}
	res.Compare = raw
	return res, nil
}

// serveGPUInfo answers /gpu/info with the device, the limits and the
// queue's counters.
func (s *Server) serveGPUInfo(w http.ResponseWriter, r *http.Request) {
	info := s.gpu.Info
	if info.queue != nil {
		st := info.queue.Stats()
		info.Stats = &st
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	json.NewEncoder(w).Encode(info)
}

// registerGPU adds the GPU routes when the server has a GPU.
func (s *Server) registerGPU(g *GPU) {
	if g == nil {
		return
	}
	s.gpu = g
	s.mux.Handle("GET /gpu/ws", g.Handler)
	s.mux.HandleFunc("GET /gpu/info", s.serveGPUInfo)
}
