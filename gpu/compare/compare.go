package compare

import (
	"fmt"
	"strings"
)

// Kind names the reason for a difference.
type Kind string

// Reasons for a difference between the simulation and the GPU.
const (
	// Context: the driver's used memory differs by what the CUDA context
	// (and the backend's modules and scratch) take, which the simulation
	// models with the profile's figure. Constant over a run.
	Context Kind = "context"
	// Granularity: the driver's used memory moved by less than a page per
	// segment more than the allocator's reserved bytes: the driver's page
	// granularity (or, in principle, another process on the GPU).
	Granularity Kind = "granularity"
	// Driver: the driver's used memory moved by more than that: memory
	// taken or given back outside this run (another process on the GPU).
	Driver Kind = "driver"
	// OOM: one side ran out of memory and the other did not (the real
	// GPU's free memory, or a server's per-job limit), and the figures
	// differ from then on.
	OOM Kind = "oom"
	// Timing: the line took a noticeable share of the GPU time; the
	// simulation does not model time.
	Timing Kind = "timing"
	// Output: the line printed something else (figures read from the
	// driver, such as mem_get_info or an OOM message).
	Output Kind = "output"
	// Diverged: the two runs executed different lines from here on.
	Diverged Kind = "diverged"
	// Allocator: allocated or reserved differ with no explanation above:
	// a real mismatch between the allocator model and the device.
	Allocator Kind = "allocator"
)

// Reason explains one difference of a row.
type Reason struct {
	Kind Kind   `json:"kind"`
	Text string `json:"text"`
}

// Row is one executed line on both sides. A side is nil where the runs
// diverged and only the other executed a line.
type Row struct {
	Step int   `json:"step"` // index of the executed line, from 0
	Line int   `json:"line"`
	Sim  *Step `json:"sim,omitempty"`
	GPU  *Step `json:"gpu,omitempty"`
	// Differences, GPU − simulation, after the step.
	DAllocated  int64    `json:"d_allocated"`
	DReserved   int64    `json:"d_reserved"`
	DDriverUsed int64    `json:"d_driver_used"`
	Reasons     []Reason `json:"reasons,omitempty"`
}

// Table is the side-by-side comparison of a Pair.
type Table struct {
	Name   string `json:"name"`
	Device string `json:"device"`
	Rows   []Row  `json:"rows"`
	// Agree reports whether allocated and reserved agree on every row
	// where no OOM on one side only or divergence explains a difference:
	// the check of the fidelity cases on the GPU.
	Agree bool `json:"agree"`
	// ContextDelta is the GPU's driver used memory minus reserved, minus
	// the simulation's context figure, on the first row: the constant
	// context difference.
	ContextDelta int64 `json:"context_delta"`
	SimContext   int64 `json:"sim_context"` // the profile's context figure
	// GPUNanos is the run's GPU time (the sum of the rows').
	GPUNanos int64 `json:"gpu_ns"`
	// Stdout and Error say whether the two runs printed and raised the same.
	SameStdout bool   `json:"same_stdout"`
	SimError   string `json:"sim_error,omitempty"`
	GPUError   string `json:"gpu_error,omitempty"`
	// Leak check of the GPU run.
	UsedBefore int64 `json:"driver_used_before"`
	UsedAfter  int64 `json:"driver_used_after"`
}

// Options tune Compare. Zero fields take the values shown.
type Options struct {
	// TimingShare: a row whose GPU time is at least this share of the
	// run's gets a Timing reason (0.10), if it is also at least
	// TimingMin (1 ms).
	TimingShare float64
	TimingMin   int64
}

