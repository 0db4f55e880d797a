package gpujob

import (
	"errors"
	"fmt"
	"time"
)

// ErrBusy is Submit's error when the queue is full.
var ErrBusy = errors.New("gpujob: the GPU queue is full, try again later")

// ErrClosed is Submit's error once the queue is closed.
var ErrClosed = errors.New("gpujob: the GPU queue is closed")

// LimitError says which limit stopped a job.
type LimitError struct {
	Limit string // "wall time", "output", "events", "script size"
	Max   int64  // the limit (nanoseconds for wall time)
}

// Error describes the limit in words.
func (e *LimitError) Error() string {
	switch e.Limit {
	case "wall time":
		return fmt.Sprintf("gpujob: the job ran past its wall-time limit of %v", time.Duration(e.Max))
	case "events":
		return fmt.Sprintf("gpujob: the job produced more than %d events", e.Max)
	}
	return fmt.Sprintf("gpujob: the job's %s exceeded its limit of %d bytes", e.Limit, e.Max)
}

// LeakError says that a job did not give the GPU's memory back.
type LeakError struct {
	Worker     string
	UsedBefore int64
	UsedAfter  int64
}

// Error describes the leak in one line.
func (e *LeakError) Error() string {
	return fmt.Sprintf("gpujob: %s: GPU memory not returned after the job: %d bytes used before, %d after (%+d)",
		e.Worker, e.UsedBefore, e.UsedAfter, e.UsedAfter-e.UsedBefore)
}

// PanicError is a panic in a Runner, caught so that it cannot take the
// server down.
type PanicError struct {
	Worker string
	Value  any
}

// Error describes the panic.
func (e *PanicError) Error() string {
	return fmt.Sprintf("gpujob: %s: the runner panicked: %v", e.Worker, e.Value)
}

// SlowClientError cancels a job whose client does not take its events as
// fast as the job makes them: the connection's events waiting to be sent
// passed HandlerOptions.MaxQueuedBytes. Without the bound a stalled
// browser would hold the server's memory for as long as the job runs.
type SlowClientError struct {
	MaxQueued int64 // the bound, bytes
}

// Error says what happened and what the user can do.
func (e *SlowClientError) Error() string {
	return fmt.Sprintf("gpujob: the browser could not keep up with the event stream; the job was cancelled "+
		"when %d MiB of its events were waiting to be sent (a slow connection or a busy tab: try again, "+
		"or make the script produce fewer events)", e.MaxQueued>>20)
}
