package gpuexec

import (
	"fmt"
	"math"
	"testing"

	"github.com/gpumem/playground/sim/torch"
)

// rnnRef is a float64 RNN written from PyTorch's documented formulas, step
// by step and element by element (no shared code with ops_rnn.go).
type rnnRef struct {
	mode                 int64
	L, D, S, B, I, H     int
	bias                 bool
	x                    []float64   // [S, B, I]
	h0, c0               []float64   // [L·D, B, H]
	w                    [][]float64 // per layer·direction: w_ih, w_hh[, b_ih, b_hh]
	gOut, gHy, gCy       []float64   // the loss's weights: Σ y·gOut + Σ hy·gHy + Σ cy·gCy
	gates                int
	nWeights, perWeights int
	drop                 [][]float64 // per layer but the last: the factor on its output (0 or 1/(1 − p)), nil without dropout
}

func sigm(v float64) float64 { return 1 / (1 + math.Exp(-v)) }

// forward returns output [S, B, D·H], hy and cy [L·D, B, H].
func (r *rnnRef) forward() (y, hy, cy []float64) {
	in, inW := r.x, r.I
	hy = make([]float64, r.L*r.D*r.B*r.H)
	cy = make([]float64, len(hy))
	for l := 0; l < r.L; l++ {
		out := make([]float64, r.S*r.B*r.D*r.H)
		for d := 0; d < r.D; d++ {
			ld := l*r.D + d
			w := r.w[ld*r.perWeights : (ld+1)*r.perWeights]
			h := append([]float64(nil), r.h0[ld*r.B*r.H:(ld+1)*r.B*r.H]...)
			c := append([]float64(nil), r.c0[ld*r.B*r.H:(ld+1)*r.B*r.H]...)
			for j := 0; j < r.S; j++ {
				t := j
				if d == 1 {
					t = r.S - 1 - j
				}
				nh, nc := make([]float64, len(h)), make([]float64, len(c))
				for b := 0; b < r.B; b++ {
					pre := func(row int) (xi, hh float64) { // W_ih·x + b_ih, W_hh·h + b_hh of gate row
						for k := 0; k < inW; k++ {
							xi += w[0][row*inW+k] * in[(t*r.B+b)*inW+k]
						}
						for k := 0; k < r.H; k++ {
							hh += w[1][row*r.H+k] * h[b*r.H+k]
						}
						if r.bias {
							xi += w[2][row]
							hh += w[3][row]
						}
						return
					}
					for u := 0; u < r.H; u++ {
						var hv, cv float64
						switch r.mode {
						case torch.RNNModeLSTM:
							a := [4]float64{}
							for q := range a {
								xi, hh := pre(q*r.H + u)
								a[q] = xi + hh
							}
							cv = sigm(a[1])*c[b*r.H+u] + sigm(a[0])*math.Tanh(a[2])
							hv = sigm(a[3]) * math.Tanh(cv)
						case torch.RNNModeGRU:
							xr, hr := pre(u)
							xz, hz := pre(r.H + u)
							xn, hn := pre(2*r.H + u)
							rg, z := sigm(xr+hr), sigm(xz+hz)
							n := math.Tanh(xn + rg*hn)
							hv = (1-z)*n + z*h[b*r.H+u]
						default:
							xi, hh := pre(u)
							hv = math.Tanh(xi + hh)
							if r.mode == torch.RNNModeRelu {
								hv = math.Max(0, xi+hh)
							}
						}
						nh[b*r.H+u], nc[b*r.H+u] = hv, cv
						out[(t*r.B+b)*r.D*r.H+d*r.H+u] = hv
					}
				}
				h, c = nh, nc
			}
			copy(hy[ld*r.B*r.H:], h)
			copy(cy[ld*r.B*r.H:], c)
		}
		y = out
		if r.drop != nil && l < r.L-1 {
			dropped := make([]float64, len(out))
			for i, v := range out {
				dropped[i] = v * r.drop[l][i]
			}
			out = dropped
		}
		in, inW = out, r.D*r.H
	}
	return y, hy, cy
}

func (r *rnnRef) loss() float64 {
	y, hy, cy := r.forward()
	s := 0.0
	for i, v := range y {
		s += v * r.gOut[i]
	}
	for i, v := range hy {
		s += v * r.gHy[i]
		if r.mode == torch.RNNModeLSTM {
			s += cy[i] * r.gCy[i]
		}
	}
	return s
}

// numGrad is d loss / d p[i] for every i, by central differences.
func (r *rnnRef) numGrad(p []float64) []float64 {
	g := make([]float64, len(p))
	const eps = 1e-6
	for i := range p {
		v := p[i]
		p[i] = v + eps
		a := r.loss()
		p[i] = v - eps
		b := r.loss()
		p[i] = v
		g[i] = (a - b) / (2 * eps)
	}
	return g
}

