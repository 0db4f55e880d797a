package gpuexec

import (
	"math"
	"testing"

	"github.com/gpumem/playground/sim/torch"
)

// TestIndexOps checks gather (embedding, negative indices, a CPU index of
// a CUDA tensor) and its backward's scatter-add (repeated indices
// accumulate, the skipped index contributes nothing) against values
// worked out by hand, on every dtype the kernels move.
func TestIndexOps(t *testing.T) {
	for _, dt := range []torch.DType{torch.Float32, torch.Float16, torch.BFloat16} {
		for _, hostIdx := range []bool{false, true} {
			f := newFixture(t)
			w := f.tensor(true, dt, []int64{4, 2}, []float64{0, 1, 10, 11, 20, 21, 30, 31})
			idx := f.tensor(!hostIdx, torch.Int64, []int64{2, 2}, []float64{3, -4, 2, 3})
			out := f.tensor(true, dt, []int64{2, 2, 2}, nil)
			if err := f.exec(torch.ExecIndex, out, []torch.ExecTensor{w, idx}, nil, []int64{0}); err != nil {
				t.Fatalf("%s: index: %v", dt, err)
			}
			if got, want := f.read(out), []float64{30, 31, 0, 1, 20, 21, 30, 31}; !near(got, want, 0) {
				t.Errorf("%s host idx %v: embedding %v, want %v", dt, hostIdx, got, want)
			}
			g := f.tensor(true, dt, []int64{2, 2, 2}, []float64{1, 2, 3, 4, 5, 6, 7, 8})
			gw := f.tensor(true, dt, []int64{4, 2}, nil)
			for _, c := range []struct {
				skip int64
				want []float64
			}{
				{torch.NoSkipIndex, []float64{3, 4, 0, 0, 5, 6, 8, 10}},
				{3, []float64{3, 4, 0, 0, 5, 6, 0, 0}},
			} {
				if err := f.exec(torch.ExecIndexBack, gw, []torch.ExecTensor{g, idx}, nil, []int64{0, c.skip}); err != nil {
					t.Fatalf("%s: index backward: %v", dt, err)
				}
				if got := f.read(gw); !near(got, c.want, 0) {
					t.Errorf("%s skip %d: grad %v, want %v", dt, c.skip, got, c.want)
				}
			}
		}
	}
}

// TestIndexColumns is t[:, idx] (dim 1) on a transposed view.
func TestIndexColumns(t *testing.T) {
	f := newFixture(t)
	src := f.tensor(true, torch.Float32, []int64{3, 2}, []float64{0, 1, 2, 3, 4, 5})
	src.Shape, src.Strides = []int64{2, 3}, []int64{1, 2} // [[0 2 4] [1 3 5]]
	idx := f.tensor(true, torch.Int64, []int64{2}, []float64{2, 0})
	out := f.tensor(true, torch.Float32, []int64{2, 2}, nil)
	if err := f.exec(torch.ExecIndex, out, []torch.ExecTensor{src, idx}, nil, []int64{1}); err != nil {
		t.Fatal(err)
	}
	if got, want := f.read(out), []float64{4, 0, 5, 1}; !near(got, want, 0) {
		t.Errorf("t[:, idx] = %v, want %v", got, want)
	}
}

// TestCatStack checks the window copies of cat and stack.
func TestCatStack(t *testing.T) {
	f := newFixture(t)
	a := f.tensor(true, torch.Float32, []int64{2, 1}, []float64{1, 2})
	b := f.tensor(true, torch.Float32, []int64{2, 2}, []float64{3, 4, 5, 6})
	out := f.tensor(true, torch.Float32, []int64{2, 3}, nil)
	if err := f.exec(torch.ExecCat, out, []torch.ExecTensor{a, b}, nil, []int64{1, 0}); err != nil {
		t.Fatal(err)
	}
	if got, want := f.read(out), []float64{1, 3, 4, 2, 5, 6}; !near(got, want, 0) {
		t.Errorf("cat = %v, want %v", got, want)
	}
	st := f.tensor(true, torch.Float32, []int64{2, 2, 2}, nil)
	if err := f.exec(torch.ExecCat, st, []torch.ExecTensor{b, b}, nil, []int64{2, 1}); err != nil {
		t.Fatal(err)
	}
	if got, want := f.read(st), []float64{3, 3, 4, 4, 5, 5, 6, 6}; !near(got, want, 0) {
		t.Errorf("stack dim 2 = %v, want %v", got, want)
	}
}

func wave(n int, scale, shift float64) []float64 {
	v := make([]float64, n)
	for i := range v {
		v[i] = math.Sin(float64(i)*scale + shift)
	}
	return v
}

