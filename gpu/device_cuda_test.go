//go:build cuda

package gpu

import (
	"errors"
	"testing"
	"time"

	"github.com/gpumem/playground/sim/alloc"
)

func driverUsed(t *testing.T, d Device) int64 {
	t.Helper()
	used, err := d.DriverUsed()
	if err != nil {
		t.Fatal(err)
	}
	return used
}

// TestEveryByteReturned allocates and frees through both kinds of segment
// and checks cuMemGetInfo's used figure: up by at least the bytes while they
// are held, back to exactly the baseline after.
func TestEveryByteReturned(t *testing.T) {
	afterTest(t)
	d := testDev
	before := driverUsed(t, d)
	if before != d.Baseline() {
		t.Fatalf("driver used %d at start, baseline %d", before, d.Baseline())
	}
	s0 := d.Stats()
	var addrs []uint64
	sizes := []int64{2 << 20, 20 << 20, 1 << 30, 4 << 20}
	for _, size := range sizes {
		a, err := d.Malloc(size)
		if err != nil {
			t.Fatalf("malloc %d: %v", size, err)
		}
		addrs = append(addrs, a)
	}
	held := driverUsed(t, d)
	if held-before < 1<<30+26<<20 {
		t.Errorf("driver used grew by %d while %d bytes were held", held-before, 1<<30+26<<20)
	}
	if n, bytes := d.Live(); n != 4 || bytes != 1<<30+26<<20 {
		t.Errorf("Live = %d, %d", n, bytes)
	}
	for i, a := range addrs {
		if err := d.Free(a, sizes[i]); err != nil {
			t.Fatal(err)
		}
	}
	if after := driverUsed(t, d); after != before {
		t.Errorf("driver used %d before, %d after malloc/free", before, after)
	}
	s1 := d.Stats()
	if s1.Allocs-s0.Allocs != 4 || s1.Frees-s0.Frees != 4 || s1.AllocNanos <= s0.AllocNanos || s1.FreeNanos <= s0.FreeNanos {
		t.Errorf("stats did not count 4 timed allocs and frees: %+v → %+v", s0, s1)
	}
	if err := d.Free(addrs[0], sizes[0]); err == nil {
		t.Error("double free was accepted")
	}
}

// TestExpandableSegment reserves a range, maps pages into it, runs a kernel
// over them, unmaps and releases, and checks the driver's figures.
func TestExpandableSegment(t *testing.T) {
	afterTest(t)
	d := testDev
	g := d.Granularity()
	if g <= 0 || g%(2<<20) != 0 {
		t.Fatalf("granularity %d", g)
	}
	before := driverUsed(t, d)
	base, err := d.Reserve(64 * g)
	if err != nil {
		t.Fatal(err)
	}
	page := 10 * g // 20 MiB on the H100: PyTorch's large-pool page
	for i := int64(0); i < 3; i++ {
		if err := d.Map(base+uint64(i*page), page); err != nil {
			t.Fatalf("map page %d: %v", i, err)
		}
	}
	if grew := driverUsed(t, d) - before; grew < 3*page {
		t.Errorf("driver used grew by %d with %d mapped", grew, 3*page)
	}
	// The three pages are one contiguous buffer for a kernel.
	n := 3 * page / 4
	if err := d.Kernels().Fill(F32, base, 2.5, n); err != nil {
		t.Fatal(err)
	}
	last := download(t, d, F32, base+uint64(3*page-4), 1)[0]
	if last != 2.5 {
		t.Errorf("last element of the mapped range = %g", last)
	}
	if err := d.Map(base+uint64(page), page); err == nil {
		t.Error("mapping over a mapping was accepted")
	}
	if err := d.Unmap(base, page/2); err == nil {
		t.Error("unmapping half a mapping was accepted")
	}
	if err := d.ReleaseRange(base, 64*g); err == nil {
		t.Error("releasing a range with pages mapped was accepted")
	}
	if err := d.Unmap(base+uint64(page), 2*page); err != nil { // two Map calls at once
		t.Fatal(err)
	}
	if err := d.Unmap(base, page); err != nil {
		t.Fatal(err)
	}
	if err := d.ReleaseRange(base, 64*g); err != nil {
		t.Fatal(err)
	}
	if after := driverUsed(t, d); after != before {
		t.Errorf("driver used %d before, %d after map/unmap", before, after)
	}
}

