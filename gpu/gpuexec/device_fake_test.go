//go:build !cuda

package gpuexec

import (
	"testing"

	"github.com/gpumem/playground/gpu"
	"github.com/gpumem/playground/gpu/gputest"
)

// newTestDevice is the CPU reference of the GPU backend: the fake device
// with host memory and the pure-Go kernels.
func newTestDevice(t testing.TB) gpu.Device {
	d := gputest.New(gputest.Options{Compute: true})
	t.Cleanup(func() { _ = d.Close() })
	return d
}
