package torch

import "testing"

// TestTrilSize checks get_tril_size's count against PyTorch's recorded
// tril_indices/triu_indices sizes (q21) and a brute-force count.
func TestTrilSize(t *testing.T) {
	tests := []struct {
		upper         bool
		row, col, off int64
		want          int64
	}{
		{false, 100, 100, 0, 5050},
		{false, 64, 100, -3, 1891},
		{true, 100, 100, 1, 4950},
		{true, 64, 100, 5, 4064},
		{false, 4, 4, 0, 10},
		{false, 27, 27, -1, 351},
		{false, 0, 5, 0, 0},
		{true, 3, 7, -10, 21},
	}
	for _, tc := range tests {
		n := trilSize(tc.row, tc.col, tc.off)
		if tc.upper {
			n = tc.row*tc.col - trilSize(tc.row, tc.col, tc.off-1)
		}
		brute := int64(0)
		for i := int64(0); i < tc.row; i++ {
			for j := int64(0); j < tc.col; j++ {
				if (!tc.upper && j-i <= tc.off) || (tc.upper && j-i >= tc.off) {
					brute++
				}
			}
		}
		if n != tc.want || brute != tc.want {
			t.Errorf("%+v: got %d (brute force %d), want %d", tc, n, brute, tc.want)
		}
	}
}

// TestTensorSplitSizes checks tensor_split's slice lengths.
func TestTensorSplitSizes(t *testing.T) {
	rt := NewRuntime(Config{})
	x, err := rt.Factory("empty", []int64{10, 3}, Float32, CPUDevice, false)
	if err != nil {
		t.Fatal(err)
	}
	defer x.Release()
	tests := []struct {
		sections int64
		indices  []int64
		want     []int64
	}{
		{sections: 3, want: []int64{4, 3, 3}},
		{sections: 12, want: []int64{1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0}},
		{indices: []int64{2, 8}, want: []int64{2, 6, 2}},
		{indices: []int64{-3, 4, 20}, want: []int64{7, 0, 6, 0}},
		{indices: []int64{}, want: []int64{10}},
	}
	for _, tc := range tests {
		var ts []*Tensor
		if tc.indices != nil {
			ts, err = rt.TensorSplitIndices(x, tc.indices, 0)
		} else {
			ts, err = rt.TensorSplitSections(x, tc.sections, 0)
		}
		if err != nil {
			t.Fatal(err)
		}
		var got []int64
		for _, s := range ts {
			got = append(got, s.shape[0])
		}
		releaseAll(ts)
		if shapeList(got) != shapeList(tc.want) {
			t.Errorf("%+v: got %v", tc, got)
		}
	}
}
