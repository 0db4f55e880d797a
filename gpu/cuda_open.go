//go:build cuda

package gpu

import (
	"errors"
	"fmt"
	"runtime"

	"gorgonia.org/cu"

	"github.com/gpumem/playground/gpu/kernels"
)

// Open creates a CUDA context on GPU opts.Ordinal on a new worker thread,
// loads the core kernels (the value modules load on their first launch), and measures the baseline that ReleaseAll checks
// against. Close it when done: the context holds hundreds of MiB.
func Open(opts Options) (Device, error) {
	if opts.Ordinal < 0 || opts.MemoryLimit < 0 {
		return nil, fmt.Errorf("gpu: bad options %+v", opts)
	}
	d := &device{calls: make(chan func()), done: make(chan struct{})}
	ready := make(chan error, 1)
	go d.serve(opts, ready)
	if err := <-ready; err != nil {
		return nil, err
	}
	return d, nil
}

// serve is the worker goroutine: it locks itself to its OS thread, makes
// the context current there and runs every call sent to it. It never
// unlocks the thread, so the thread ends with the goroutine and no other
// goroutine ever runs with the context current.
func (d *device) serve(opts Options, ready chan<- error) {
	runtime.LockOSThread()
	defer close(d.done)
	w, err := openWorker(opts)
	if err != nil {
		ready <- err
		return
	}
	d.w = w
	ready <- nil
	for fn := range d.calls {
		fn()
		if d.stopped {
			return
		}
	}
}

// openWorker creates the context on the calling (locked) thread and
// prepares everything a job needs, undoing it all on failure.
func openWorker(opts Options) (w *worker, err error) {
	dev, err := cu.GetDevice(opts.Ordinal)
	if err != nil {
		return nil, fmt.Errorf("gpu: device %d: %w", opts.Ordinal, err)
	}
	w = &worker{
		opts:     opts,
		allocs:   map[uint64]int64{},
		reserved: map[uint64]int64{},
		mapped:   map[uint64]mapping{},
	}
	if w.name, err = dev.Name(); err != nil {
		return nil, fmt.Errorf("gpu: device %d name: %w", opts.Ordinal, err)
	}
	if w.ctx, err = dev.MakeContext(cu.SchedAuto); err != nil {
		return nil, fmt.Errorf("gpu: create context on device %d: %w", opts.Ordinal, err)
	}
	defer func() {
		if err != nil {
			err = errors.Join(err, w.teardown())
			w = nil
		}
	}()
	if w.gran, err = vmmGranularity(opts.Ordinal); err != nil {
		return w, err
	}
	p, err := cu.MemAlloc(4 * kernels.SumMaxPartials)
	if err != nil {
		return w, fmt.Errorf("gpu: scratch buffer: %w", err)
	}
	w.scratch = uint64(p)
	if err = w.loadKernels(); err != nil {
		return w, err
	}
	for i := range w.events {
		if w.events[i], err = cu.MakeEvent(cu.DefaultEvent); err != nil {
			return w, fmt.Errorf("gpu: create event: %w", err)
		}
	}
	names := make([]string, 0, len(w.funcs))
	for name := range w.funcs {
		names = append(names, name)
	}
	if err = w.warmUp(names); err != nil {
		return w, err
	}
	if err = w.events[0].Record(cu.NoStream); err != nil {
		return w, fmt.Errorf("gpu: record event: %w", err)
	}
	if w.baseline, err = w.DriverUsed(); err != nil {
		return w, err
	}
	return w, nil
}

// teardown returns everything and destroys the context. The error joins a
// *LeakError (if the last job leaked) with any driver failure.
func (w *worker) teardown() error {
	var errs []error
	if w.funcs != nil && w.baseline != 0 {
		errs = append(errs, w.ReleaseAll())
	}
	if w.scratch != 0 {
		errs = append(errs, cu.MemFree(cu.DevicePtr(w.scratch)))
	}
	for i := range w.events {
		var zero cu.Event
		if w.events[i] != zero {
			errs = append(errs, cu.DestroyEvent(&w.events[i]))
		}
	}
	for _, m := range w.modules {
		errs = append(errs, m.Unload())
	}
	errs = append(errs, w.ctx.Destroy())
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("gpu: close: %w", err)
	}
	return nil
}
