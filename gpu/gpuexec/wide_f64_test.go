package gpuexec

import (
	"math"
	"testing"

	"github.com/gpumem/playground/sim/torch"
)

// TestFloat64Pointwise runs the float64 kernels of session 12 through the
// executor (CUDA tensors: the CPU reference, or the GPU with -tags cuda)
// and compares them with direct float64 loops over Go's math: 1e-14
// relative, as the kernels' exp/log/erf are a few ulps from Go's.
func TestFloat64Pointwise(t *testing.T) {
	f := newFixture(t)
	xv := seq(12, func(i int) float64 { return 3 * math.Tanh(0.37*float64(i)-1.1) })
	pv := seq(12, func(i int) float64 { return 0.45*math.Tanh(0.29*float64(i)-0.4) + 0.5 })
	mv := seq(12, func(i int) float64 { return float64(i % 3 / 2) })
	x := f.tensor(true, torch.Float64, []int64{3, 4}, xv)
	p := f.tensor(true, torch.Float64, []int64{3, 4}, pv)
	m := f.tensor(true, torch.Bool, []int64{3, 4}, mv)
	g := f.tensor(true, torch.Float64, []int64{3, 4}, seq(12, func(i int) float64 { return math.Cos(float64(i)) }))
	gelu := func(v float64) float64 { return v * 0.5 * (1 + math.Erf(v/math.Sqrt2)) }
	sig := func(v float64) float64 { return 1 / (1 + math.Exp(-v)) }
	tests := []struct {
		kind    torch.ExecKind
		ins     []torch.ExecTensor
		scalars []float64
		ints    []int64
		want    func(i int) float64
	}{
		{torch.ExecExp, []torch.ExecTensor{x}, nil, nil, func(i int) float64 { return math.Exp(xv[i]) }},
		{torch.ExecLog, []torch.ExecTensor{p}, nil, nil, func(i int) float64 { return math.Log(pv[i]) }},
		{torch.ExecPow, []torch.ExecTensor{p}, []float64{2.5}, nil, func(i int) float64 { return math.Pow(pv[i], 2.5) }},
		{torch.ExecPow, []torch.ExecTensor{p}, []float64{-0.3}, nil, func(i int) float64 { return math.Pow(pv[i], -0.3) }},
		{torch.ExecPow, []torch.ExecTensor{x}, []float64{-0.5}, nil, func(i int) float64 { return math.Pow(xv[i], -0.5) }},
		{torch.ExecPow, []torch.ExecTensor{p, x}, nil, nil, func(i int) float64 { return math.Pow(pv[i], xv[i]) }},
		{torch.ExecGelu, []torch.ExecTensor{x}, nil, nil, func(i int) float64 { return gelu(xv[i]) }},
		{torch.ExecGeluBack, []torch.ExecTensor{g, x}, nil, nil, func(i int) float64 {
			v := xv[i]
			return math.Cos(float64(i)) * (0.5*(1+math.Erf(v/math.Sqrt2)) + v*math.Exp(-v*v/2)/math.Sqrt(2*math.Pi))
		}},
		{torch.ExecSilu, []torch.ExecTensor{x}, nil, nil, func(i int) float64 { return xv[i] * sig(xv[i]) }},
		{torch.ExecSiluBack, []torch.ExecTensor{g, x}, nil, nil, func(i int) float64 {
			s := sig(xv[i])
			return math.Cos(float64(i)) * s * (1 + xv[i]*(1-s))
		}},
		{torch.ExecLeakyRelu, []torch.ExecTensor{x}, []float64{0.3}, nil, func(i int) float64 {
			return math.Max(xv[i], 0) + 0.3*math.Min(xv[i], 0)
		}},
		{torch.ExecClamp, []torch.ExecTensor{x}, []float64{-0.3, 0.7}, nil, func(i int) float64 { return math.Min(math.Max(xv[i], -0.3), 0.7) }},
		{torch.ExecWhere, []torch.ExecTensor{m, x, p}, nil, nil, func(i int) float64 {
			if mv[i] != 0 {
				return xv[i]
			}
			return pv[i]
		}},
		{torch.ExecMaskedFill, []torch.ExecTensor{x, m}, []float64{0.1}, nil, func(i int) float64 {
			if mv[i] != 0 {
				return 0.1
			}
			return xv[i]
		}},
		{torch.ExecTril, []torch.ExecTensor{x}, nil, []int64{0}, func(i int) float64 {
			if i%4 > i/4 {
				return 0
			}
			return xv[i]
		}},
		{torch.ExecMSELoss, []torch.ExecTensor{x, p}, nil, []int64{0}, func(i int) float64 { return (xv[i] - pv[i]) * (xv[i] - pv[i]) }},
		{torch.ExecMSELossBack, []torch.ExecTensor{g, x, p}, nil, []int64{1}, func(i int) float64 {
			return 2 * (xv[i] - pv[i]) * math.Cos(float64(i)) / 12
		}},
		{torch.ExecBCE, []torch.ExecTensor{p, m}, nil, []int64{0, 0, 3}, func(i int) float64 {
			return (mv[i]-1)*math.Log(1-pv[i]) - mv[i]*math.Log(pv[i])
		}},
	}
	for _, tt := range tests {
		out := f.tensor(true, torch.Float64, []int64{3, 4}, nil)
		ins := tt.ins
		if tt.kind == torch.ExecBCE { // a float64 target
			ins = []torch.ExecTensor{p, f.tensor(true, torch.Float64, []int64{3, 4}, mv)}
		}
		if err := f.exec(tt.kind, out, ins, tt.scalars, tt.ints); err != nil {
			t.Fatalf("%s: %v", tt.kind, err)
		}
		got := f.read(out)
		for i := range got {
			w := tt.want(i)
			if math.IsNaN(w) != math.IsNaN(got[i]) || math.Abs(got[i]-w) > 1e-14*math.Max(1, math.Abs(w)) {
				t.Errorf("%s %v [%d]: got %v, want %v", tt.kind, tt.scalars, i, got[i], w)
			}
		}
	}
}

