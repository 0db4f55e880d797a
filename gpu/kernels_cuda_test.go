//go:build cuda

package gpu

import (
	"math"
	"math/rand/v2"
	"testing"
)

// randoms returns n values uniform in [lo, hi), already rounded to dt so
// that the CPU reference sees exactly what the GPU reads.
func randoms(dt DType, seed uint64, n int, lo, hi float32) []float32 {
	r := rand.New(rand.NewPCG(seed, 7))
	xs := make([]float32, n)
	for i := range xs {
		xs[i] = round(dt, lo+(hi-lo)*r.Float32())
	}
	return xs
}

// tolerance of an op's result: ulps of the dtype near want plus an
// absolute term.
type tolerance struct {
	ulps float64
	abs  float64
}

func (tol tolerance) ok(dt DType, got, want float32) bool {
	if math.IsNaN(float64(want)) {
		return math.IsNaN(float64(got))
	}
	return math.Abs(float64(got)-float64(want)) <= tol.ulps*ulp(dt, want)+tol.abs
}

// transcendental is the tolerance of exp, sigmoid and tanh: ex2.approx and
// the rounding of x*log2(e) cost a few f32 ulps; the half types lose those
// in their own rounding, save for a last-place tie.
func transcendental(dt DType) tolerance {
	if dt == F32 {
		return tolerance{ulps: 64, abs: 1e-6}
	}
	return tolerance{ulps: 1, abs: 2e-7}
}

var exact = tolerance{ulps: 0, abs: 0}

func TestElementwiseKernels(t *testing.T) {
	afterTest(t)
	const n = 100_003 // not a multiple of the block size
	for _, dt := range []DType{F32, F16, BF16} {
		k := testDev.Kernels()
		a := randoms(dt, 1, n, -4, 4)
		b := randoms(dt, 2, n, 0.5, 4)
		for i := range b { // divisors away from zero, both signs
			if i%2 == 1 {
				b[i] = -b[i]
			}
		}
		a[0], a[1], a[2] = 0, float32(math.NaN()), -0.0
		ex := randoms(dt, 3, n, -10, 10)
		da, db, dex := upload(t, testDev, dt, a), upload(t, testDev, dt, b), upload(t, testDev, dt, ex)
		dst := allocElems(t, testDev, dt, n)
		r := func(x float64) float32 { return round(dt, float32(x)) }
		cases := []struct {
			name   string
			launch func() error
			in     []float32
			want   func(i int) float32
			tol    tolerance
		}{
			{"fill", func() error { return k.Fill(dt, dst, 1.5, n) }, nil,
				func(i int) float32 { return 1.5 }, exact},
			{"copy", func() error { return k.Copy(dt, dst, da, n) }, a,
				func(i int) float32 { return a[i] }, exact},
			{"add", func() error { return k.Add(dt, dst, da, db, n) }, a,
				func(i int) float32 { return round(dt, a[i]+b[i]) }, exact},
			{"sub", func() error { return k.Sub(dt, dst, da, db, n) }, a,
				func(i int) float32 { return round(dt, a[i]-b[i]) }, exact},
			{"mul", func() error { return k.Mul(dt, dst, da, db, n) }, a,
				func(i int) float32 { return round(dt, a[i]*b[i]) }, exact},
			{"div", func() error { return k.Div(dt, dst, da, db, n) }, a,
				func(i int) float32 { return round(dt, a[i]/b[i]) }, exact},
			{"relu", func() error { return k.Relu(dt, dst, da, n) }, a,
				func(i int) float32 {
					if a[i] <= 0 {
						return 0
					}
					return a[i]
				}, exact},
			{"relu_backward", func() error { return k.ReluBackward(dt, dst, db, da, n) }, a,
				func(i int) float32 {
					if a[i] <= 0 {
						return 0
					}
					return b[i]
				}, exact},
			{"scale", func() error { return k.Scale(dt, dst, da, -0.75, n) }, a,
				func(i int) float32 { return round(dt, -0.75*a[i]) }, exact},
			{"exp", func() error { return k.Exp(dt, dst, dex, n) }, ex,
				func(i int) float32 { return r(math.Exp(float64(ex[i]))) }, transcendental(dt)},
			{"sigmoid", func() error { return k.Sigmoid(dt, dst, dex, n) }, ex,
				func(i int) float32 { return r(1 / (1 + math.Exp(-float64(ex[i])))) }, transcendental(dt)},
			{"tanh", func() error { return k.Tanh(dt, dst, da, n) }, a,
				func(i int) float32 { return r(math.Tanh(float64(a[i]))) }, transcendental(dt)},
		}
		for _, c := range cases {
			t.Run(string(dt)+"/"+c.name, func(t *testing.T) {
				if err := c.launch(); err != nil {
					t.Fatal(err)
				}
				got := download(t, testDev, dt, dst, n)
				bad := 0
				for i := range got {
					if w := c.want(i); !c.tol.ok(dt, got[i], w) {
						if bad < 5 {
							in := float32(0)
							if c.in != nil {
								in = c.in[i]
							}
							t.Errorf("[%d] in %g: got %g, want %g", i, in, got[i], w)
						}
						bad++
					}
				}
				if bad > 0 {
					t.Errorf("%d of %d elements wrong", bad, n)
				}
			})
		}
		t.Run(string(dt)+"/axpy", func(t *testing.T) {
			y := upload(t, testDev, dt, b)
			if err := k.Axpy(dt, y, da, 0.25, n); err != nil {
				t.Fatal(err)
			}
			got := download(t, testDev, dt, y, n)
			for i := range got {
				w := round(dt, float32(math.FMA(0.25, float64(a[i]), float64(b[i]))))
				if !(tolerance{ulps: 1}).ok(dt, got[i], w) {
					t.Fatalf("[%d] %g + 0.25*%g: got %g, want %g", i, b[i], a[i], got[i], w)
				}
			}
		})
	}
}

