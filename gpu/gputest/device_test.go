package gputest

import (
	"errors"
	"testing"

	"github.com/gpumem/playground/gpu"
	"github.com/gpumem/playground/sim/alloc"
)

func TestFakeDeviceAccounting(t *testing.T) {
	d := New(Options{Context: 1000, MemoryLimit: 8 << 20})
	a, err := d.Malloc(4 << 20)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := d.Malloc(6 << 20); !errors.Is(err, alloc.ErrDeviceOOM) {
		t.Errorf("over the limit: %v, want ErrDeviceOOM", err)
	}
	if free, _ := d.MemGetInfo(); free != 4<<20 {
		t.Errorf("free %d under the limit, want 4 MiB", free)
	}
	r, err := d.Reserve(8 << 20)
	if err != nil {
		t.Fatal(err)
	}
	if err := d.Map(r, 2<<20); err != nil {
		t.Fatal(err)
	}
	if used, _ := d.DriverUsed(); used != 1000+6<<20 {
		t.Errorf("driver used %d", used)
	}
	s := d.Stats()
	if s.Allocs != 2 || s.OOMs != 1 || s.Reserves != 1 {
		t.Errorf("stats %+v", s)
	}
	// Everything still held is returned and reported.
	var leak *gpu.LeakError
	if err := d.ReleaseAll(); !errors.As(err, &leak) || leak.Ranges != 2 || leak.Reservations != 1 || leak.UsedAfter != leak.UsedBefore {
		t.Fatalf("ReleaseAll = %v", err)
	}
	if n, b := d.Live(); n != 0 || b != 0 {
		t.Errorf("live %d ranges, %d bytes after ReleaseAll", n, b)
	}
	if err := d.ReleaseAll(); err != nil {
		t.Errorf("second ReleaseAll = %v", err)
	}
	_ = a
}

func TestFakeDeviceLeakAndClose(t *testing.T) {
	d := New(Options{LeakBytes: 4096})
	var leak *gpu.LeakError
	if err := d.ReleaseAll(); !errors.As(err, &leak) || leak.UsedAfter-leak.UsedBefore != 4096 {
		t.Errorf("ReleaseAll = %v, want a 4096-byte leak", err)
	}
	if err := d.Kernels().Fill(gpu.F32, 0, 1, 1); !errors.Is(err, ErrNoKernels) {
		t.Errorf("Fill = %v", err)
	}
	d.Close()
	if _, err := d.Malloc(1); !errors.Is(err, gpu.ErrClosed) {
		t.Errorf("Malloc after Close = %v", err)
	}
}
