package alloc

import (
	"math/rand/v2"
	"testing"
	"time"

	"github.com/gpumem/playground/sim/profile"
	"github.com/gpumem/playground/sim/trace"
)

// BenchmarkMallocFree measures malloc+free pairs over a working set of
// 10 000 live blocks of mixed sizes: each iteration frees a random live
// block and allocates a new one in its place. Sizes are 80% small
// (512 B–1 MiB, log-uniform) and 20% large (1–16 MiB, log-uniform).
func BenchmarkMallocFree(b *testing.B) {
	benchMallocFree(b, func(r *rand.Rand) int64 {
		lo, hi := 9.0, 20.0 // log2 bounds for small requests
		if r.IntN(5) == 0 {
			lo, hi = 20.0, 24.0
		}
		return int64(pow2(lo + r.Float64()*(hi-lo)))
	})
}

// BenchmarkMallocFreeShapes is the same working set with sizes drawn from
// 64 fixed sizes (48 small, 16 large), as tensor shapes repeat in real
// programs: cached blocks are mostly reused whole.
func BenchmarkMallocFreeShapes(b *testing.B) {
	r := rand.New(rand.NewPCG(3, 4))
	shapes := make([]int64, 64)
	for i := range shapes {
		if i < 48 {
			shapes[i] = 512 * (1 + r.Int64N(2048))
		} else {
			shapes[i] = 1<<20 + r.Int64N(15<<20)
		}
	}
	benchMallocFree(b, func(r *rand.Rand) int64 { return shapes[r.IntN(len(shapes))] })
}

// benchMallocFree runs malloc+free pairs over 10 000 live blocks whose sizes
// come from size.
func benchMallocFree(b *testing.B, size func(*rand.Rand) int64) {
	const live = 10000
	const tableSize = 1 << 16
	r := rand.New(rand.NewPCG(1, 2))
	sizes := make([]int64, tableSize)
	victims := make([]int32, tableSize)
	for i := range sizes {
		sizes[i] = size(r)
		victims[i] = int32(r.IntN(live))
	}
	a := New(profile.Default(), DefaultConfig(), nil, nil)
	blocks := make([]*Block, live)
	label := trace.Label{Kind: trace.LabelUser}
	for i := range blocks {
		blk, err := a.Malloc(sizes[i], label)
		if err != nil {
			b.Fatal(err)
		}
		blocks[i] = blk
	}
	// Warm up to a steady state of the cache before timing.
	for i := 0; i < 200000; i++ {
		j := victims[i&(tableSize-1)]
		_ = a.Free(blocks[j])
		blocks[j], _ = a.Malloc(sizes[(i*7)&(tableSize-1)], label)
	}
	b.ReportAllocs()
	b.ResetTimer()
	start := time.Now()
	for i := 0; i < b.N; i++ {
		j := victims[i&(tableSize-1)]
		if err := a.Free(blocks[j]); err != nil {
			b.Fatal(err)
		}
		blk, err := a.Malloc(sizes[(i*7+3)&(tableSize-1)], label)
		if err != nil {
			b.Fatal(err)
		}
		blocks[j] = blk
	}
	b.StopTimer()
	b.ReportMetric(float64(b.N)/time.Since(start).Seconds(), "pairs/s")
}

// pow2 returns 2^x.
func pow2(x float64) float64 {
	r := 1.0
	for x >= 1 {
		r *= 2
		x--
	}
	// 2^frac by a short series (accuracy is irrelevant here).
	return r * (1 + x*0.6931471805599453 + x*x*0.2402265069591007 + x*x*x*0.0555041086648216)
}
