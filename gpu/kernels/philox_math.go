package kernels

// The float64 log and sin/cos of π·x that the philox kernels evaluate for
// Box–Muller (curand uses the CUDA math library's logf, log and sincospi;
// PTX has no such instructions). Both the PTX (philox_ptx.go) and the Go
// reference (gpu/refkern) evaluate these polynomials with the same fma
// steps, so they agree bit for bit; against the CUDA library they differ by
// an ulp or two of float64, and float32's logf is this log rounded to f32.

// LogSeries are the coefficients of log(m) = 2s + s·z·P(z), s = (m−1)/(m+1),
// z = s², P(z) = Σ LogSeries[j]·z^j (2/(2j+3), Horner from the last):
// |s| ≤ 0.1716 for m in [√½, √2), so 11 terms reach float64's precision.
var LogSeries = func() []float64 {
	c := make([]float64, 11)
	for j := range c {
		c[j] = 2 / float64(2*j+3)
	}
	return c
}()

// Ln2Hi + Ln2Lo is log 2 split so that e·Ln2Hi is exact for |e| < 2^11.
const (
	Ln2Hi = 6.93147180369123816490e-01 // fdlibm's ln2_hi
	Ln2Lo = 1.90821492927058770002e-10 // fdlibm's ln2_lo
)

// SinSeries and CosSeries are Taylor coefficients of sin(x) = x + x·x²·S(x²)
// and cos(x) = 1 + x²·C(x²) for |x| ≤ π/4 (S from x³/3!, C from x²/2!).
var SinSeries, CosSeries = func() ([]float64, []float64) {
	s, c := make([]float64, 9), make([]float64, 10)
	f, sign := 1.0, -1.0
	for n := 2; n <= 20; n++ {
		f *= float64(n)
		if n%2 == 1 {
			s[(n-3)/2] = sign / f
			sign = -sign
		}
	}
	f, sign = 1.0, -1.0
	for n := 1; n <= 20; n++ {
		f *= float64(n)
		if n%2 == 0 {
			c[n/2-1] = sign / f
			sign = -sign
		}
	}
	return s, c
}()

// PiOver2 is π/2 rounded to float64.
const PiOver2 = 1.5707963267948966