func TestCastKernels(t *testing.T) {
	afterTest(t)
	k := testDev.Kernels()
	xs := randoms(F32, 4, 50_001, -70000, 70000)
	// Values that exercise rounding, overflow and subnormals in each type.
	special := []float32{0, -0.0, 1, -1, 65504, 65519, 65520, 1e-8, 3e-8, 6e-5, 1 + 1.0/2048, 1 + 3.0/2048,
		float32(math.Inf(1)), float32(math.Inf(-1)), float32(math.NaN()), 3.0e38, 1.0000001, 1.0039062}
	copy(xs, special)
	for _, from := range []DType{F32, F16, BF16} {
		src := make([]float32, len(xs))
		for i, x := range xs {
			src[i] = round(from, x)
		}
		dsrc := upload(t, testDev, from, src)
		for _, to := range []DType{F32, F16, BF16} {
			if from == to {
				continue
			}
			t.Run(string(from)+"_to_"+string(to), func(t *testing.T) {
				dst := allocElems(t, testDev, to, len(src))
				if err := k.Cast(from, to, dst, dsrc, int64(len(src))); err != nil {
					t.Fatal(err)
				}
				got := download(t, testDev, to, dst, len(src))
				for i := range got {
					want := round(to, src[i])
					same := math.Float32bits(got[i]) == math.Float32bits(want) || (want != want && got[i] != got[i])
					if !same {
						t.Fatalf("[%d] %g: got %g (%#x), want %g (%#x)", i, src[i], got[i], math.Float32bits(got[i]), want, math.Float32bits(want))
					}
				}
			})
		}
	}
}

