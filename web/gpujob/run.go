package gpujob

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/gpumem/playground/sim/trace"
)

// run executes job on w under its limits, then checks for leaks.
func (q *Queue) run(ctx context.Context, w *Worker, job Job, n Notifier) (Result, error) {
	if n.Started != nil {
		n.Started(w.Name)
	}
	jobCtx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	if d := job.Limits.MaxWall; d > 0 {
		var stop context.CancelFunc
		jobCtx, stop = context.WithTimeoutCause(jobCtx, d, &LimitError{Limit: "wall time", Max: int64(d)})
		defer stop()
	}
	lim := &limiter{limits: job.Limits, stop: cancel, sink: n.Event}

	finished := make(chan struct{})
	go q.watch(jobCtx, w, finished)
	start := time.Now()
	res, err := safeRun(jobCtx, w, job, lim.emit)
	close(finished)
	res.Worker = w.Name
	res.WallNanos = time.Since(start).Nanoseconds()
	res.Events = lim.count()

	// What stopped the job takes precedence over what the runner made of it
	// (usually context.Canceled).
	if cause := context.Cause(jobCtx); cause != nil {
		var le *LimitError
		if errors.As(cause, &le) || ctx.Err() != nil {
			err = cause
		}
	}
	if w.LeakCheck != nil {
		res.UsedBefore, res.UsedAfter = w.LeakCheck()
		if res.UsedAfter != res.UsedBefore {
			leak := &LeakError{Worker: w.Name, UsedBefore: res.UsedBefore, UsedAfter: res.UsedAfter}
			q.opts.Log.Print(leak.Error())
			err = errors.Join(leak, err)
		}
	}
	q.count(ctx, err)
	return res, err
}

// count updates the outcome counters.
func (q *Queue) count(ctx context.Context, err error) {
	q.mu.Lock()
	defer q.mu.Unlock()
	var leak *LeakError
	if errors.As(err, &leak) {
		q.stats.Leaks++
	}
	switch {
	case ctx.Err() != nil:
		q.stats.Cancelled++
	case err != nil:
		q.stats.Failed++
	default:
		q.stats.Completed++
	}
}

// watch logs a runner that does not return within StopGrace of its job's
// cancellation: its GPU stays reserved until it does.
func (q *Queue) watch(jobCtx context.Context, w *Worker, finished <-chan struct{}) {
	select {
	case <-finished:
		return
	case <-jobCtx.Done():
	}
	t := time.NewTimer(q.opts.StopGrace)
	defer t.Stop()
	select {
	case <-finished:
	case <-t.C:
		q.opts.Log.Printf("gpujob: %s: the runner has not stopped %v after its job was cancelled (%v); the GPU stays reserved",
			w.Name, q.opts.StopGrace, context.Cause(jobCtx))
	}
}

// safeRun calls the runner, turning a panic into a *PanicError.
func safeRun(ctx context.Context, w *Worker, job Job, emit func(trace.Event)) (res Result, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = &PanicError{Worker: w.Name, Value: r}
		}
	}()
	return w.Runner.Run(ctx, job, emit)
}

// limiter passes events on until a limit is crossed, then cancels the job
// and drops the rest.
type limiter struct {
	limits Limits
	stop   context.CancelCauseFunc
	sink   func(trace.Event)

	mu      sync.Mutex
	events  int
	output  int64
	stopped bool
}

func (l *limiter) emit(ev trace.Event) {
	l.mu.Lock()
	if l.stopped {
		l.mu.Unlock()
		return
	}
	l.events++
	if ev.Kind == trace.Output {
		l.output += int64(len(ev.Text))
	}
	var over *LimitError
	switch {
	case l.limits.MaxEvents > 0 && l.events > l.limits.MaxEvents:
		over = &LimitError{Limit: "events", Max: int64(l.limits.MaxEvents)}
	case l.limits.MaxOutput > 0 && l.output > l.limits.MaxOutput:
		over = &LimitError{Limit: "output", Max: l.limits.MaxOutput}
	}
	if over != nil {
		l.stopped = true
		l.events--
		l.mu.Unlock()
		l.stop(over)
		return
	}
	l.mu.Unlock()
	if l.sink != nil {
		l.sink(ev)
	}
}

func (l *limiter) count() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.events
}
