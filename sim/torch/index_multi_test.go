package torch

import (
	"strings"
	"testing"
)

// TestIndexMulti checks x[advs] with several index tensors: the result's
// shape (adjacent indexed dims in place, separated ones first) and the
// peak of make_info's temporaries plus the output, as measured on an H200
// (q038's probe: x is [64, 128] or [16, 32, 48] float32, indices of 5).
func TestIndexMulti(t *testing.T) {
	type idx struct {
		dim   int
		shape []int64
		dt    DType
		dev   Device
	}
	i5 := func(d int) idx { return idx{d, []int64{5}, Int64, CUDA0} }
	tests := []struct {
		name  string
		x     []int64
		idxs  []idx
		shape []int64
		peak  int64 // over what was allocated before
		err   string
	}{
		{"pairs", []int64{64, 128}, []idx{i5(0), i5(1)}, []int64{5}, 512, ""},
		{"grid", []int64{64, 128}, []idx{{0, []int64{5, 1}, Int64, CUDA0}, i5(1)}, []int64{5, 5}, 3 * 512, ""},
		{"host pairs", []int64{64, 128}, []idx{{0, []int64{5}, Int64, CPUDevice}, {1, []int64{5}, Int64, CPUDevice}}, []int64{5}, 3 * 512, ""},
		{"int32", []int64{64, 128}, []idx{{0, []int64{5}, Int32, CUDA0}, i5(1)}, []int64{5}, 2 * 512, ""},
		{"adjacent", []int64{16, 32, 48}, []idx{i5(1), i5(2)}, []int64{16, 5}, 512, ""},
		{"separated", []int64{16, 32, 48}, []idx{i5(0), i5(2)}, []int64{5, 32}, 1024, ""},
		{"broadcast error", []int64{64, 128}, []idx{{0, []int64{3}, Int64, CUDA0}, {1, []int64{2}, Int64, CUDA0}}, nil, 0,
			"shape mismatch: indexing tensors could not be broadcast together with shapes [3], [2]"},
		{"dtype error", []int64{64, 128}, []idx{{0, []int64{5}, Float32, CUDA0}, i5(1)}, nil, 0,
			"tensors used as indices must be long, int, byte or bool tensors"},
		{"mask shape error", []int64{64, 128}, []idx{{0, []int64{10}, Bool, CUDA0}, i5(1)}, nil, 0,
			"The shape of the mask [10] at index 0 does not match the shape of the indexed tensor [64, 128] at index 0"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			rt, a := newTestRuntime(t)
			x := must[*Tensor](t)(rt.Factory("zeros", tc.x, Float32, CUDA0, false))
			var advs []AdvIndex
			for _, ix := range tc.idxs {
				if len(ix.shape) == 2 && ix.shape[1] == 1 {
					// i[:, None] of a [5] index: strides (1, 1)
					base := must[*Tensor](t)(rt.Factory("zeros", ix.shape[:1], ix.dt, ix.dev, false))
					advs = append(advs, AdvIndex{Dim: ix.dim, Idx: must[*Tensor](t)(rt.Unsqueeze(base, 1))})
					continue
				}
				advs = append(advs, AdvIndex{Dim: ix.dim, Idx: must[*Tensor](t)(rt.Factory("zeros", ix.shape, ix.dt, ix.dev, false))})
			}
			base := a.Stats().Allocated
			a.ResetPeakStats()
			r, err := rt.IndexMulti(x, advs)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("err = %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !sameShape(r.Shape(), tc.shape) {
				t.Errorf("shape %v, want %v", r.Shape(), tc.shape)
			}
			if got := a.Stats().PeakAllocated - base; got != tc.peak {
				t.Errorf("peak %d, want %d", got, tc.peak)
			}
		})
	}
}
