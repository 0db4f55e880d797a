//go:build cuda

package gpu

import (
	"errors"
	"testing"

	"github.com/gpumem/playground/sim/alloc"
)

// The tests in this file open further contexts on the GPU. They sort after
// the others so that, if destroying a context did not give the driver's
// memory back exactly, only they would see it (through the shared device's
// final ReleaseAll in Close).

// TestMemoryLimit: a device with a limit refuses beyond it like a full GPU.
func TestMemoryLimit(t *testing.T) {
	d, err := Open(Options{MemoryLimit: 64 << 20})
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		if err := d.Close(); err != nil {
			t.Errorf("close: %v", err)
		}
	}()
	a, err := d.Malloc(40 << 20)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := d.Malloc(40 << 20); !errors.Is(err, alloc.ErrDeviceOOM) {
		t.Errorf("malloc beyond the limit: %v", err)
	}
	if free, _ := d.MemGetInfo(); free != 24<<20 {
		t.Errorf("free under the limit = %d, want %d", free, 24<<20)
	}
	if err := d.Free(a, 40<<20); err != nil {
		t.Fatal(err)
	}
}

// TestClosedDevice: Close is idempotent and later calls fail cleanly.
func TestClosedDevice(t *testing.T) {
	d, err := Open(Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := d.Close(); err != nil {
		t.Fatal(err)
	}
	if err := d.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
	if _, err := d.Malloc(1); !errors.Is(err, ErrClosed) {
		t.Errorf("Malloc after Close: %v", err)
	}
}

// TestContextReturnsMemory: creating and destroying a second context gives
// the driver's memory back to the byte (what a server that opened a context
// per job would rely on).
func TestContextReturnsMemory(t *testing.T) {
	before := driverUsed(t, testDev)
	d, err := Open(Options{})
	if err != nil {
		t.Fatal(err)
	}
	during := driverUsed(t, testDev)
	if err := d.Close(); err != nil {
		t.Fatal(err)
	}
	after := driverUsed(t, testDev)
	t.Logf("a second context with the kernels loaded costs %d bytes", during-before)
	if after != before {
		t.Errorf("driver used %d before a second context, %d after it was destroyed", before, after)
	}
}
