package torch

import (
	"math"
	"testing"
)

// TestFormatValues checks the printing of values against what PyTorch
// 2.11 prints for the same tensors (gpu/script/testdata/torch/reduce.py
// prints them on a real GPU too).
func TestFormatValues(t *testing.T) {
	inf, nan := math.Inf(1), math.NaN()
	arange := func(n int) []float64 {
		v := make([]float64, n)
		for i := range v {
			v[i] = float64(i)
		}
		return v
	}
	cases := []struct {
		name  string
		shape []int64
		dt    DType
		vals  []float64
		want  string
	}{
		{"non-finite only", []int64{3}, Float32, []float64{inf, nan, -inf}, "[inf, nan, -inf]"},
		{"int mode with inf", []int64{3}, Float32, []float64{1, inf, nan}, "[1., inf, nan]"},
		{"fixed with inf", []int64{3}, Float32, []float64{-1.5, inf, 0}, "[-1.5000,     inf,  0.0000]"},
		{"zeros", []int64{2}, Float32, []float64{0, 0}, "[0., 0.]"},
		{"wraps at 80", []int64{20}, Float32, arange(20),
			"[ 0.,  1.,  2.,  3.,  4.,  5.,  6.,  7.,  8.,  9., 10., 11., 12., 13.,\n        14., 15., 16., 17., 18., 19.]"},
		{"summarized", []int64{2000}, Float32, arange(2000),
			"[0.0000e+00, 1.0000e+00, 2.0000e+00,  ..., 1.9970e+03, 1.9980e+03,\n        1.9990e+03]"},
		{"summarized rows", []int64{500, 3}, Int64, arange(1500),
			"[[   0,    1,    2],\n        [   3,    4,    5],\n        [   6,    7,    8],\n        ...,\n        [1491, 1492, 1493],\n        [1494, 1495, 1496],\n        [1497, 1498, 1499]]"},
		{"bool", []int64{2}, Bool, []float64{1, 0}, "[ True, False]"},
	}
	for _, c := range cases {
		if got := formatValues(c.shape, c.dt, c.vals, len("tensor(")); got != c.want {
			t.Errorf("%s:\n got %q\nwant %q", c.name, got, c.want)
		}
	}
}

// TestAddSuffixes checks _add_suffixes' wrapping of device/dtype/grad_fn.
func TestAddSuffixes(t *testing.T) {
	cases := []struct {
		body     string
		suffixes []string
		want     string
	}{
		{"tensor([1., 2.]", []string{"device='cuda:0'"}, "tensor([1., 2.], device='cuda:0')"},
		{"tensor([[1.0000, 2.0000, 3.0000, 4.0000, 5.0000, 6.0000, 7.0000, 8.0000]]",
			[]string{"device='cuda:0'", "dtype=torch.float16"},
			"tensor([[1.0000, 2.0000, 3.0000, 4.0000, 5.0000, 6.0000, 7.0000, 8.0000]],\n       device='cuda:0', dtype=torch.float16)"},
		{"tensor([[1.],\n        [2.]]", []string{"device='cuda:0'", "requires_grad=True"},
			"tensor([[1.],\n        [2.]], device='cuda:0', requires_grad=True)"},
	}
	for _, c := range cases {
		if got := addSuffixes(c.body, c.suffixes, len("tensor(")); got != c.want {
			t.Errorf("got %q\nwant %q", got, c.want)
		}
	}
}
