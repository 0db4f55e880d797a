package gpuexec

import (
	"math"
	"testing"

	"github.com/gpumem/playground/sim/torch"
)

// TestPowTensorFloatTypes checks a ** b with a tensor exponent for
// float32, float16 and bfloat16 (computed by the float64 pow_tensor,
// rounded to float32, then to the type) against Go's math.Pow rounded the
// same way, with a broadcast exponent and the sign rules (negative base
// with integer and non-integer exponents, 0 ** negative).
func TestPowTensorFloatTypes(t *testing.T) {
	av := []float64{0.5, 1.75, 3, -2, -2, 0, 7.25, 0.1}
	bv := []float64{2.5, -1.5, 3, 3, 0.5, -1, 0.3, 7}
	for _, dt := range []torch.DType{torch.Float32, torch.Float16, torch.BFloat16} {
		f := newFixture(t)
		a := make([]float64, len(av))
		b := make([]float64, len(bv))
		for i := range av {
			a[i], b[i] = round(dt, av[i]), round(dt, bv[i])
		}
		at := f.tensor(true, dt, []int64{2, 4}, a)
		bt := f.tensor(true, dt, []int64{2, 4}, b)
		out := f.tensor(true, dt, []int64{2, 4}, nil)
		if err := f.exec(torch.ExecPow, out, []torch.ExecTensor{at, bt}, nil, nil); err != nil {
			t.Fatalf("%s pow: %v", dt, err)
		}
		want := make([]float64, len(a))
		for i := range a {
			want[i] = round(dt, float64(float32(math.Pow(a[i], b[i]))))
		}
		got := f.read(out)
		for i := range got {
			if math.IsNaN(want[i]) != math.IsNaN(got[i]) || (!math.IsNaN(want[i]) && got[i] != want[i]) {
				t.Errorf("%s %v ** %v: got %v, want %v", dt, a[i], b[i], got[i], want[i])
			}
		}
		// a broadcast exponent row
		row := f.tensor(true, dt, []int64{4}, b[:4])
		if err := f.exec(torch.ExecPow, out, []torch.ExecTensor{at, row}, nil, nil); err != nil {
			t.Fatalf("%s pow broadcast: %v", dt, err)
		}
		got = f.read(out)
		for i := range got {
			w := round(dt, float64(float32(math.Pow(a[i], b[i%4]))))
			if math.IsNaN(w) != math.IsNaN(got[i]) || (!math.IsNaN(w) && got[i] != w) {
				t.Errorf("%s broadcast %v ** %v: got %v, want %v", dt, a[i], b[i%4], got[i], w)
			}
		}
	}
}

// TestFloat64AllAny checks all()/any() of float64 tensors: non-zero
// (NaN included) is true; the empty tensor gives True/False.
func TestFloat64AllAny(t *testing.T) {
	f := newFixture(t)
	cases := []struct {
		vals     []float64
		all, any float64
	}{
		{[]float64{1, -2, math.NaN(), 1e-300}, 1, 1},
		{[]float64{0, 5e-324, 0, 0}, 0, 1},
		{[]float64{0, 0, math.Copysign(0, -1), 0}, 0, 0},
		{[]float64{}, 1, 0},
	}
	for _, c := range cases {
		x := f.tensor(true, torch.Float64, []int64{int64(len(c.vals))}, c.vals)
		for kind, want := range map[torch.ExecKind]float64{torch.ExecAll: c.all, torch.ExecAny: c.any} {
			out := f.tensor(true, torch.Bool, nil, nil)
			if err := f.exec(kind, out, []torch.ExecTensor{x}, nil, nil); err != nil {
				t.Fatalf("%s %v: %v", kind, c.vals, err)
			}
			if got := f.read(out); len(got) != 1 || got[0] != want {
				t.Errorf("%s %v: %v, want %v", kind, c.vals, got, want)
			}
		}
	}
}
