package gpuexec

import (
	"testing"

	"github.com/gpumem/playground/gpu/kernels"
	"github.com/gpumem/playground/sim/torch"
)

// TestIndexPut checks index_put_ against values worked out by hand: a
// tensor value, a number, accumulate (repeated indices add up, half types
// through an f32 buffer), a column index of a view, a CPU index.
func TestIndexPut(t *testing.T) {
	for _, dt := range []torch.DType{torch.Float32, torch.Float16, torch.BFloat16} {
		for _, hostIdx := range []bool{false, true} {
			f := newFixture(t)
			base := []float64{0, 1, 2, 3, 4, 5, 6, 7}
			dst := f.tensor(true, dt, []int64{4, 2}, base)
			idx := f.tensor(!hostIdx, torch.Int64, []int64{2}, []float64{3, -4})
			v := f.tensor(true, dt, []int64{2, 2}, []float64{10, 11, 12, 13})
			if err := f.exec(torch.ExecIndexPut, dst, []torch.ExecTensor{dst, idx, v}, nil, []int64{0, 0}); err != nil {
				t.Fatalf("%s: index_put: %v", dt, err)
			}
			if got, want := f.read(dst), []float64{12, 13, 2, 3, 4, 5, 10, 11}; !near(got, want, 0) {
				t.Errorf("%s host idx %v: put %v, want %v", dt, hostIdx, got, want)
			}
			if err := f.exec(torch.ExecIndexPut, dst, []torch.ExecTensor{dst, idx}, []float64{-1}, []int64{0, 0}); err != nil {
				t.Fatalf("%s: index_put number: %v", dt, err)
			}
			if got, want := f.read(dst), []float64{-1, -1, 2, 3, 4, 5, -1, -1}; !near(got, want, 0) {
				t.Errorf("%s: put number %v, want %v", dt, got, want)
			}
			rep := f.tensor(!hostIdx, torch.Int64, []int64{3}, []float64{1, 1, 2})
			row := f.tensor(true, dt, []int64{2}, []float64{0.5, 2})
			if err := f.exec(torch.ExecIndexPut, dst, []torch.ExecTensor{dst, rep, row}, nil, []int64{0, 1}); err != nil {
				t.Fatalf("%s: index_put accumulate: %v", dt, err)
			}
			if got, want := f.read(dst), []float64{-1, -1, 3, 7, 4.5, 7, -1, -1}; !near(got, want, 0) {
				t.Errorf("%s: accumulate %v, want %v", dt, got, want)
			}
			cols := f.tensor(!hostIdx, torch.Int64, []int64{1}, []float64{1})
			if err := f.exec(torch.ExecIndexPut, dst, []torch.ExecTensor{dst, cols}, []float64{9}, []int64{1, 0}); err != nil {
				t.Fatalf("%s: index_put dim 1: %v", dt, err)
			}
			if got, want := f.read(dst), []float64{-1, 9, 3, 9, 4.5, 9, -1, 9}; !near(got, want, 0) {
				t.Errorf("%s: t[:, idx] = 9 gives %v, want %v", dt, got, want)
			}
		}
	}
}

// TestIndexMask checks bool masks: t[mask] (gather of the true positions
// in row-major order, over leading and inner dims), its backward and
// t[mask] = v with values and with a number; an output whose indexed dim
// is not the mask's count (the simulator's upper bound) is not computed.
func TestIndexMask(t *testing.T) {
	for _, hostMask := range []bool{false, true} {
		f := newFixture(t)
		x := f.tensor(true, torch.Float32, []int64{2, 3}, []float64{0, 1, 2, 3, 4, 5})
		m := boolTensor(f, !hostMask, []int64{2, 3}, []float64{1, 0, 1, 0, 0, 1})
		out := f.tensor(true, torch.Float32, []int64{3}, nil)
		if err := f.exec(torch.ExecIndex, out, []torch.ExecTensor{x, m}, nil, []int64{0}); err != nil {
			t.Fatal(err)
		}
		if got, want := f.read(out), []float64{0, 2, 5}; !near(got, want, 0) {
			t.Errorf("host mask %v: x[m] = %v, want %v", hostMask, got, want)
		}
		big := f.tensor(true, torch.Float32, []int64{6}, nil)
		if err := f.exec(torch.ExecIndex, big, []torch.ExecTensor{x, m}, nil, []int64{0}); !IsNotComputed(err) {
			t.Errorf("x[m] into the upper bound: %v, want not computed", err)
		}
		cm := boolTensor(f, !hostMask, []int64{3}, []float64{0, 1, 1})
		cols := f.tensor(true, torch.Float32, []int64{2, 2}, nil)
		if err := f.exec(torch.ExecIndex, cols, []torch.ExecTensor{x, cm}, nil, []int64{1}); err != nil {
			t.Fatal(err)
		}
		if got, want := f.read(cols), []float64{1, 2, 4, 5}; !near(got, want, 0) {
			t.Errorf("x[:, m] = %v, want %v", got, want)
		}
		g := f.tensor(true, torch.Float32, []int64{3}, []float64{7, 8, 9})
		gx := f.tensor(true, torch.Float32, []int64{2, 3}, nil)
		if err := f.exec(torch.ExecIndexBack, gx, []torch.ExecTensor{g, m}, nil, []int64{0, torch.NoSkipIndex}); err != nil {
			t.Fatal(err)
		}
		if got, want := f.read(gx), []float64{7, 0, 8, 0, 0, 9}; !near(got, want, 0) {
			t.Errorf("x[m] backward = %v, want %v", got, want)
		}
		v := f.tensor(true, torch.Float32, []int64{3}, []float64{-1, -2, -3})
		if err := f.exec(torch.ExecIndexPut, x, []torch.ExecTensor{x, m, v}, nil, []int64{0, 0}); err != nil {
			t.Fatal(err)
		}
		if got, want := f.read(x), []float64{-1, 1, -2, 3, 4, -3}; !near(got, want, 0) {
			t.Errorf("x[m] = v gives %v, want %v", got, want)
		}
		if err := f.exec(torch.ExecIndexPut, x, []torch.ExecTensor{x, cm}, []float64{0.5}, []int64{1, 0}); err != nil {
			t.Fatal(err)
		}
		if got, want := f.read(x), []float64{-1, 0.5, 0.5, 3, 0.5, 0.5}; !near(got, want, 0) {
			t.Errorf("x[:, m] = 0.5 gives %v, want %v", got, want)
		}
	}
}

// boolTensor is a torch.bool operand holding vals (0 or 1).
func boolTensor(f *fixture, cuda bool, shape []int64, vals []float64) torch.ExecTensor {
	f.t.Helper()
	et := f.tensor(cuda, torch.Bool, shape, nil)
	raw := make([]byte, len(vals))
	for i, v := range vals {
		encode(kernels.B8, raw[i:], v)
	}
	if cuda {
		if err := f.dev.CopyToDevice(et.Addr, raw); err != nil {
			f.t.Fatal(err)
		}
	} else {
		a, err := f.ex.hostAddr(et.Storage, et.Nbytes)
		if err != nil {
			f.t.Fatal(err)
		}
		b, err := f.ex.host.Bytes(a, int64(len(raw)))
		if err != nil {
			f.t.Fatal(err)
		}
		copy(b, raw)
	}
	f.ex.computed[et.Storage] = true
	return et
}
