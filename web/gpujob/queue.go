package gpujob

import (
	"context"
	"errors"
	"fmt"
	"log"
	"sync"
	"time"

	"github.com/gpumem/playground/sim/trace"
)

// Options configure a Queue.
type Options struct {
	// MaxWaiting is the most jobs waiting at once; Submit returns ErrBusy
	// beyond it. 0 means 64.
	MaxWaiting int
	// StopGrace is how long a cancelled runner may take to return before
	// the queue logs it as stuck (its GPU stays reserved until it does).
	// 0 means 5 s.
	StopGrace time.Duration
	// Log receives leaks, panics and stuck runners; nil means log.Default().
	Log *log.Logger
}

// Notifier receives a job's progress. Nil functions are skipped. Queued and
// Started are called on Submit's goroutine; Event on the runner's.
type Notifier struct {
	Queued  func(position int) // 1 = next; called again whenever it changes
	Started func(worker string)
	Event   func(ev trace.Event)
}

// Stats are the queue's counters.
type Stats struct {
	Waiting   int   // jobs waiting now
	Running   int   // jobs running now
	Completed int64 // jobs that ran and returned without error
	Failed    int64 // jobs that ran and returned an error (limits, leaks, runner errors)
	Cancelled int64 // jobs whose context ended before or while they ran
	Leaks     int64 // jobs that failed the leak check
}

// Queue runs jobs on a fixed set of workers (one per GPU), first come first
// served, one job per worker at a time.
type Queue struct {
	opts Options

	mu      sync.Mutex
	idle    []*Worker
	waiting []*ticket
	closed  bool
	stats   Stats
	running sync.WaitGroup
}

// ticket is one waiting Submit.
type ticket struct {
	pos      chan int     // latest position (capacity 1, newest value wins)
	lastPos  int          // last position sent (under Queue.mu)
	assigned chan *Worker // the worker, or nil when the queue closed (capacity 1)
}

// NewQueue returns a queue over workers; each must have a Runner.
func NewQueue(workers []Worker, opts Options) (*Queue, error) {
	if len(workers) == 0 {
		return nil, errors.New("gpujob: a queue needs at least one worker")
	}
	if opts.MaxWaiting <= 0 {
		opts.MaxWaiting = 64
	}
	if opts.StopGrace <= 0 {
		opts.StopGrace = 5 * time.Second
	}
	if opts.Log == nil {
		opts.Log = log.Default()
	}
	q := &Queue{opts: opts}
	for i := range workers {
		w := workers[i]
		if w.Runner == nil {
			return nil, fmt.Errorf("gpujob: worker %d (%q) has no runner", i, w.Name)
		}
		q.idle = append(q.idle, &w)
	}
	return q, nil
}

// Submit queues job, waits for a worker, runs it there and returns its
// result. Cancelling ctx (the client went away) removes a waiting job from
// the queue, or cancels a running one's context. The error is ErrBusy,
// ErrClosed, the context's error, a *LimitError, a *LeakError, a
// *PanicError or the runner's own.
func (q *Queue) Submit(ctx context.Context, job Job, n Notifier) (Result, error) {
	if err := ctx.Err(); err != nil {
		return Result{}, err
	}
	if job.Limits.MaxScript > 0 && len(job.Script) > job.Limits.MaxScript {
		return Result{}, &LimitError{Limit: "script size", Max: int64(job.Limits.MaxScript)}
	}
	t := &ticket{pos: make(chan int, 1), assigned: make(chan *Worker, 1)}
	q.mu.Lock()
	switch {
	case q.closed:
		q.mu.Unlock()
		return Result{}, ErrClosed
	case len(q.idle) == 0 && len(q.waiting) >= q.opts.MaxWaiting:
		q.mu.Unlock()
		return Result{}, ErrBusy
	}
	q.waiting = append(q.waiting, t)
	q.dispatchLocked()
	q.mu.Unlock()

	var w *Worker
	for w == nil {
		select {
		case w = <-t.assigned:
			if w == nil {
				return Result{}, ErrClosed
			}
		case p := <-t.pos:
			if n.Queued != nil {
				n.Queued(p)
			}
		case <-ctx.Done():
			q.mu.Lock()
			removed := q.removeLocked(t)
			q.stats.Cancelled++
			q.mu.Unlock()
			if !removed {
				// Assigned in the meantime: hand the worker back unused.
				if w := <-t.assigned; w != nil {
					q.release(w)
				}
			}
			return Result{}, context.Cause(ctx)
		}
	}
	defer q.release(w)
	return q.run(ctx, w, job, n)
}

// dispatchLocked gives idle workers to the first waiting tickets and sends
// the others their new positions.
func (q *Queue) dispatchLocked() {
	for len(q.idle) > 0 && len(q.waiting) > 0 {
		t, w := q.waiting[0], q.idle[0]
		q.waiting, q.idle = q.waiting[1:], q.idle[1:]
		q.stats.Running++
		q.running.Add(1)
		t.assigned <- w
	}
	q.positionsLocked()
}

// positionsLocked sends every waiting ticket its position if it changed.
func (q *Queue) positionsLocked() {
	for i, t := range q.waiting {
		if p := i + 1; p != t.lastPos {
			t.lastPos = p
			select { // keep only the newest position
			case <-t.pos:
			default:
			}
			t.pos <- p
		}
	}
	q.stats.Waiting = len(q.waiting)
}

// removeLocked takes t out of the waiting line; false if it was not there.
func (q *Queue) removeLocked(t *ticket) bool {
	for i, u := range q.waiting {
		if u == t {
			q.waiting = append(q.waiting[:i:i], q.waiting[i+1:]...)
			q.positionsLocked()
			return true
		}
	}
	return false
}

// release returns w to the idle workers and starts the next job.
func (q *Queue) release(w *Worker) {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.stats.Running--
	q.running.Done()
	q.idle = append(q.idle, w)
	if !q.closed {
		q.dispatchLocked()
	}
}

// Stats returns the counters.
func (q *Queue) Stats() Stats {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.stats
}

// Close refuses new jobs, fails the waiting ones with ErrClosed and waits
// for the running ones to return.
func (q *Queue) Close() {
	q.mu.Lock()
	q.closed = true
	for _, t := range q.waiting {
		t.assigned <- nil
	}
	q.waiting = nil
	q.stats.Waiting = 0
	q.mu.Unlock()
	q.running.Wait()
}
