package refkern

import (
	"math"
	"testing"

	"github.com/gpumem/playground/gpu/kernels"
)

// TestDivInt checks the integer division family against PyTorch 2.11 on
// an H200 (gpu/testdata/h200-values-ints2.txt), division by zero included.
func TestDivInt(t *testing.T) {
	cases := []struct {
		op   kernels.MapOp
		a, b int64
		want int64
	}{
		{"div_floor", 7, -2, -4}, {"div_floor", -7, 2, -4}, {"div_floor", -7, -2, 3},
		{"div_trunc", -7, 2, -3}, {"remainder", -7, 2, 1}, {"remainder", 7, -2, -1},
		{"fmod", -7, 2, -1}, {"fmod", 7, -2, 1},
		{"div_floor", 5, 0, 4294967295}, {"div_floor", -5, 0, -2}, {"div_floor", 0, 0, 4294967295},
		{"div_floor", 1 << 62, 0, -1}, {"div_floor", -(1 << 62), 0, -2},
		{"div_trunc", 5, 0, 4294967295}, {"div_trunc", -5, 0, -1},
		{"remainder", 5, 0, 4294967295}, {"remainder", -5, 0, -1}, {"fmod", 1 << 62, 0, -1},
	}
	for _, c := range cases {
		if got := divInt(c.op, c.a, c.b, 0); got != c.want {
			t.Errorf("%s(%d, %d) = %d, want %d", c.op, c.a, c.b, got, c.want)
		}
		// the number forms agree with the tensor form
		if got := divInt(c.op+"_s", c.a, 0, c.b); got != c.want {
			t.Errorf("%s_s(%d, %d) = %d, want %d", c.op, c.a, c.b, got, c.want)
		}
	}
	if got := divInt("rdiv_floor_s", -3, 0, 100); got != -34 {
		t.Errorf("100 // -3 = %d, want -34", got)
	}
	if got := divInt("rremainder_s", 3, 0, -100); got != 2 {
		t.Errorf("-100 %% 3 = %d, want 2", got)
	}
}

// TestDivFloat checks the float forms: Python's floor and remainder
// signs, trunc, exact fmod of large quotients, IEEE results by zero.
func TestDivFloat(t *testing.T) {
	inv := func(b float64) float64 { return float64(float32(1) / float32(b)) }
	cases := []struct {
		op         kernels.MapOp
		t          kernels.DType
		a, b, want float64
	}{
		{"div_floor", kernels.F32, 7.5, -2, -4}, {"div_floor", kernels.F32, math.Copysign(0, -1), 2, math.Copysign(0, -1)},
		{"div_trunc", kernels.F32, -7.5, 2, -3}, {"remainder", kernels.F32, -7.5, 2, 0.5},
		{"remainder", kernels.F32, 7.5, -2, -0.5}, {"fmod", kernels.F32, -7.5, 2, -1.5},
		{"fmod", kernels.F64, 1e300, 0.7, 0.3790560774266656}, {"fmod", kernels.F64, 3.5e10, 0.7, 2.220446049250313e-06},
		{"div_floor", kernels.F32, 7.5, 0, math.Inf(1)}, {"remainder", kernels.F32, 7.5, 0, math.NaN()},
		{"div_floor", kernels.F32, 3, 0.1, 29}, {"div_trunc", kernels.F32, 3, 0.1, 30},
	}
	for _, c := range cases {
		b := c.b
		if c.t == kernels.F32 {
			b = float64(float32(b))
		}
		got := divFloat(c.op, c.t, c.a, b, 0, 0)
		if got != c.want && !(math.IsNaN(got) && math.IsNaN(c.want)) || math.Signbit(got) != math.Signbit(c.want) && !math.IsNaN(c.want) {
			t.Errorf("%s %s(%v, %v) = %v, want %v", c.op, c.t, c.a, c.b, got, c.want)
		}
	}
	// PyTorch's CPU-scalar path: x // 2 multiplies by the reciprocal
	if got := divFloat("div_floor_s", kernels.F32, -7.5, 0, 2, inv(2)); got != -4 {
		t.Errorf("-7.5 // 2 = %v, want -4", got)
	}
}
