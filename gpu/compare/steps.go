package compare

import "github.com/gpumem/playground/sim/trace"

// Step is what one executed line did on one side: from its line event to
// the next line event (or the end of the stream).
type Step struct {
	Line          int    `json:"line"`
	Allocated     int64  `json:"allocated"`      // after the step
	Reserved      int64  `json:"reserved"`       // after the step
	PeakAllocated int64  `json:"peak_allocated"` // after the step
	Segments      int64  `json:"segments"`       // after the step
	DriverUsed    int64  `json:"driver_used"`    // after the step: measured (GPU) or modelled (simulation)
	ElapsedNanos  int64  `json:"elapsed_ns"`     // GPU time of the step; 0 in the simulation
	DeviceAllocs  int64  `json:"device_allocs"`  // cuMemAlloc/map calls in the step (simulation: segment_alloc/segment_map events)
	DeviceFrees   int64  `json:"device_frees"`   // cuMemFree/unmap calls in the step
	DeviceNanos   int64  `json:"device_ns"`      // time in those calls (GPU only)
	OOM           string `json:"oom,omitempty"`  // the OOM message if an allocation failed in the step
	Output        string `json:"output,omitempty"`
}

// Steps splits a stream into the steps of its line events. Figures that a
// line event carries (the stats and GPU measurements taken just before the
// line runs) close the previous step: they are the state after it. The
// events before the first line event and after the end event are ignored;
// the end event closes the last step (the script's globals are released
// in it).
//
// For a stream without GPU figures (the simulation), DriverUsed is modelled
// as context + reserved: what cuMemGetInfo would report.
func Steps(events []trace.Event, context int64) []Step {
	var (
		steps []Step
		cur   *Step
		// cumulative GPU counters at the start of the current step
		allocs0, frees0, nanos0 int64
		lastGPU                 *trace.GPU
	)
	closeStep := func(ev trace.Event) {
		if cur == nil {
			return
		}
		s := ev.Stats
		cur.Allocated, cur.Reserved, cur.PeakAllocated, cur.Segments = s.Allocated, s.Reserved, s.PeakAllocated, s.Segments
		if g := ev.GPU; g != nil {
			cur.ElapsedNanos += g.ElapsedNanos
			cur.DriverUsed = g.DriverUsed
			cur.DeviceAllocs = g.DeviceAllocs - allocs0
			cur.DeviceFrees = g.DeviceFrees - frees0
			cur.DeviceNanos = g.DeviceNanos - nanos0
		} else if lastGPU == nil {
			cur.DriverUsed = context + s.Reserved
		}
		steps = append(steps, *cur)
		cur = nil
	}
	for _, ev := range events {
		switch ev.Kind {
		case trace.Line:
			closeStep(ev)
			cur = &Step{Line: ev.Line}
			if g := ev.GPU; g != nil {
				allocs0, frees0, nanos0 = g.DeviceAllocs, g.DeviceFrees, g.DeviceNanos
				lastGPU = g
			}
			continue
		case trace.End:
			closeStep(ev)
			return steps
		}
		if cur == nil {
			continue
		}
		if g := ev.GPU; g != nil {
			cur.ElapsedNanos += g.ElapsedNanos
			lastGPU = g
		} else {
			switch ev.Kind {
			case trace.SegmentAlloc, trace.SegmentMap:
				cur.DeviceAllocs++
			case trace.SegmentFree, trace.SegmentUnmap:
				cur.DeviceFrees++
			}
		}
		switch ev.Kind {
		case trace.OOM:
			cur.OOM = ev.Text
		case trace.Output:
			cur.Output += ev.Text
		}
	}
	// A stream cut short (a limit) has no end event: keep the open step
	// with the figures of its last event.
	if cur != nil && len(events) > 0 {
		last := events[len(events)-1]
		closeStep(trace.Event{Stats: last.Stats, GPU: nil})
		if lastGPU != nil {
			steps[len(steps)-1].DriverUsed = lastGPU.DriverUsed
		}
	}
	return steps
}
