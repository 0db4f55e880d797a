//go:build cuda

package gpuexec

import (
	"sync"
	"testing"

	"github.com/gpumem/playground/gpu"
)

var (
	devOnce sync.Once
	dev     gpu.Device
	devErr  error
)

// newTestDevice is the real GPU (opened once for the package's tests).
func newTestDevice(t testing.TB) gpu.Device {
	devOnce.Do(func() { dev, devErr = gpu.Open(gpu.Options{}) })
	if devErr != nil {
		t.Fatalf("open the GPU: %v", devErr)
	}
	return dev
}