func newRNNRef(mode int64, layers, dirs int, bias bool) *rnnRef {
	r := &rnnRef{mode: mode, L: layers, D: dirs, S: 3, B: 2, I: 3, H: 2, bias: bias}
	r.gates = map[int64]int{torch.RNNModeLSTM: 4, torch.RNNModeGRU: 3}[mode]
	if r.gates == 0 {
		r.gates = 1
	}
	r.perWeights = 2
	if bias {
		r.perWeights = 4
	}
	r.x = wave(r.S*r.B*r.I, 0.9, 0.1)
	r.h0 = wave(r.L*r.D*r.B*r.H, 0.7, 0.5)
	r.c0 = wave(len(r.h0), 0.4, 1.5)
	for l := 0; l < r.L; l++ {
		in := r.I
		if l > 0 {
			in = r.D * r.H
		}
		for d := 0; d < r.D; d++ {
			gh := r.gates * r.H
			seed := float64(len(r.w))
			r.w = append(r.w, scaled(wave(gh*in, 0.37, seed), 0.8), scaled(wave(gh*r.H, 0.53, seed+1), 0.8))
			if bias {
				r.w = append(r.w, scaled(wave(gh, 0.61, seed+2), 0.5), scaled(wave(gh, 0.29, seed+3), 0.5))
			}
		}
	}
	r.gOut = wave(r.S*r.B*r.D*r.H, 0.33, 0.2)
	r.gHy = wave(len(r.h0), 0.45, 0.9)
	r.gCy = wave(len(r.h0), 0.25, 2.1)
	return r
}

func scaled(v []float64, s float64) []float64 {
	for i := range v {
		v[i] *= s
	}
	return v
}

// batchMajor permutes a [S, B, W] buffer to [B, S, W].
func batchMajor(v []float64, s, b int) []float64 {
	w := len(v) / (s * b)
	out := make([]float64, len(v))
	for t := 0; t < s; t++ {
		for i := 0; i < b; i++ {
			copy(out[(i*s+t)*w:(i*s+t+1)*w], v[(t*b+i)*w:(t*b+i+1)*w])
		}
	}
	return out
}

// TestRNNAgainstReference runs ExecRNN and ExecRNNBack on the CPU reference
// for every mode, layers, both directions, with and without biases and
// batch_first, and compares the outputs with the float64 reference and the
// gradients with its central differences.
func TestRNNAgainstReference(t *testing.T) {
	cases := []struct {
		mode        int64
		layers      int
		bidir, bias bool
		batchFirst  bool
	}{
		{torch.RNNModeLSTM, 1, false, true, false},
		{torch.RNNModeLSTM, 2, true, true, false},
		{torch.RNNModeLSTM, 1, false, false, true},
		{torch.RNNModeGRU, 1, false, true, false},
		{torch.RNNModeGRU, 2, true, true, true},
		{torch.RNNModeGRU, 1, true, false, false},
		{torch.RNNModeTanh, 2, true, true, false},
		{torch.RNNModeRelu, 1, false, true, true},
	}
	for _, tc := range cases {
		dirs := 1
		if tc.bidir {
			dirs = 2
		}
		name := fmt.Sprintf("mode%d-L%d-D%d-bias%v-bf%v", tc.mode, tc.layers, dirs, tc.bias, tc.batchFirst)
		t.Run(name, func(t *testing.T) {
			r := newRNNRef(tc.mode, tc.layers, dirs, tc.bias)
			checkRNN(t, r, tc.batchFirst, 0, torch.Float32)
		})
	}
}

