//go:build cuda

package gpu

import (
	"fmt"
	"sync"
	"time"
)

// device is the Device handed out by Open: each method sends a closure to
// the worker goroutine and waits for it.
type device struct {
	calls   chan func()
	done    chan struct{} // closed when the worker goroutine has ended
	w       *worker       // set before Open returns; used only on the worker
	stopped bool          // set on the worker by Close's call

	closeOnce sync.Once
	closeErr  error
}

// run executes fn on the worker and waits for it.
func (d *device) run(fn func()) error {
	finished := make(chan struct{})
	select {
	case d.calls <- func() { fn(); close(finished) }:
	case <-d.done:
		return ErrClosed
	}
	<-finished
	return nil
}

// runErr executes fn on the worker and returns its error.
func (d *device) runErr(fn func() error) error {
	var err error
	if rerr := d.run(func() { err = fn() }); rerr != nil {
		return rerr
	}
	return err
}

func (d *device) Malloc(size int64) (addr uint64, err error) {
	err = d.runErr(func() (e error) { addr, e = d.w.Malloc(size); return })
	return
}

func (d *device) Free(addr uint64, size int64) error {
	return d.runErr(func() error { return d.w.Free(addr, size) })
}

func (d *device) MemGetInfo() (free, total int64) {
	d.run(func() { free, total = d.w.MemGetInfo() })
	return
}

func (d *device) Reserve(size int64) (addr uint64, err error) {
	err = d.runErr(func() (e error) { addr, e = d.w.Reserve(size); return })
	return
}

func (d *device) Map(addr uint64, size int64) error {
	return d.runErr(func() error { return d.w.Map(addr, size) })
}

func (d *device) Unmap(addr uint64, size int64) error {
	return d.runErr(func() error { return d.w.Unmap(addr, size) })
}

func (d *device) ReleaseRange(addr uint64, size int64) error {
	return d.runErr(func() error { return d.w.ReleaseRange(addr, size) })
}

// Name, Granularity and Baseline are fixed when Open returns.
func (d *device) Name() string       { return d.w.name }
func (d *device) Granularity() int64 { return d.w.gran }
func (d *device) Baseline() int64    { return d.w.baseline }

func (d *device) CopyToDevice(dst uint64, src []byte) error {
	return d.runErr(func() error { return d.w.CopyToDevice(dst, src) })
}

func (d *device) CopyFromDevice(dst []byte, src uint64) error {
	return d.runErr(func() error { return d.w.CopyFromDevice(dst, src) })
}

func (d *device) Kernels() Kernels { return remoteKernels{d} }

func (d *device) Synchronize() error { return d.runErr(d.w.Synchronize) }

func (d *device) Lap() (lap time.Duration, err error) {
	err = d.runErr(func() (e error) { lap, e = d.w.Lap(); return })
	return
}

func (d *device) Stats() (s CallStats) {
	d.run(func() { s = d.w.Stats() })
	return
}

func (d *device) DriverUsed() (used int64, err error) {
	err = d.runErr(func() (e error) { used, e = d.w.DriverUsed(); return })
	return
}

func (d *device) Live() (ranges int, bytes int64) {
	d.run(func() { ranges, bytes = d.w.Live() })
	return
}

func (d *device) ReleaseAll() error { return d.runErr(d.w.ReleaseAll) }

// Do runs fn on the worker with the direct Device. A panic in fn is turned
// into an error so that it cannot take the worker (and the server) down.
func (d *device) Do(fn func(Device) error) error {
	return d.runErr(func() (err error) {
		defer func() {
			if r := recover(); r != nil {
				err = fmt.Errorf("gpu: panic in Do: %v", r)
			}
		}()
		return fn(d.w)
	})
}

// Close tears the worker down once; later calls return the first result.
func (d *device) Close() error {
	d.closeOnce.Do(func() {
		err := d.run(func() {
			d.closeErr = d.w.teardown()
			d.stopped = true
		})
		if err != nil {
			d.closeErr = err
		}
		<-d.done
	})
	return d.closeErr
}

// remoteKernels forwards each launch to the worker.
type remoteKernels struct{ d *device }

func (r remoteKernels) k() Kernels { return r.d.w.Kernels() }

func (r remoteKernels) do(fn func(k Kernels) error) error {
	return r.d.runErr(func() error { return fn(r.k()) })
}

func (r remoteKernels) Fill(t DType, dst uint64, v float32, n int64) error {
	return r.do(func(k Kernels) error { return k.Fill(t, dst, v, n) })
}
func (r remoteKernels) Copy(t DType, dst, src uint64, n int64) error {
	return r.do(func(k Kernels) error { return k.Copy(t, dst, src, n) })
}
func (r remoteKernels) Cast(from, to DType, dst, src uint64, n int64) error {
	return r.do(func(k Kernels) error { return k.Cast(from, to, dst, src, n) })
}
func (r remoteKernels) Add(t DType, dst, a, b uint64, n int64) error {
	return r.do(func(k Kernels) error { return k.Add(t, dst, a, b, n) })
}
func (r remoteKernels) Sub(t DType, dst, a, b uint64, n int64) error {
	return r.do(func(k Kernels) error { return k.Sub(t, dst, a, b, n) })
}
func (r remoteKernels) Mul(t DType, dst, a, b uint64, n int64) error {
	return r.do(func(k Kernels) error { return k.Mul(t, dst, a, b, n) })
}
func (r remoteKernels) Div(t DType, dst, a, b uint64, n int64) error {
	return r.do(func(k Kernels) error { return k.Div(t, dst, a, b, n) })
}
func (r remoteKernels) Relu(t DType, dst, src uint64, n int64) error {
	return r.do(func(k Kernels) error { return k.Relu(t, dst, src, n) })
}
func (r remoteKernels) Exp(t DType, dst, src uint64, n int64) error {
	return r.do(func(k Kernels) error { return k.Exp(t, dst, src, n) })
}
func (r remoteKernels) Sigmoid(t DType, dst, src uint64, n int64) error {
	return r.do(func(k Kernels) error { return k.Sigmoid(t, dst, src, n) })
}
func (r remoteKernels) Tanh(t DType, dst, src uint64, n int64) error {
	return r.do(func(k Kernels) error { return k.Tanh(t, dst, src, n) })
}
func (r remoteKernels) ReluBackward(t DType, dst, grad, input uint64, n int64) error {
	return r.do(func(k Kernels) error { return k.ReluBackward(t, dst, grad, input, n) })
}
func (r remoteKernels) Scale(t DType, dst, src uint64, alpha float32, n int64) error {
	return r.do(func(k Kernels) error { return k.Scale(t, dst, src, alpha, n) })
}
func (r remoteKernels) Axpy(t DType, y, x uint64, alpha float32, n int64) error {
	return r.do(func(k Kernels) error { return k.Axpy(t, y, x, alpha, n) })
}
func (r remoteKernels) Sum(t DType, dst, src uint64, n int64) error {
	return r.do(func(k Kernels) error { return k.Sum(t, dst, src, n) })
}
func (r remoteKernels) Matmul(t DType, c, a, b uint64, m, n, kk int64, as, bs [2]int64) error {
	return r.do(func(k Kernels) error { return k.Matmul(t, c, a, b, m, n, kk, as, bs) })
}