// TestFloat64Reductions checks max/min with indices, argmax, var/std,
// norm and the mean-reduced mse_loss over float64 against direct loops
// (first index of ties, NaN wins).
func TestFloat64Reductions(t *testing.T) {
	f := newFixture(t)
	xv := []float64{0.5, -1.25, 3, 3, 2.75, -0.125, 3, 1, 0.1, 0.2, 0.30000000000000004, -7}
	x := f.tensor(true, torch.Float64, []int64{3, 4}, xv)
	vals := f.tensor(true, torch.Float64, []int64{3}, nil)
	idx := f.tensor(true, torch.Int64, []int64{3}, nil)
	if err := f.ex.Exec(&torch.ExecOp{Kind: torch.ExecMaxDim, Out: []torch.ExecTensor{vals, idx}, In: []torch.ExecTensor{x}, Ints: []int64{1}}); err != nil {
		t.Fatal(err)
	}
	if got, gi := f.read(vals), f.read(idx); !near(got, []float64{3, 3, 0.30000000000000004}, 0) || !near(gi, []float64{2, 2, 2}, 0) {
		t.Errorf("max dim: %v %v", got, gi)
	}
	am := f.tensor(true, torch.Int64, []int64{4}, nil)
	if err := f.exec(torch.ExecArgmin, am, []torch.ExecTensor{x}, nil, []int64{0}); err != nil {
		t.Fatal(err)
	}
	if got := f.read(am); !near(got, []float64{2, 0, 2, 2}, 0) {
		t.Errorf("argmin dim 0: %v", got)
	}
	mean := 0.0
	for _, v := range xv {
		mean += v / 12
	}
	ss, sq := 0.0, 0.0
	for _, v := range xv {
		ss += (v - mean) * (v - mean)
		sq += v * v
	}
	for _, c := range []struct {
		kind    torch.ExecKind
		scalars []float64
		want    float64
	}{
		{torch.ExecVar, []float64{1}, ss / 11},
		{torch.ExecStd, []float64{0}, math.Sqrt(ss / 12)},
		{torch.ExecNorm, []float64{2}, math.Sqrt(sq)},
		{torch.ExecNorm, []float64{math.Inf(1)}, 7},
		{torch.ExecMaxAll, nil, 3},
	} {
		out := f.tensor(true, torch.Float64, nil, nil)
		if err := f.exec(c.kind, out, []torch.ExecTensor{x}, c.scalars, nil); err != nil {
			t.Fatalf("%s: %v", c.kind, err)
		}
		if got := f.read(out); math.Abs(got[0]-c.want) > 1e-15*math.Abs(c.want) {
			t.Errorf("%s %v: %v, want %v", c.kind, c.scalars, got[0], c.want)
		}
	}
	// var_backward: 2/(n − 1)·grad·(x − mean)
	gr := f.tensor(true, torch.Float64, nil, []float64{0.7})
	vb := f.tensor(true, torch.Float64, []int64{3, 4}, nil)
	if err := f.exec(torch.ExecVarBack, vb, []torch.ExecTensor{gr, x}, []float64{1}, nil); err != nil {
		t.Fatal(err)
	}
	got := f.read(vb)
	for i, v := range xv {
		if w := 2.0 / 11 * 0.7 * (v - mean); math.Abs(got[i]-w) > 1e-15 {
			t.Errorf("var backward [%d]: %v, want %v", i, got[i], w)
		}
	}
}
