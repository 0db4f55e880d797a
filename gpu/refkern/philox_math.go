package refkern

import (
	"math"

	"github.com/gpumem/playground/gpu/kernels"
)

// Math of the philox reference: float32 fma without double rounding, and the
// float64 log and sincospi of kernels/philox_math.go evaluated with the
// PTX's fma steps (math.FMA), so that both agree bit for bit.

// FMA32 is fma.rn.f32: a·b + c rounded once to float32. The product is
// exact in float64; the sum's rounding error (TwoSum) breaks the ties that
// rounding the float64 sum to float32 would otherwise get wrong.
func FMA32(a, b, c float32) float32 {
	p := float64(a) * float64(b)
	s := p + float64(c)
	bv := s - p
	e := (p - (s - bv)) + (float64(c) - bv)
	r := float32(s)
	if e == 0 || float64(r) == s || math.IsInf(s, 0) || math.IsNaN(s) {
		return r
	}
	// s lies strictly between two float32s; only a tie needs e.
	other := math.Nextafter32(r, float32(math.Copysign(math.Inf(1), s-float64(r))))
	if s-float64(r) != float64(other)-s {
		return r
	}
	if (e > 0) == (float64(other) > float64(r)) {
		return other
	}
	return r
}

// Log64 is the natural log of a positive normal float64 (kernels.LogSeries).
func Log64(x float64) float64 {
	b := math.Float64bits(x)
	e := int64(b>>52) - 1023
	m := math.Float64frombits(b&(1<<52-1) | 1023<<52)
	if m > math.Sqrt2 {
		m *= 0.5
		e++
	}
	f := m - 1
	s := f / (f + 2)
	z := s * s
	c := logSeries
	p := c[len(c)-1]
	for j := len(c) - 2; j >= 0; j-- {
		p = math.FMA(p, z, c[j])
	}
	r := math.FMA(s*z, p, 2*s)
	fe := float64(e)
	r = math.FMA(fe, ln2Lo, r)
	return math.FMA(fe, ln2Hi, r)
}

// Log32 is logf as the philox kernels compute it: Log64, rounded to f32.
func Log32(x float32) float32 { return float32(Log64(float64(x))) }

// SinCosPi64 is (sin πv, cos πv) for 0 ≤ v ≤ 2 (kernels.SinSeries,
// CosSeries): 2v = q + d with q an integer and |d| ≤ ½, x = d·π/2.
func SinCosPi64(v float64) (float64, float64) {
	t := 2 * v
	q := math.RoundToEven(t)
	x := (t - q) * piOver2
	x2 := x * x
	sp := sinSeries[len(sinSeries)-1]
	for j := len(sinSeries) - 2; j >= 0; j-- {
		sp = math.FMA(sp, x2, sinSeries[j])
	}
	cp := cosSeries[len(cosSeries)-1]
	for j := len(cosSeries) - 2; j >= 0; j-- {
		cp = math.FMA(cp, x2, cosSeries[j])
	}
	s := math.FMA(x*x2, sp, x)
	c := math.FMA(x2, cp, 1)
	switch int64(q) & 3 {
	case 1:
		return c, -s
	case 2:
		return -s, -c
	case 3:
		return -c, s
	}
	return s, c
}

var (
	logSeries = kernels.LogSeries
	sinSeries = kernels.SinSeries
	cosSeries = kernels.CosSeries
)

const (
	ln2Hi   = kernels.Ln2Hi
	ln2Lo   = kernels.Ln2Lo
	piOver2 = kernels.PiOver2
)