// Compare aligns the two runs of p line by line and explains each
// difference.
func Compare(p *Pair, opts Options) *Table {
	if opts.TimingShare == 0 {
		opts.TimingShare = 0.10
	}
	if opts.TimingMin == 0 {
		opts.TimingMin = 1_000_000
	}
	gran := p.Granularity
	if gran <= 0 {
		gran = 2 << 20
	}
	sim := Steps(p.Sim.Events, p.SimContext)
	gpu := Steps(p.GPU.Events, 0)
	t := &Table{Name: p.Name, Device: p.Device, Agree: true, SameStdout: p.Sim.Stdout == p.GPU.Stdout,
		SimContext: p.SimContext, SimError: p.Sim.Error, GPUError: p.GPU.Error, UsedBefore: p.GPU.UsedBefore, UsedAfter: p.GPU.UsedAfter}
	for _, s := range gpu {
		t.GPUNanos += s.ElapsedNanos
	}
	var (
		diverged  bool
		oomSince  = -1 // line of the first one-sided OOM
		overhead0 int64
	)
	for i := 0; i < max(len(sim), len(gpu)); i++ {
		r := Row{Step: i}
		if i < len(sim) {
			r.Sim = &sim[i]
			r.Line = sim[i].Line
		}
		if i < len(gpu) {
			r.GPU = &gpu[i]
			r.Line = gpu[i].Line
		}
		if !diverged && (r.Sim == nil || r.GPU == nil || r.Sim.Line != r.GPU.Line) {
			diverged = true
			r.Reasons = append(r.Reasons, Reason{Diverged, divergedText(r, oomSince)})
		}
		if r.Sim == nil || r.GPU == nil || diverged {
			if oomSince < 0 {
				t.Agree = false
			}
			t.Rows = append(t.Rows, r)
			continue
		}
		s, g := r.Sim, r.GPU
		r.DAllocated = g.Allocated - s.Allocated
		r.DReserved = g.Reserved - s.Reserved
		r.DDriverUsed = g.DriverUsed - s.DriverUsed

		// The driver's memory beyond the allocator's segments.
		over := g.DriverUsed - g.Reserved
		if i == 0 {
			overhead0 = over
			t.ContextDelta = over - p.SimContext
		}
		if (s.OOM == "") != (g.OOM == "") && oomSince < 0 {
			oomSince = r.Line
			r.Reasons = append(r.Reasons, Reason{OOM, oomText(s, g)})
		}
		if r.DAllocated != 0 || r.DReserved != 0 {
			if oomSince >= 0 {
				if oomSince != r.Line || len(r.Reasons) == 0 {
					r.Reasons = append(r.Reasons, Reason{OOM, fmt.Sprintf("since the one-sided OOM at line %d", oomSince)})
				}
			} else {
				t.Agree = false
				r.Reasons = append(r.Reasons, Reason{Allocator, fmt.Sprintf("allocated %+d B, reserved %+d B with no OOM on one side only: the allocator model and the device disagree", r.DAllocated, r.DReserved)})
			}
		}
		if r.DDriverUsed != r.DReserved {
			if overhead0 != p.SimContext {
				r.Reasons = append(r.Reasons, Reason{Context, signedBytes(overhead0 - p.SimContext)})
			}
			if d := over - overhead0; d != 0 {
				kind := Driver
				if abs(d) < gran*max(1, g.Segments) {
					kind = Granularity
				}
				r.Reasons = append(r.Reasons, Reason{kind, fmt.Sprintf("driver used %s beyond the allocator's segments since the first line", signedBytes(d))})
			}
		}
		if s.Output != g.Output {
			r.Reasons = append(r.Reasons, Reason{Output, outputText(s.Output, g.Output)})
		}
		if t.GPUNanos > 0 && g.ElapsedNanos >= opts.TimingMin && float64(g.ElapsedNanos) >= opts.TimingShare*float64(t.GPUNanos) {
			r.Reasons = append(r.Reasons, Reason{Timing, fmt.Sprintf("%s on the GPU (%.0f%% of the run), %s of it in %d cuMemAlloc/map and %d cuMemFree/unmap calls; the simulation does not model time",
				duration(g.ElapsedNanos), 100*float64(g.ElapsedNanos)/float64(t.GPUNanos), duration(g.DeviceNanos), g.DeviceAllocs, g.DeviceFrees)})
		}
		t.Rows = append(t.Rows, r)
	}
	return t
}

func divergedText(r Row, oomSince int) string {
	var b strings.Builder
	switch {
	case r.Sim == nil:
		fmt.Fprintf(&b, "the simulation ended; the GPU ran line %d", r.GPU.Line)
	case r.GPU == nil:
		fmt.Fprintf(&b, "the GPU run ended; the simulation ran line %d", r.Sim.Line)
	default:
		fmt.Fprintf(&b, "the simulation ran line %d, the GPU line %d", r.Sim.Line, r.GPU.Line)
	}
	if oomSince >= 0 {
		fmt.Fprintf(&b, " (after the one-sided OOM at line %d)", oomSince)
	}
	return b.String()
}

func oomText(s, g *Step) string {
	first := func(msg string) string {
		if i := strings.Index(msg, ". "); i >= 0 {
			return msg[:i+1]
		}
		return msg
	}
	if g.OOM != "" {
		return "a real OOM: the GPU refused the allocation and the simulation did not: " + first(g.OOM)
	}
	return "the simulation ran out of memory and the GPU did not (more free memory on the real device, or a smaller profile): " + first(s.OOM)
}

func outputText(sim, gpu string) string {
	const n = 60
	return fmt.Sprintf("printed %q on the GPU, %q in the simulation: figures read from the driver differ", clip(gpu, n), clip(sim, n))
}

func clip(s string, n int) string {
	s = strings.TrimSpace(s)
	if r := []rune(s); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}

func abs(x int64) int64 {
	if x < 0 {
		return -x
	}
	return x
}
