package torch

import "testing"

// Peaks are relative to what is allocated before the operation. Those of
// q026_indexing's operations are its oracle golden's (an H200 with PyTorch
// 2.11); the host-mask and int32-index rows follow the model of
// index_scratch.go and are not measured.

// TestIndexPutScratch checks index_put_'s temporaries for t[idx] = number:
// the number becomes a device scalar, a host index is copied, and a mask on
// the device dispatches to masked_fill_ (nothing).
func TestIndexPutScratch(t *testing.T) {
	tests := []struct {
		name  string
		dt    DType
		dev   Device
		shape []int64
		value bool // a CUDA value tensor instead of a number
		peak  int64
	}{
		{"cuda index, number", Int64, CUDA0, []int64{4}, false, 512},
		{"cuda index, cuda value", Int64, CUDA0, []int64{4}, true, 0},
		{"host index, number", Int64, CPUDevice, []int64{2}, false, 1024},
		{"cuda mask, number", Bool, CUDA0, []int64{1024}, false, 0},
		{"host mask, number", Bool, CPUDevice, []int64{1024}, false, 512 + 8192},
		{"cuda int32 index, number", Int32, CUDA0, []int64{4}, false, 1024},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			rt, a := newTestRuntime(t)
			x := must[*Tensor](t)(rt.Factory("zeros", []int64{1024, 256}, Float32, CUDA0, false))
			idx := must[*Tensor](t)(rt.Factory("zeros", tc.shape, tc.dt, tc.dev, false))
			var v *Tensor
			if tc.value {
				v = must[*Tensor](t)(rt.Factory("ones", []int64{tc.shape[0], 256}, Float32, CUDA0, false))
			}
			base := a.Stats().Allocated
			a.ResetPeakStats()
			r := must[*Tensor](t)(rt.IndexPut(x, x, idx, v))
			r.Release()
			check(t, a, "index_put_", base, -1, base+tc.peak)
		})
	}
}

// TestIndexBackwardScratch checks aten::index with a mask (nonzero's
// indices live while the output is allocated) and IndexBackward0's sorted
// accumulate: linear index, sorted and original positions, arange and
// cub's 1-byte temp storage, plus the gradient made contiguous when sum()
// expanded it.
func TestIndexBackwardScratch(t *testing.T) {
	tests := []struct {
		name             string
		mask             bool
		n                int64 // index length
		fwdPeak, bwExtra int64 // over base + output; over base + output + w.grad + sum + ones
		expandedGrad     bool
	}{
		{"rows, contiguous grad", false, 4, 0, 2560, false},
		{"mask, expanded grad", true, 512, 4096, 4*4096 + 512 + 512*128*4, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			rt, a := newTestRuntime(t)
			w := must[*Tensor](t)(rt.Factory("randn", []int64{512, 128}, Float32, CUDA0, true))
			dt := Int64
			if tc.mask {
				dt = Bool
			}
			idx := must[*Tensor](t)(rt.Factory("zeros", []int64{tc.n}, dt, CUDA0, false))
			base := a.Stats().Allocated
			a.ResetPeakStats()
			out := must[*Tensor](t)(rt.IndexTensor(w, 0, idx))
			outBytes := tc.n * 128 * 4
			check(t, a, "forward", base+outBytes, -1, base+outBytes+tc.fwdPeak)
			s := must[*Tensor](t)(rt.Sum(out, nil, false, nil))
			one := must[*Tensor](t)(rt.OnesLike(s))
			g := one
			if !tc.expandedGrad {
				g = must[*Tensor](t)(rt.Factory("ones", out.shape, Float32, CUDA0, false))
			}
			a.ResetPeakStats()
			root, grad := s, one
			if !tc.expandedGrad {
				root, grad = out, g
			}
			if err := rt.Backward([]*Tensor{root}, []*Tensor{grad}, BackwardOptions{}); err != nil {
				t.Fatal(err)
			}
			held := base + outBytes + 512 + 512 + 512*128*4 // out, sum, ones, w.grad
			if !tc.expandedGrad {
				held += outBytes
			}
			if got := a.Stats().PeakAllocated; got != held+tc.bwExtra {
				t.Errorf("backward peak %d, want %d", got, held+tc.bwExtra)
			}
		})
	}
}

// TestCubSortPairsTemp checks the single-tile bound of cub's sort temp and
// the onesweep layout past it (12-bit keys: two passes, alternate buffers;
// 8-bit keys: one pass, none).
func TestCubSortPairsTemp(t *testing.T) {
	tests := []struct{ n, bits, want int64 }{
		{4, 12, 1},
		{cubSingleTileSortItems, 12, 1},
		{cubSingleTileSortItems + 1, 12, 2*2048 + 1024 + 2*cubAlign((cubSingleTileSortItems+1)*8) + 256 + 255},
		{cubSingleTileSortItems + 1, 8, 2048 + 1024 + 256 + 255},
	}
	for _, tc := range tests {
		if got := cubSortPairsTemp(tc.n, 8, 8, tc.bits); got != tc.want {
			t.Errorf("cubSortPairsTemp(%d, %d bits) = %d, want %d", tc.n, tc.bits, got, tc.want)
		}
	}
}

// TestMaxPoolBackwardGradCopy checks that max_pool2d's backward copies a
// strided gradient (sum()'s expanded one) but not a contiguous one.
func TestMaxPoolBackwardGradCopy(t *testing.T) {
	for _, expanded := range []bool{true, false} {
		rt, a := newTestRuntime(t)
		x := must[*Tensor](t)(rt.Factory("randn", []int64{8, 16, 32, 32}, Float32, CUDA0, true))
		y, ind := must2(t)(rt.MaxPool2dWithIndices(x, [2]int64{2, 2}, [2]int64{2, 2}, [2]int64{}, [2]int64{1, 1}, false))
		ind.Release()
		var g *Tensor
		if expanded {
			one := must[*Tensor](t)(rt.Factory("ones", nil, Float32, CUDA0, false))
			g = must[*Tensor](t)(rt.Expand(one, y.shape))
			one.Release()
		} else {
			g = must[*Tensor](t)(rt.Factory("ones", y.shape, Float32, CUDA0, false))
		}
		base := a.Stats().Allocated
		a.ResetPeakStats()
		if err := rt.Backward([]*Tensor{y}, []*Tensor{g}, BackwardOptions{}); err != nil {
			t.Fatal(err)
		}
		want := base + x.Numel()*4
		if expanded {
			want += y.Numel() * 4
		}
		if got := a.Stats().PeakAllocated; got != want {
			t.Errorf("expanded=%v: backward peak %d, want %d", expanded, got, want)
		}
	}
}

// must2 fails the test on an error of a two-result call.
func must2(t *testing.T) func(a, b *Tensor, err error) (*Tensor, *Tensor) {
	return func(a, b *Tensor, err error) (*Tensor, *Tensor) {
		t.Helper()
		if err != nil {
			t.Fatalf("unexpected error: %v", err)
		}
		return a, b
	}
}
