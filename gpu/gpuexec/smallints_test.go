package gpuexec

import (
	"slices"
	"testing"

	"github.com/gpumem/playground/sim/torch"
)

func (f *fixture) ints(et torch.ExecTensor) []int64 {
	f.t.Helper()
	v, err := f.ex.ReadInts(et)
	if err != nil {
		f.t.Fatalf("ReadInts: %v", err)
	}
	return v
}

// TestSmallIntCasts checks PyTorch's conversions into uint8/int8/int16 on
// CUDA: uint8 through int64, int8/int16 through int32, then the low bits
// (as PyTorch 2.11 on an H200), integers keeping their low bits.
func TestSmallIntCasts(t *testing.T) {
	floats := []float64{-1.5, 300.7, 255.9, -200.2, 1e5, -4e4, 3.99}
	ints := []float64{-1, 255, 256, 300, -129, 1 << 40}
	for _, tc := range []struct {
		from torch.DType
		vals []float64
		to   torch.DType
		want []int64
	}{
		{torch.Float32, floats, torch.Uint8, []int64{255, 44, 255, 56, 160, 192, 3}},
		{torch.Float32, floats, torch.Int8, []int64{-1, 44, -1, 56, -96, -64, 3}},
		{torch.Float32, floats, torch.Int16, []int64{-1, 300, 255, -200, -31072, 25536, 3}},
		{torch.Float64, floats, torch.Int8, []int64{-1, 44, -1, 56, -96, -64, 3}},
		{torch.Float16, []float64{-1.5, 300.7, 1000}, torch.Uint8, []int64{255, 44, 232}},
		{torch.Int64, ints, torch.Uint8, []int64{255, 255, 0, 44, 127, 0}},
		{torch.Int64, ints, torch.Int8, []int64{-1, -1, 0, 44, 127, 0}},
		{torch.Int32, ints[:5], torch.Int16, []int64{-1, 255, 256, 300, -129}},
		{torch.Bool, []float64{1, 0}, torch.Int16, []int64{1, 0}},
	} {
		for _, cuda := range []bool{true, false} {
			f := newFixture(t)
			n := int64(len(tc.vals))
			x := f.tensor(cuda, tc.from, []int64{n}, tc.vals)
			out := f.tensor(cuda, tc.to, []int64{n}, nil)
			if err := f.exec(torch.ExecCopy, out, []torch.ExecTensor{x}, nil, nil); err != nil {
				t.Fatalf("%s → %s: %v", tc.from, tc.to, err)
			}
			if got := f.ints(out); !slices.Equal(got, tc.want) {
				t.Errorf("%s → %s (cuda %v): %v, want %v", tc.from, tc.to, cuda, got, tc.want)
			}
		}
	}
}

// TestSmallIntArith checks arithmetic in the type (wrapping), mixed-type
// comparisons (exact, not in the first operand's type) and sums in int64.
func TestSmallIntArith(t *testing.T) {
	f := newFixture(t)
	u := f.tensor(true, torch.Uint8, []int64{4}, []float64{0, 1, 200, 255})
	s := f.tensor(true, torch.Int8, []int64{4}, []float64{-128, -1, 100, 127})
	check := func(name string, out torch.ExecTensor, want []int64) {
		t.Helper()
		if got := f.ints(out); !slices.Equal(got, want) {
			t.Errorf("%s: %v, want %v", name, got, want)
		}
	}
	o := f.tensor(true, torch.Uint8, []int64{4}, nil)
	if err := f.exec(torch.ExecAdd, o, []torch.ExecTensor{u, u}, []float64{3}, nil); err != nil {
		t.Fatal(err)
	}
	check("u + 3u", o, []int64{0, 4, 32, 252})
	o8 := f.tensor(true, torch.Int8, []int64{4}, nil)
	if err := f.exec(torch.ExecAffine, o8, []torch.ExecTensor{s}, []float64{50, 1}, nil); err != nil {
		t.Fatal(err)
	}
	check("s*50 + 1", o8, []int64{1, -49, -119, -49})
	b := f.tensor(true, torch.Bool, []int64{4}, nil)
	if err := f.exec("lt", b, []torch.ExecTensor{s, u}, nil, nil); err != nil {
		t.Fatal(err)
	}
	check("int8 < uint8", b, []int64{1, 1, 1, 1})
	sum := f.tensor(true, torch.Int64, []int64{}, nil)
	if err := f.exec(torch.ExecSum, sum, []torch.ExecTensor{u}, nil, nil); err != nil {
		t.Fatal(err)
	}
	check("sum", sum, []int64{456})
}

// TestDropoutStrided checks Dropout.cu's element order for non-contiguous
// inputs: a transpose (dense, vectorised) draws in memory order, a slice
// (not dense) by the row-major index, as a contiguous input whose vector
// size is 1.
func TestDropoutStrided(t *testing.T) {
	f := newFixture(t)
	ones := func(n int) []float64 {
		v := make([]float64, n)
		for i := range v {
			v[i] = 1
		}
		return v
	}
	drop := func(x torch.ExecTensor) []int64 {
		t.Helper()
		if err := f.ex.Exec(&torch.ExecOp{Kind: ExecManualSeed, Ints: []int64{5}}); err != nil {
			t.Fatal(err)
		}
		out := f.tensor(true, torch.Float32, x.Shape, nil)
		mask := f.tensor(true, torch.Bool, x.Shape, nil)
		if err := f.ex.Exec(&torch.ExecOp{Kind: torch.ExecDropout, Out: []torch.ExecTensor{out, mask}, In: []torch.ExecTensor{x}, Scalars: []float64{0.5}}); err != nil {
			t.Fatalf("dropout %v/%v: %v", x.Shape, x.Strides, err)
		}
		return f.ints(mask)
	}
	x := f.tensor(true, torch.Float32, []int64{4, 6}, ones(24))
	flat := drop(x)
	xt := x
	xt.Shape, xt.Strides = []int64{6, 4}, []int64{1, 6}
	got := drop(xt)
	for i := 0; i < 6; i++ {
		for j := 0; j < 4; j++ {
			if got[i*4+j] != flat[j*6+i] {
				t.Fatalf("transpose: mask[%d][%d] = %d, memory order gives %d", i, j, got[i*4+j], flat[j*6+i])
			}
		}
	}
	y := f.tensor(true, torch.Float32, []int64{15}, ones(15)) // odd: vector size 1
	lin := drop(y)
	z := f.tensor(true, torch.Float32, []int64{3, 10}, ones(30))
	z.Shape, z.Strides = []int64{3, 5}, []int64{10, 2}
	if got := drop(z); !slices.Equal(got, lin) {
		t.Errorf("slice: mask %v, row-major order gives %v", got, lin)
	}
}
