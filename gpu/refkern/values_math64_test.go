package refkern

import (
	"math"
	"testing"

	"github.com/gpumem/playground/gpu"
	"github.com/gpumem/playground/gpu/kernels"
)

// TestMath64Edges checks exp64/log64/pow64 where Go's amd64 exp and log
// go wrong, against values from their definitions (a few ulps).
func TestMath64Edges(t *testing.T) {
	near := func(got, want float64) bool { return math.Abs(got-want) <= 4e-16*math.Abs(want) }
	cases := []struct {
		name      string
		got, want float64
	}{
		{"exp(709.7)", exp64(709.7), math.Exp(354.85) * math.Exp(354.85)},
		{"exp(709.78)", exp64(709.78), 1.7928227943945155e308},
		{"exp(1)", exp64(1), math.E},
		{"log(1e-310)", log64(1e-310), math.Log(1e-310*0x1p60) - 60*math.Ln2},
		{"log(5e-324)", log64(5e-324), -744.4400719213812},
		{"log(2)", log64(2), math.Ln2},
		{"pow(1e-310, 0.5)", pow64(1e-310, 0.5), math.Sqrt(1e-310)},
		{"pow(-5e-324, 3)", pow64(-5e-324, 3), 0},
		{"pow(2, 0.5)", pow64(2, 0.5), math.Sqrt2},
	}
	for _, c := range cases {
		if !near(c.got, c.want) && c.got != c.want {
			t.Errorf("%s = %v, want %v", c.name, c.got, c.want)
		}
	}
	if v := log64(0); !math.IsInf(v, -1) {
		t.Errorf("log(0) = %v", v)
	}
	if v := log64(-1); !math.IsNaN(v) {
		t.Errorf("log(-1) = %v", v)
	}
}

// TestMap64 runs float64 map kernels through Map over memory (a bool
// condition and a float32 uniform as the Fixed inputs) and checks them
// against direct float64 formulas.
func TestMap64(t *testing.T) {
	mem := &Memory{}
	k := New(mem)
	const n = 6
	xs := []float64{-2.5, -0.75, 0, 0.3, 1.5, 4}
	next := uint64(1 << 20)
	alloc := func(tp gpu.DType) uint64 {
		a := next
		next += 1 << 12
		if err := mem.Add(a, n*tp.Size()); err != nil {
			t.Fatal(err)
		}
		return a
	}
	x, y, cond, u, dst := alloc(kernels.F64), alloc(kernels.F64), alloc(kernels.B8), alloc(kernels.F32), alloc(kernels.F64)
	for i, v := range xs {
		if err := k.store64(kernels.F64, at(x, kernels.F64, int64(i)), v); err != nil {
			t.Fatal(err)
		}
		if err := k.store64(kernels.F64, at(y, kernels.F64, int64(i)), 0.5+v*v); err != nil {
			t.Fatal(err)
		}
		if err := k.store(kernels.B8, at(cond, kernels.B8, int64(i)), float32(i%2)); err != nil {
			t.Fatal(err)
		}
		if err := k.store(kernels.F32, at(u, kernels.F32, int64(i)), float32(i)/n); err != nil {
			t.Fatal(err)
		}
	}
	str := func(a uint64) gpu.Strided { return gpu.Strided{Addr: a, Strides: [kernels.MaxRank]int64{0, 0, 0, 1}} }
	shape := gpu.Shape{1, 1, 1, n}
	gelu := func(v float64) float64 { return v * 0.5 * (1 + math.Erf(v/math.Sqrt2)) }
	cases := []struct {
		op     kernels.MapOp
		srcs   []uint64
		s0, s1 float64
		want   func(i int, v, w float64) float64
	}{
		{"exp", []uint64{x}, 0, 0, func(_ int, v, _ float64) float64 { return math.Exp(v) }},
		{"log", []uint64{y}, 0, 0, func(_ int, _, w float64) float64 { return math.Log(w) }},
		{"pow", []uint64{y}, 2.5, 0, func(_ int, _, w float64) float64 { return math.Pow(w, 2.5) }},
		{"pow_tensor", []uint64{y, x}, 0, 0, func(_ int, v, w float64) float64 { return math.Pow(w, v) }},
		{"gelu", []uint64{x}, 0, 0, func(_ int, v, _ float64) float64 { return gelu(v) }},
		{"silu", []uint64{x}, 0, 0, func(_ int, v, _ float64) float64 { return v / (1 + math.Exp(-v)) }},
		{"leaky_relu", []uint64{x}, 0.1, 0, func(_ int, v, _ float64) float64 { return math.Max(v, 0) + 0.1*math.Min(v, 0) }},
		{"clamp", []uint64{x}, -0.3, 1.1, func(_ int, v, _ float64) float64 { return math.Min(math.Max(v, -0.3), 1.1) }},
		{"where", []uint64{cond, x, y}, 0, 0, func(i int, v, w float64) float64 {
			if i%2 == 1 {
				return v
			}
			return w
		}},
		{"masked_fill", []uint64{x, cond}, 0.1, 0, func(i int, v, _ float64) float64 {
			if i%2 == 1 {
				return 0.1
			}
			return v
		}},
		{"dropout", []uint64{x, u}, 0.7, 1 / 0.7, func(i int, v, _ float64) float64 {
			if float64(float32(i)/n) < 0.7 {
				return v / 0.7
			}
			return 0
		}},
		{"bce", []uint64{u, u}, 0, 0, func(i int, _, _ float64) float64 {
			p := float64(float32(i) / n)
			return (p-1)*math.Max(math.Log(1-p), -100) - p*math.Max(math.Log(p), -100)
		}},
	}
	for _, c := range cases {
		in := kernels.F64
		if c.op == "bce" {
			in = kernels.F32 // an f32 kernel: checks that only float64 takes map64
		}
		var srcs []gpu.Strided
		for _, s := range c.srcs {
			srcs = append(srcs, str(s))
		}
		out := dst
		if in == kernels.F32 {
			out = alloc(kernels.F32)
		}
		if err := k.Map(c.op, in, in, shape, str(out), srcs, c.s0, c.s1); err != nil {
			t.Fatalf("%s: %v", c.op, err)
		}
		for i := range xs {
			got, err := k.load64(in, at(out, in, int64(i)))
			if err != nil {
				t.Fatal(err)
			}
			w, _ := k.load64(kernels.F64, at(y, kernels.F64, int64(i)))
			want := c.want(i, xs[i], w)
			tol := 4e-16 * math.Abs(want)
			if in == kernels.F32 {
				tol = 1e-6 * math.Max(1, math.Abs(want))
			}
			if math.Abs(got-want) > tol {
				t.Errorf("%s[%d] = %v, want %v", c.op, i, got, want)
			}
		}
	}
}
