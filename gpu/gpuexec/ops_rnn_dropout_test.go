package gpuexec

import (
	"fmt"
	"math"
	"testing"

	"github.com/gpumem/playground/gpu/kernels"
	"github.com/gpumem/playground/sim/torch"
)

// rnnDropMask redraws the uniforms of a dropout call at (seed, offset) with
// the Philox kernel and returns each dropped layer's factor: 0 or 1/(1 − p)
// where u < 1 − p (the keep rule of PyTorch's dropout); 1/(1 − p) is
// rounded to float32 unless dt is float64 (double opmath).
func (f *fixture) rnnDropMask(r *rnnRef, seed, offset int64, p float64, dt torch.DType) [][]float64 {
	f.t.Helper()
	per := r.S * r.B * r.D * r.H
	n := int64((r.L - 1) * per)
	k := f.dev.Kernels()
	threads, err := f.ex.launchThreads(k, n)
	if err != nil {
		f.t.Fatal(err)
	}
	u := f.tensor(true, torch.Float32, []int64{n}, make([]float64, n)) // written: readable after the draw
	if err := k.Philox(kernels.PhiloxRaw, kernels.F32, u.Addr, n, kernels.PhiloxArgs{Seed: uint64(seed), Offset: uint64(offset), Threads: threads}); err != nil {
		f.t.Fatal(err)
	}
	uv := f.read(u)
	keep := float32(1 - p)
	scale := float64(1 / keep)
	if dt == torch.Float64 {
		scale = 1 / (1 - p)
	}
	var m [][]float64
	for l := 0; l < r.L-1; l++ {
		row := make([]float64, per)
		for i := range row {
			if float32(uv[l*per+i]) < keep {
				row[i] = scale
			}
		}
		m = append(m, row)
	}
	return m
}

// TestRNNDropoutAgainstReference trains with dropout between layers: the
// outputs match the float64 reference with the mask of the reported
// (seed, offset), and the gradients its central differences (the backward
// redraws the same mask).
// Over float64 the outputs match to 1e-13 (the factors are float64).
func TestRNNDropoutAgainstReference(t *testing.T) {
	for _, tc := range []struct {
		mode   int64
		layers int
		dirs   int
		dt     torch.DType
	}{
		{torch.RNNModeLSTM, 2, 2, torch.Float32},
		{torch.RNNModeGRU, 3, 1, torch.Float32},
		{torch.RNNModeTanh, 2, 1, torch.Float32},
		{torch.RNNModeLSTM, 2, 2, torch.Float64},
		{torch.RNNModeGRU, 3, 1, torch.Float64},
		{torch.RNNModeRelu, 2, 1, torch.Float64},
	} {
		t.Run(fmt.Sprintf("mode%d-L%d-D%d-%s", tc.mode, tc.layers, tc.dirs, tc.dt.Name()), func(t *testing.T) {
			checkRNN(t, newRNNRef(tc.mode, tc.layers, tc.dirs, true), false, 0.4, tc.dt)
		})
	}
}

// TestRNNDropoutMask reads the mask through a probe: layer 0 is
// relu(x·I) = x > 0, layer 1 relu(dropout(y0)·I), so the output over x is
// each element's factor. It must be exactly 0 or 1/(1 − p), keep about
// 1 − p of the elements, differ between two calls, and leave PyTorch's
// CUDA generator where it was. Float64 RNNs scale by 1/(1 − p) in
// float64.
func TestRNNDropoutMask(t *testing.T) {
	for _, dt := range []torch.DType{torch.Float32, torch.Float64} {
		t.Run(dt.Name(), func(t *testing.T) { checkRNNDropoutMask(t, dt) })
	}
}

// checkRNNDropoutMask is TestRNNDropoutMask over dt.
func checkRNNDropoutMask(t *testing.T, dt torch.DType) {
	f := newFixture(t)
	const S, B, H, p = 64, 8, 32, 0.3
	x := make([]float64, S*B*H)
	for i := range x {
		x[i] = 0.5 + float64(i%97)/97
	}
	eye := make([]float64, H*H)
	for i := 0; i < H; i++ {
		eye[i*H+i] = 1
	}
	zero := make([]float64, H*H)
	state := []int64{2, B, H}
	ins := []torch.ExecTensor{f.tensor(true, dt, []int64{S, B, H}, x), f.tensor(true, dt, state, make([]float64, 2*B*H))}
	for l := 0; l < 2; l++ {
		ins = append(ins, f.tensor(true, dt, []int64{H, H}, eye), f.tensor(true, dt, []int64{H, H}, zero))
	}
	f.seed(7)
	seed0, off0 := f.ex.State()
	var masks [][]float64
	for call := 0; call < 2; call++ {
		y, hy := f.tensor(true, dt, []int64{S, B, H}, nil), f.tensor(true, dt, state, nil)
		op := &torch.ExecOp{Kind: torch.ExecRNN, Out: []torch.ExecTensor{y, hy}, In: ins, Scalars: []float64{p},
			Ints: []int64{torch.RNNModeRelu, 0, 2, 0, 0, 1, 0, 0}}
		if err := f.ex.Exec(op); err != nil {
			t.Fatal(err)
		}
		got := f.read(y)
		m := make([]float64, len(got))
		kept := 0
		scale := float64(1 / float32(1-p))
		for i, v := range got {
			m[i] = v / x[i]
			switch {
			case v == 0:
			case dt == torch.Float64 && v == x[i]*(1/(1-p)): // the float64 product
				kept++
			case dt == torch.Float32 && float32(v) == float32(x[i])*float32(scale): // the kernel's f32 product
				kept++
			default:
				t.Fatalf("call %d element %d: %v from %v is neither dropped nor scaled by %v", call, i, v, x[i], scale)
			}
		}
		if frac := float64(kept) / float64(len(got)); math.Abs(frac-(1-p)) > 0.02 {
			t.Errorf("call %d kept %.4f of the elements, want about %.2f", call, frac, 1-p)
		}
		masks = append(masks, m)
	}
	same := 0
	for i := range masks[0] {
		if (masks[0][i] == 0) == (masks[1][i] == 0) {
			same++
		}
	}
	if same == len(masks[0]) {
		t.Error("two calls drew the same mask")
	}
	if s, o := f.ex.State(); s != seed0 || o != off0 {
		t.Errorf("CUDA generator moved from (%d, %d) to (%d, %d)", seed0, off0, s, o)
	}
}