// TestOutOfMemory checks that the driver's out-of-memory comes back as
// alloc.ErrDeviceOOM, for cuMemAlloc and for cuMemCreate, and leaves
// nothing behind.
func TestOutOfMemory(t *testing.T) {
	afterTest(t)
	d := testDev
	free, total := d.MemGetInfo()
	if free <= 0 || total <= free {
		t.Fatalf("MemGetInfo = %d, %d", free, total)
	}
	if _, err := d.Malloc(total); !errors.Is(err, alloc.ErrDeviceOOM) {
		t.Errorf("malloc of the whole GPU: %v, want ErrDeviceOOM", err)
	}
	g := d.Granularity()
	size := (total/g + 1) * g
	base, err := d.Reserve(size)
	if err != nil {
		t.Fatal(err)
	}
	if err := d.Map(base, size); !errors.Is(err, alloc.ErrDeviceOOM) {
		t.Errorf("map of the whole GPU: %v, want ErrDeviceOOM", err)
	}
	if err := d.ReleaseRange(base, size); err != nil {
		t.Fatal(err)
	}
	if d.Stats().OOMs < 2 {
		t.Errorf("OOMs counted: %d", d.Stats().OOMs)
	}
}

// TestLeakDetected: a job that keeps memory makes ReleaseAll fail with a
// LeakError, and ReleaseAll still returns the memory.
func TestLeakDetected(t *testing.T) {
	d := testDev
	if _, err := d.Malloc(8 << 20); err != nil {
		t.Fatal(err)
	}
	base, err := d.Reserve(4 * d.Granularity())
	if err != nil {
		t.Fatal(err)
	}
	if err := d.Map(base, d.Granularity()); err != nil {
		t.Fatal(err)
	}
	err = d.ReleaseAll()
	var leak *LeakError
	if !errors.As(err, &leak) {
		t.Fatalf("ReleaseAll = %v, want a LeakError", err)
	}
	if leak.Ranges != 2 || leak.Bytes != 8<<20+d.Granularity() || leak.Reservations != 1 {
		t.Errorf("leak = %+v", leak)
	}
	if leak.UsedAfter != leak.UsedBefore {
		t.Errorf("ReleaseAll did not bring the driver back: %+v", leak)
	}
	if err := d.ReleaseAll(); err != nil {
		t.Errorf("second ReleaseAll: %v", err)
	}
}

// TestDoRunsDirect checks Do: allocation and kernels inside, panics turned
// into errors, the device still usable afterwards.
func TestDoRunsDirect(t *testing.T) {
	afterTest(t)
	err := testDev.Do(func(d Device) error {
		a, err := d.Malloc(1 << 20)
		if err != nil {
			return err
		}
		if err := d.Kernels().Fill(F16, a, 3, 1<<19); err != nil {
			return err
		}
		if err := d.Close(); err == nil {
			t.Error("Close inside Do was accepted")
		}
		return d.Free(a, 1<<20)
	})
	if err != nil {
		t.Fatal(err)
	}
	err = testDev.Do(func(Device) error { panic("boom") })
	if err == nil {
		t.Fatal("a panic in Do was not reported")
	}
	if _, err := testDev.DriverUsed(); err != nil {
		t.Fatalf("device unusable after a panic in Do: %v", err)
	}
}

// TestLap times a kernel with CUDA events.
func TestLap(t *testing.T) {
	afterTest(t)
	n := int64(64 << 20)
	buf := malloc(t, testDev, 4*n)
	if _, err := testDev.Lap(); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 10; i++ {
		if err := testDev.Kernels().Fill(F32, buf, 1, n); err != nil {
			t.Fatal(err)
		}
	}
	lap, err := testDev.Lap()
	if err != nil {
		t.Fatal(err)
	}
	// 10 × 256 MiB written: far above a microsecond, far below a second.
	if lap < 10*time.Microsecond || lap > time.Second {
		t.Errorf("lap = %v", lap)
	}
	t.Logf("10 fills of 256 MiB: %v (%.0f GB/s)", lap, 10*float64(4*n)/lap.Seconds()/1e9)
}