func TestSumKernel(t *testing.T) {
	afterTest(t)
	k := testDev.Kernels()
	for _, dt := range []DType{F32, F16, BF16} {
		for _, n := range []int{0, 1, 255, 257, 100_000, 3_000_001} {
			xs := randoms(dt, uint64(n), n, -1, 1)
			var want float64
			for _, x := range xs {
				want += float64(x)
			}
			src := upload(t, testDev, dt, xs)
			dst := allocElems(t, testDev, dt, 1)
			if err := k.Sum(dt, dst, src, int64(n)); err != nil {
				t.Fatal(err)
			}
			got := download(t, testDev, dt, dst, 1)[0]
			tol := tolerance{ulps: 1, abs: 1e-6 * math.Sqrt(float64(n)+1)}
			if !tol.ok(dt, got, round(dt, float32(want))) {
				t.Errorf("sum %s n=%d: got %g, want %g", dt, n, got, want)
			}
			// Deterministic: the same launch gives the same bits.
			if err := k.Sum(dt, dst, src, int64(n)); err != nil {
				t.Fatal(err)
			}
			if again := download(t, testDev, dt, dst, 1)[0]; math.Float32bits(again) != math.Float32bits(got) {
				t.Errorf("sum %s n=%d: %g then %g", dt, n, got, again)
			}
		}
	}
}

func TestMatmulKernel(t *testing.T) {
	afterTest(t)
	k := testDev.Kernels()
	shapes := []struct {
		m, n, kk int
		transA   bool
		transB   bool
	}{
		{1, 1, 1, false, false},
		{70, 45, 33, false, false},
		{64, 64, 64, true, false},
		{17, 129, 40, false, true},
		{33, 31, 0, false, false}, // K = 0: C is zeros
		{5, 300, 257, true, true},
	}
	for _, dt := range []DType{F32, F16, BF16} {
		for _, s := range shapes {
			a := randoms(dt, 11, max(s.m*s.kk, 1), -1, 1)
			b := randoms(dt, 12, max(s.kk*s.n, 1), -1, 1)
			as := [2]int64{int64(s.kk), 1} // A stored [m,k]
			if s.transA {
				as = [2]int64{1, int64(s.m)} // A stored [k,m]
			}
			bs := [2]int64{int64(s.n), 1}
			if s.transB {
				bs = [2]int64{1, int64(s.kk)}
			}
			da, db := upload(t, testDev, dt, a), upload(t, testDev, dt, b)
			dc := allocElems(t, testDev, dt, s.m*s.n)
			if err := k.Fill(dt, dc, float32(math.NaN()), int64(s.m*s.n)); err != nil {
				t.Fatal(err)
			}
			if err := k.Matmul(dt, dc, da, db, int64(s.m), int64(s.n), int64(s.kk), as, bs); err != nil {
				t.Fatal(err)
			}
			got := download(t, testDev, dt, dc, s.m*s.n)
			for i := 0; i < s.m; i++ {
				for j := 0; j < s.n; j++ {
					var want float64
					for p := 0; p < s.kk; p++ {
						want += float64(a[int64(i)*as[0]+int64(p)*as[1]]) * float64(b[int64(p)*bs[0]+int64(j)*bs[1]])
					}
					tol := tolerance{ulps: 1, abs: 1e-6 * float64(s.kk)}
					if g := got[i*s.n+j]; !tol.ok(dt, g, round(dt, float32(want))) {
						t.Fatalf("matmul %s %+v C[%d,%d] = %g, want %g", dt, s, i, j, g, want)
					}
				}
			}
		}
	}
}

func TestKernelArgumentErrors(t *testing.T) {
	k := testDev.Kernels()
	if err := k.Add("f64", 1, 2, 3, 4); err == nil {
		t.Error("Add with dtype f64 did not fail")
	}
	if err := k.Relu(F32, 1, 2, -1); err == nil {
		t.Error("Relu of -1 elements did not fail")
	}
	if err := k.Matmul(F32, 1, 2, 3, 1<<21, 1, 1, [2]int64{1, 1}, [2]int64{1, 1}); err == nil {
		t.Error("Matmul beyond the grid limit did not fail")
	}
	if err := k.Fill(F32, 0, 1, 0); err != nil {
		t.Errorf("an empty fill launched something: %v", err)
	}
}