// checkRNN compares ExecRNN/ExecRNNBack with r; p > 0 trains with dropout
// between layers: the mask is redrawn from the (seed, offset) the forward
// reports and the reference applies it.
func checkRNN(t *testing.T, r *rnnRef, batchFirst bool, p float64, dt torch.DType) {
	f := newFixture(t)
	lstm := r.mode == torch.RNNModeLSTM
	S, B, DH := int64(r.S), int64(r.B), int64(r.D*r.H)
	state := []int64{int64(r.L * r.D), B, int64(r.H)}
	xv, xShape, yShape := r.x, []int64{S, B, int64(r.I)}, []int64{S, B, DH}
	gv := r.gOut
	if batchFirst {
		xv, xShape, yShape = batchMajor(r.x, r.S, r.B), []int64{B, S, int64(r.I)}, []int64{B, S, DH}
		gv = batchMajor(r.gOut, r.S, r.B)
	}
	x := f.tensor(true, dt, xShape, xv)
	ins := []torch.ExecTensor{x, f.tensor(true, dt, state, r.h0)}
	if lstm {
		ins = append(ins, f.tensor(true, dt, state, r.c0))
	}
	var offs []int64
	total := int64(0)
	for _, w := range r.w {
		shape := []int64{int64(len(w))}
		if len(offs)%r.perWeights < 2 {
			rows := int64(r.gates * r.H)
			shape = []int64{rows, int64(len(w)) / rows}
		}
		ins = append(ins, f.tensor(true, dt, shape, w))
		offs = append(offs, total)
		total += int64(len(w))
	}
	ints := []int64{r.mode, b2i(r.bias), int64(r.L), int64(r.D - 1), b2i(batchFirst)}
	var scalars []float64
	if p > 0 {
		ints, scalars = append(ints, 1, 0, 0), []float64{p}
	}
	y := f.tensor(true, dt, yShape, nil)
	hy, cy := f.tensor(true, dt, state, nil), f.tensor(true, dt, state, nil)
	outs := []torch.ExecTensor{y, hy}
	if lstm {
		outs = append(outs, cy)
	}
	fwd := &torch.ExecOp{Kind: torch.ExecRNN, Out: outs, In: ins, Scalars: scalars, Ints: ints}
	if err := f.ex.Exec(fwd); err != nil {
		t.Fatal(err)
	}
	if p > 0 {
		r.drop = f.rnnDropMask(r, fwd.Ints[6], fwd.Ints[7], p, dt)
	}
	wy, why, wcy := r.forward()
	if batchFirst {
		wy = batchMajor(wy, r.S, r.B)
	}
	tol, gtol := 2e-5, 1e-4
	if dt == torch.Float64 { // float64 throughout: the central differences' own error bounds gtol
		tol, gtol = 1e-13, 1e-8
	}
	if got := f.read(y); !near(got, wy, tol) {
		t.Errorf("output %v, want %v", got, wy)
	}
	if got := f.read(hy); !near(got, why, tol) {
		t.Errorf("hy %v, want %v", got, why)
	}
	if lstm {
		if got := f.read(cy); !near(got, wcy, tol) {
			t.Errorf("cy %v, want %v", got, wcy)
		}
	}
	// backward
	bins := append([]torch.ExecTensor{}, ins...)
	bins = append(bins, f.tensor(true, dt, yShape, gv), f.tensor(true, dt, state, r.gHy))
	if lstm {
		bins = append(bins, f.tensor(true, dt, state, r.gCy))
	}
	dx, dhx, dcx := f.tensor(true, dt, xShape, nil), f.tensor(true, dt, state, nil), f.tensor(true, dt, state, nil)
	dw := f.tensor(true, dt, []int64{total}, nil)
	bouts, mask := []torch.ExecTensor{dx, dhx}, int64(0b1011)
	if lstm {
		bouts, mask = append(bouts, dcx), 0b1111
	}
	bouts = append(bouts, dw)
	bints := append(append(append([]int64{}, ints[:5]...), mask), offs...)
	if p > 0 {
		bints = append(bints, fwd.Ints[5:8]...)
	}
	if err := f.ex.Exec(&torch.ExecOp{Kind: torch.ExecRNNBack, Out: bouts, In: bins, Scalars: scalars, Ints: bints}); err != nil {
		t.Fatal(err)
	}
	wdx := r.numGrad(r.x)
	if batchFirst {
		wdx = batchMajor(wdx, r.S, r.B)
	}
	if got := f.read(dx); !near(got, wdx, gtol) {
		t.Errorf("dx %v, want %v", got, wdx)
	}
	if got, want := f.read(dhx), r.numGrad(r.h0); !near(got, want, gtol) {
		t.Errorf("dhx %v, want %v", got, want)
	}
	if lstm {
		if got, want := f.read(dcx), r.numGrad(r.c0); !near(got, want, gtol) {
			t.Errorf("dcx %v, want %v", got, want)
		}
	}
	gw := f.read(dw)
	for i, w := range r.w {
		want := r.numGrad(w)
		if got := gw[offs[i] : offs[i]+int64(len(w))]; !near(got, want, gtol) {
			t.Errorf("weight %d grad %v, want %v", i, got, want)
		}
	}
}

func b2i(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

// TestRNNFloat64AgainstReference runs float64 RNNs (computed in float64:
// map_wide's activations, the f64 matmul) against the float64 reference
// with tolerances float32 could not meet.
func TestRNNFloat64AgainstReference(t *testing.T) {
	for _, tc := range []struct {
		mode       int64
		layers     int
		dirs       int
		batchFirst bool
	}{
		{torch.RNNModeLSTM, 2, 2, false},
		{torch.RNNModeGRU, 2, 1, true},
		{torch.RNNModeTanh, 1, 2, false},
		{torch.RNNModeRelu, 2, 1, false},
	} {
		t.Run(fmt.Sprintf("mode%d-L%d-D%d-bf%v", tc.mode, tc.layers, tc.dirs, tc.batchFirst), func(t *testing.T) {
			checkRNN(t, newRNNRef(tc.mode, tc.layers, tc.dirs, true), tc.batchFirst, 0, torch.Float64)
		})
	}
}
