//go:build cuda

package gpu

import (
	"testing"
)

// BenchmarkLaunch measures the host cost of one kernel launch per op,
// issued the way a job issues them (inside Do, no channel hop), on 4096
// f32 elements. ns/op is the issue rate; launch-ns/op is the time inside
// cuLaunchKernel alone; sync-ns/op is launch plus waiting for the kernel.
func BenchmarkLaunch(b *testing.B) {
	const n = 4096
	d := testDev
	x, err := d.Malloc(4 * n)
	if err != nil {
		b.Fatal(err)
	}
	y, err := d.Malloc(4 * n)
	if err != nil {
		b.Fatal(err)
	}
	out, err := d.Malloc(4 * n)
	if err != nil {
		b.Fatal(err)
	}
	defer func() {
		for _, a := range []uint64{x, y, out} {
			if err := d.Free(a, 4*n); err != nil {
				b.Error(err)
			}
		}
	}()
	ops := []struct {
		name string
		fn   func(k Kernels) error
	}{
		{"fill", func(k Kernels) error { return k.Fill(F32, out, 1, n) }},
		{"add", func(k Kernels) error { return k.Add(F32, out, x, y, n) }},
		{"relu", func(k Kernels) error { return k.Relu(F32, out, x, n) }},
		{"exp", func(k Kernels) error { return k.Exp(F32, out, x, n) }},
		{"axpy", func(k Kernels) error { return k.Axpy(F32, out, x, 0.5, n) }},
		{"cast_f32_f16", func(k Kernels) error { return k.Cast(F32, F16, out, x, n) }},
		{"sum", func(k Kernels) error { return k.Sum(F32, out, x, n) }},
		{"matmul_64", func(k Kernels) error { return k.Matmul(F32, out, x, y, 64, 64, 64, [2]int64{64, 1}, [2]int64{64, 1}) }},
	}
	for _, op := range ops {
		b.Run(op.name, func(b *testing.B) {
			err := d.Do(func(dd Device) error {
				k := dd.Kernels()
				s0 := dd.Stats()
				b.ResetTimer()
				for i := 0; i < b.N; i++ {
					if err := op.fn(k); err != nil {
						return err
					}
				}
				if err := dd.Synchronize(); err != nil {
					return err
				}
				b.StopTimer()
				s1 := dd.Stats()
				b.ReportMetric(float64(s1.LaunchNanos-s0.LaunchNanos)/float64(b.N), "launch-ns/op")
				return nil
			})
			if err != nil {
				b.Fatal(err)
			}
		})
	}
	b.Run("add_sync", func(b *testing.B) {
		err := d.Do(func(dd Device) error {
			k := dd.Kernels()
			for i := 0; i < b.N; i++ {
				if err := k.Add(F32, out, x, y, n); err != nil {
					return err
				}
				if err := dd.Synchronize(); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			b.Fatal(err)
		}
	})
	b.Run("add_via_channel", func(b *testing.B) {
		k := d.Kernels()
		for i := 0; i < b.N; i++ {
			if err := k.Add(F32, out, x, y, n); err != nil {
				b.Fatal(err)
			}
		}
		if err := d.Synchronize(); err != nil {
			b.Fatal(err)
		}
	})
}

// BenchmarkSegment measures one allocation and its free per op, as the
// allocator makes them: cuMemAlloc/cuMemFree of 2 MiB (small pool) and
// 20 MiB (large pool), and Map/Unmap of a 20 MiB page of a reserved range
// (expandable segments). alloc-ns/op and free-ns/op split the time.
func BenchmarkSegment(b *testing.B) {
	d := testDev
	for _, c := range []struct {
		name string
		size int64
		vmm  bool
	}{
		{"malloc_2MiB", 2 << 20, false},
		{"malloc_20MiB", 20 << 20, false},
		{"malloc_1GiB", 1 << 30, false},
		{"map_2MiB", 2 << 20, true},
		{"map_20MiB", 20 << 20, true},
	} {
		b.Run(c.name, func(b *testing.B) {
			err := d.Do(func(dd Device) error {
				var base uint64
				if c.vmm {
					var err error
					if base, err = dd.Reserve(c.size); err != nil {
						return err
					}
				}
				s0 := dd.Stats()
				b.ResetTimer()
				for i := 0; i < b.N; i++ {
					if c.vmm {
						if err := dd.Map(base, c.size); err != nil {
							return err
						}
						if err := dd.Unmap(base, c.size); err != nil {
							return err
						}
						continue
					}
					a, err := dd.Malloc(c.size)
					if err != nil {
						return err
					}
					if err := dd.Free(a, c.size); err != nil {
						return err
					}
				}
				b.StopTimer()
				s1 := dd.Stats()
				b.ReportMetric(float64(s1.AllocNanos-s0.AllocNanos)/float64(b.N), "alloc-ns/op")
				b.ReportMetric(float64(s1.FreeNanos-s0.FreeNanos)/float64(b.N), "free-ns/op")
				if c.vmm {
					return dd.ReleaseRange(base, c.size)
				}
				return nil
			})
			if err != nil {
				b.Fatal(err)
			}
		})
	}
}

// BenchmarkMemGetInfo measures the cuMemGetInfo call made once per traced
// line for the driver-used figure.
func BenchmarkMemGetInfo(b *testing.B) {
	err := testDev.Do(func(dd Device) error {
		for i := 0; i < b.N; i++ {
			if _, err := dd.DriverUsed(); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
}
