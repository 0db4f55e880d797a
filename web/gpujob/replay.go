package gpujob

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"time"

	"github.com/gpumem/playground/sim/trace"
)

// Recording is an event stream recorded from a GPU run, with what the
// script printed and raised: the fixture format of ReplayRunner
// (testdata/h100-stream.json, written by package gpu's TestRecordStream).
type Recording struct {
	Source string        `json:"source"` // how and where it was recorded
	Device string        `json:"device"` // the GPU's name
	Script string        `json:"script"` // the script that was run
	Stdout string        `json:"stdout"`
	Error  string        `json:"error,omitempty"` // "Type: message" of an escaped exception
	Events []trace.Event `json:"events"`
}

// ReadRecording decodes a Recording and checks that its events are
// numbered 0, 1, 2, ...
func ReadRecording(r io.Reader) (*Recording, error) {
	var rec Recording
	if err := json.NewDecoder(r).Decode(&rec); err != nil {
		return nil, fmt.Errorf("gpujob: reading a recording: %w", err)
	}
	for i, ev := range rec.Events {
		if ev.Seq != i {
			return nil, fmt.Errorf("gpujob: recording event %d has seq %d", i, ev.Seq)
		}
	}
	return &rec, nil
}

// ReplayRunner is a Runner that plays a Recording back instead of running
// the script: the stand-in for a GPU in tests and demos. Every run emits
// the recording's events Repeat times (renumbered), paced by Speed.
type ReplayRunner struct {
	Rec *Recording
	// Repeat is how many times the events are played (0 means once);
	// benchmarks use it to make long streams.
	Repeat int
	// Speed, if positive, paces the replay by the recorded GPU time
	// (trace.GPU.ElapsedNanos / Speed between events); 0 replays at once.
	Speed float64
}

// Run emits the events and returns the recorded output and error; it stops
// with the context's cause when ctx ends.
func (r ReplayRunner) Run(ctx context.Context, job Job, emit func(trace.Event)) (Result, error) {
	res := Result{Stdout: r.Rec.Stdout, Error: r.Rec.Error}
	seq := 0
	for range max(r.Repeat, 1) {
		for _, ev := range r.Rec.Events {
			if err := ctx.Err(); err != nil {
				return res, context.Cause(ctx)
			}
			if r.Speed > 0 && ev.GPU != nil && ev.GPU.ElapsedNanos > 0 {
				d := time.Duration(float64(ev.GPU.ElapsedNanos) / r.Speed)
				t := time.NewTimer(d)
				select {
				case <-ctx.Done():
					t.Stop()
					return res, context.Cause(ctx)
				case <-t.C:
				}
			}
			ev.Seq = seq
			seq++
			emit(ev)
		}
	}
	return res, nil
}
