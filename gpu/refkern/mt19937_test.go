package refkern

import (
	"math"
	"testing"
)

// TestMT19937Reference checks the engine against the reference outputs
// of MT19937 (mt19937ar.c / std::mt19937): seed 5489 starts 3499211612,
// 581869302, …, and its 10000th output is 4123659995 (C++11's check).
func TestMT19937Reference(t *testing.T) {
	m := NewMT19937(5489)
	want := []uint32{3499211612, 581869302, 3890346734, 3586334585, 545404204, 4161255391, 3922919429, 949333985, 2715962298, 1323567403}
	for i, w := range want {
		if g := m.Uint32(); g != w {
			t.Fatalf("output %d = %d, want %d", i, g, w)
		}
	}
	m.Seed(5489)
	var v uint32
	for range 10000 {
		v = m.Uint32()
	}
	if v != 4123659995 {
		t.Fatalf("10000th output = %d, want 4123659995", v)
	}
	// A seed of 2^32 or more keeps its low 32 bits for the state.
	a, b := NewMT19937(1<<40+3), NewMT19937(3)
	for range 700 {
		if a.Uint32() != b.Uint32() {
			t.Fatal("seed 2^40+3 differs from seed 3")
		}
	}
	if a.SeedValue() != 1<<40+3 {
		t.Fatalf("seed = %d", a.SeedValue())
	}
}

// TestCPUGenerator64 checks random64's order (first draw high) and the
// reseed's dropping of the cached normal sample.
func TestCPUGenerator64(t *testing.T) {
	g, m := NewCPUGenerator(7), NewMT19937(7)
	hi, lo := m.Uint32(), m.Uint32()
	if got := g.Random64(); got != uint64(hi)<<32|uint64(lo) {
		t.Fatalf("random64 = %#x", got)
	}
	g.Seed(1)
	first := g.normalDouble(0, 1)
	g.Seed(1)
	if again := g.normalDouble(0, 1); again != first {
		t.Fatalf("after a reseed the first normal is %v, want %v (cache not dropped)", again, first)
	}
}

// TestAvxMath checks avxLog/avxSincos against math within their
// documented accuracy (a few float32 ulps on the Box–Muller ranges).
func TestAvxMath(t *testing.T) {
	for i := 1; i <= 1<<12; i++ {
		x := float32(i) / (1 << 12)
		if d := math.Abs(float64(avxLog(x)) - math.Log(float64(x))); d > 4e-7*math.Max(1, math.Abs(math.Log(float64(x)))) {
			t.Fatalf("avxLog(%v) off by %g", x, d)
		}
		th := float32(2*math.Pi) * x
		s, c := avxSincos(th)
		if math.Abs(float64(s)-math.Sin(float64(th))) > 3e-7 || math.Abs(float64(c)-math.Cos(float64(th))) > 3e-7 {
			t.Fatalf("avxSincos(%v) = %v, %v", th, s, c)
		}
	}
	if l := avxLog(0); !math.IsNaN(float64(l)) {
		t.Fatalf("avxLog(0) = %v, want NaN", l)
	}
}

// TestFMARound32 checks the single rounding of fmaRound32 where rounding
// the float64 sum first would round twice: (1+2^-12)² + 2^-70 lies just
// above the float32 midpoint 1 + 2^-11 + 2^-24, so it rounds up.
func TestFMARound32(t *testing.T) {
	a := float32(1 + 1.0/(1<<12))
	c := float32(math.Ldexp(1, -70))
	want := float32(1 + 1.0/(1<<11) + 1.0/(1<<23))
	if got := fmaRound32(a, a, c); got != want {
		t.Fatalf("fmaRound32 = %v, want %v", got, want)
	}
	if got := fmaRound32(a, a, -c); got != float32(1+1.0/(1<<11)) {
		t.Fatalf("fmaRound32 below the midpoint = %v", got)
	}
	if got := fmaRound32(3, 5, 1); got != 16 {
		t.Fatalf("fmaRound32(3,5,1) = %v", got)
	}
}