// TestLayerNorm compares native_layer_norm and its backward with float64
// formulas.
func TestLayerNorm(t *testing.T) {
	const rows, d, eps = 3, 5, 1e-5
	f := newFixture(t)
	xv, wv, bv, gv := wave(rows*d, 0.7, 0), wave(d, 0.3, 1), wave(d, 0.5, 2), wave(rows*d, 0.9, 0.4)
	x := f.tensor(true, torch.Float32, []int64{rows, d}, xv)
	w := f.tensor(true, torch.Float32, []int64{d}, wv)
	b := f.tensor(true, torch.Float32, []int64{d}, bv)
	y := f.tensor(true, torch.Float32, []int64{rows, d}, nil)
	mean := f.tensor(true, torch.Float32, []int64{rows, 1}, nil)
	rstd := f.tensor(true, torch.Float32, []int64{rows, 1}, nil)
	err := f.ex.Exec(&torch.ExecOp{Kind: torch.ExecLayerNorm, Out: []torch.ExecTensor{y, mean, rstd},
		In: []torch.ExecTensor{x, w, b}, Scalars: []float64{eps}, Ints: []int64{1, 7, 7}})
	if err != nil {
		t.Fatal(err)
	}
	wantY, wantGX := make([]float64, rows*d), make([]float64, rows*d)
	wantGW, wantGB := make([]float64, d), make([]float64, d)
	for r := 0; r < rows; r++ {
		row, g := xv[r*d:(r+1)*d], gv[r*d:(r+1)*d]
		m, v := 0.0, 0.0
		for _, x := range row {
			m += x / d
		}
		for _, x := range row {
			v += (x - m) * (x - m) / d
		}
		rs := 1 / math.Sqrt(v+eps)
		var a, c float64
		for j := range row {
			xh := (row[j] - m) * rs
			wantY[r*d+j] = xh*wv[j] + bv[j]
			wantGW[j] += g[j] * xh
			wantGB[j] += g[j]
			a += g[j] * wv[j] / d
			c += g[j] * wv[j] * xh / d
		}
		for j := range row {
			xh := (row[j] - m) * rs
			wantGX[r*d+j] = rs * (g[j]*wv[j] - a - xh*c)
		}
	}
	if got := f.read(y); !near(got, wantY, 1e-5) {
		t.Errorf("layer_norm = %v, want %v", got, wantY)
	}
	gy := f.tensor(true, torch.Float32, []int64{rows, d}, gv)
	gx := f.tensor(true, torch.Float32, []int64{rows, d}, nil)
	gw := f.tensor(true, torch.Float32, []int64{d}, nil)
	gb := f.tensor(true, torch.Float32, []int64{d}, nil)
	err = f.ex.Exec(&torch.ExecOp{Kind: torch.ExecLayerNormBack, Out: []torch.ExecTensor{gx, gw, gb},
		In: []torch.ExecTensor{gy, x, mean, rstd, w}, Ints: []int64{1, 7, 31}})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name      string
		got, want []float64
	}{{"grad_x", f.read(gx), wantGX}, {"grad_w", f.read(gw), wantGW}, {"grad_b", f.read(gb), wantGB}} {
		if !near(c.got, c.want, 1e-5) {
			t.Errorf("%s = %v, want %v", c.name, c.got, c.want)
		}
	}
}

// TestSDPA compares causal attention with a float64 computation.
func TestSDPA(t *testing.T) {
	const l, s, e = 3, 4, 2
	f := newFixture(t)
	qv, kv, vv := wave(l*e, 0.4, 0), wave(s*e, 0.6, 1), wave(s*e, 0.8, 2)
	q := f.tensor(true, torch.Float32, []int64{1, 1, l, e}, qv)
	k := f.tensor(true, torch.Float32, []int64{1, 1, s, e}, kv)
	v := f.tensor(true, torch.Float32, []int64{1, 1, s, e}, vv)
	out := f.tensor(true, torch.Float32, []int64{1, 1, l, e}, nil)
	scale := 1 / math.Sqrt(e)
	if err := f.exec(torch.ExecSDPA, out, []torch.ExecTensor{q, k, v}, []float64{scale}, []int64{1, 1, 7}); err != nil {
		t.Fatal(err)
	}
	want := make([]float64, l*e)
	for i := 0; i < l; i++ {
		p := make([]float64, s)
		sum := 0.0
		for j := 0; j <= i && j < s; j++ {
			dot := 0.0
			for c := 0; c < e; c++ {
				dot += qv[i*e+c] * kv[j*e+c]
			}
			p[j] = math.Exp(dot * scale)
			sum += p[j]
		}
		for j := range p {
			for c := 0; c < e; c++ {
				want[i*e+c] += p[j] / sum * vv[j*e+c]
			}
		}
	}
	if got := f.read(out); !near(got, want, 1e-5) {
		t.Errorf("sdpa = %v, want %v", got, want)
	}
}
