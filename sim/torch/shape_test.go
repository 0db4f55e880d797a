package torch

import "testing"

func TestPromoteTypes(t *testing.T) {
	cases := []struct{ a, b, want DType }{
		{Float32, Float16, Float32}, {Float16, BFloat16, Float32}, {Uint8, Int8, Int16},
		{Int64, Float16, Float16}, {Bool, Int32, Int32}, {Float64, Complex64, Complex128},
		{Int32, Int64, Int64}, {BFloat16, BFloat16, BFloat16},
	}
	for _, c := range cases {
		if got := PromoteTypes(c.a, c.b); got != c.want {
			t.Errorf("PromoteTypes(%s, %s) = %s, want %s", c.a, c.b, got, c.want)
		}
	}
}

func TestResultTypeScalars(t *testing.T) {
	rt := NewRuntime(Config{})
	mk := func(dt DType, shape ...int64) *Tensor {
		return rt.newTensorOn(&Storage{rt: rt, refs: 1}, shape, contiguousStrides(shape), 0, dt)
	}
	cases := []struct {
		ts   []*Tensor
		ss   []ScalarKind
		want DType
	}{
		{[]*Tensor{mk(Float16, 2)}, []ScalarKind{ScalarFloat}, Float16},   // half * 2.0 stays half
		{[]*Tensor{mk(Int64, 2)}, []ScalarKind{ScalarFloat}, Float32},     // long * 2.0 → default float
		{[]*Tensor{mk(Int32, 2)}, []ScalarKind{ScalarInt}, Int32},         // int * 2 stays int
		{[]*Tensor{mk(Float16, 2), mk(Float32)}, nil, Float16},            // zero-dim loses to dimensioned
		{[]*Tensor{mk(Int64, 2), mk(Float32)}, nil, Float32},              // ...unless of a higher category
		{[]*Tensor{mk(Bool, 2)}, []ScalarKind{ScalarInt}, Int64},          // bool + int → long
		{[]*Tensor{mk(Float32, 2), mk(Float64, 3)}, nil, Float64},         // both dimensioned: promote
		{[]*Tensor{mk(Uint8, 2)}, []ScalarKind{ScalarComplex}, Complex64}, // complex scalar wins
	}
	for i, c := range cases {
		if got := ResultType(c.ts, c.ss); got != c.want {
			t.Errorf("case %d: ResultType = %s, want %s", i, got, c.want)
		}
	}
}

func TestViewStrides(t *testing.T) {
	cases := []struct {
		shape, strides, newShape, want []int64
	}{
		{[]int64{4, 6}, []int64{6, 1}, []int64{24}, []int64{1}},
		{[]int64{4, 6}, []int64{6, 1}, []int64{2, 2, 6}, []int64{12, 6, 1}},
		{[]int64{6, 4}, []int64{1, 6}, []int64{24}, nil}, // transposed: no view
		{[]int64{6, 4}, []int64{1, 6}, []int64{6, 2, 2}, []int64{1, 12, 6}},
		{[]int64{64, 64, 16, 16}, []int64{16384, 256, 16, 1}, []int64{64, 16384}, []int64{16384, 1}},
		{[]int64{3, 1, 4}, []int64{4, 100, 1}, []int64{12}, []int64{1}},
	}
	for _, c := range cases {
		got := viewStrides(c.shape, c.strides, c.newShape)
		if (got == nil) != (c.want == nil) || (got != nil && !sameShape(got, c.want)) {
			t.Errorf("viewStrides(%v, %v, %v) = %v, want %v", c.shape, c.strides, c.newShape, got, c.want)
		}
	}
}

func TestBroadcastAndInfer(t *testing.T) {
	s, err := broadcastShapes([]int64{8, 1, 6, 1}, []int64{7, 1, 5})
	if err != nil || !sameShape(s, []int64{8, 7, 6, 5}) {
		t.Errorf("broadcast = %v, %v", s, err)
	}
	if _, err := broadcastShapes([]int64{3}, []int64{4}); err == nil || err.Error() != "The size of tensor a (3) must match the size of tensor b (4) at non-singleton dimension 0" {
		t.Errorf("broadcast error = %v", err)
	}
	if s, err := inferSize([]int64{64, -1}, 64*16384); err != nil || s[1] != 16384 {
		t.Errorf("inferSize = %v, %v", s, err)
	}
	if _, err := inferSize([]int64{3, -1}, 10); err == nil || err.Error() != "shape '[3, -1]' is invalid for input of size 10" {
		t.Errorf("inferSize error = %v", err)
	}
	if _, err := wrapDim(2, 2); err == nil || err.Error() != "Dimension out of range (expected to be in range of [-2, 1], but got 2)" {
		t.Errorf("wrapDim error = %v", err)
	}
}

func TestStridesLike(t *testing.T) {
	// a transposed (column-major) matrix keeps its layout in empty_like
	got := stridesLike([]int64{3, 4}, []int64{1, 3})
	if !sameShape(got, []int64{1, 3}) {
		t.Errorf("stridesLike transposed = %v", got)
	}
	// an expanded tensor is not dense: row-major
	got = stridesLike([]int64{3, 4}, []int64{0, 1})
	if !sameShape(got, []int64{4, 1}) {
		t.Errorf("stridesLike expanded = %v", got)
	}
}
