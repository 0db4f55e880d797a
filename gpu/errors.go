package gpu

import (
	"errors"
	"fmt"
)

// ErrNotBuilt is Open's error in a binary built without the cuda tag.
var ErrNotBuilt = errors.New("this binary was built without the GPU backend (build with -tags cuda)")

// ErrClosed is returned by a Device's methods after Close.
var ErrClosed = errors.New("gpu: device is closed")

// LeakError says that a job did not give all GPU memory back: what the
// device still held for it, and the driver's used figure against the
// baseline taken when the device was opened.
type LeakError struct {
	Ranges       int   // cuMemAlloc'd ranges and mappings still held
	Bytes        int64 // their bytes
	Reservations int   // address reservations still held
	UsedBefore   int64 // DriverUsed at Open (Baseline)
	UsedAfter    int64 // DriverUsed after everything was returned
}

// Error describes the leak in one line.
func (e *LeakError) Error() string {
	return fmt.Sprintf("gpu: memory not returned: %d ranges (%d bytes) and %d reservations were still held; driver used %d bytes before, %d after (%+d)",
		e.Ranges, e.Bytes, e.Reservations, e.UsedBefore, e.UsedAfter, e.UsedAfter-e.UsedBefore)
}
