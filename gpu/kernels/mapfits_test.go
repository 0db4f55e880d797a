package kernels

import "testing"

func TestMapFits32(t *testing.T) {
	const g = int64(1) << 31
	cases := []struct {
		name    string
		shape   []int64
		strides [][]int64
		want    bool
	}{
		{"small contiguous", []int64{1, 1, 4, 5}, [][]int64{{0, 0, 5, 1}}, true},
		{"empty", []int64{1, 1, 0, 5}, [][]int64{{0, 0, 5, 1}}, true},
		{"2^31-1 elements", []int64{1, 1, 1, g - 1}, [][]int64{{0, 0, 0, 1}}, true},
		{"2^31 elements", []int64{1, 1, 2, g / 2}, [][]int64{{0, 0, g / 2, 1}}, false},
		{"broadcast operand", []int64{1, 1, 1000, 1000}, [][]int64{{0, 0, 1000, 1}, {0, 0, 0, 1}}, true},
		{"offset past 2^31", []int64{1, 1, 2, 10}, [][]int64{{0, 0, 10, 1}, {0, 0, g, 1}}, false},
		{"last offset 2^31-1", []int64{1, 1, 2, 1}, [][]int64{{0, 0, 1, 1}, {0, 0, g - 1, 1}}, true},
		{"negative stride", []int64{1, 1, 1, 3}, [][]int64{{0, 0, 0, -1}}, false},
	}
	for _, c := range cases {
		if got := MapFits32(c.shape, c.strides...); got != c.want {
			t.Errorf("%s: MapFits32 = %v, want %v", c.name, got, c.want)
		}
	}
}
