package gpuexec

import (
	"math"
	"testing"

	"github.com/gpumem/playground/sim/torch"
)

// poolRef is pooling over 1 to 3 spatial dims written as PyTorch's CUDA
// kernels loop (DilatedMaxPool3d.cu, AveragePool3d.cu, Adaptive*Pooling
// 3d.cu), in float64, independent of the window tables: the reference for
// the gather/scatter path. kernel nil: adaptive windows.
type poolRef struct {
	np                       int64
	in, out                  []int64
	kernel, stride, pad, dil []int64
	ceil, includePad         bool
	override                 int64
}

// outSize is pooling_output_shape.
func outSize(in, k, s, p, d int64, ceil bool) int64 {
	num := in + 2*p - d*(k-1) - 1
	o := num/s + 1
	if ceil {
		o = (num+s-1)/s + 1
		if (o-1)*s >= in+p {
			o--
		}
	}
	return o
}

// withOut fills r.out from the window (sliding) and returns r.
func (r poolRef) withOut() poolRef {
	r.out = nil
	for a := range r.in {
		d := int64(1)
		if r.dil != nil {
			d = r.dil[a]
		}
		r.out = append(r.out, outSize(r.in[a], r.kernel[a], r.stride[a], r.pad[a], d, r.ceil))
	}
	return r
}

// axis lists output o's input coordinates on axis a (inside the input)
// and the window's extent clipped to the padded input.
func (r poolRef) axis(a int, o int64) (coords []int64, full int64) {
	in := r.in[a]
	if r.kernel == nil {
		lo, hi := o*in/r.out[a], ((o+1)*in+r.out[a]-1)/r.out[a]
		for v := lo; v < hi; v++ {
			coords = append(coords, v)
		}
		return coords, hi - lo
	}
	d := int64(1)
	if r.dil != nil {
		d = r.dil[a]
	}
	lo := o*r.stride[a] - r.pad[a]
	for i := int64(0); i < r.kernel[a]; i++ {
		if v := lo + i*d; v >= 0 && v < in {
			coords = append(coords, v)
		}
	}
	return coords, min(lo+r.kernel[a], in+r.pad[a]) - lo
}

// each calls fn for every plane p, output position (flat l) and its
// window: the flat input offsets in loop order, and the padded extent.
func (r poolRef) each(fn func(p, l int64, win []int64, full int64)) {
	pos := make([]int64, len(r.in))
	l := numel(r.out)
	for p := int64(0); p < r.np; p++ {
		for li := int64(0); li < l; li++ {
			rem := li
			for a := len(r.out) - 1; a >= 0; a-- {
				pos[a], rem = rem%r.out[a], rem/r.out[a]
			}
			win, full := []int64{0}, int64(1)
			for a := range r.in {
				cs, f := r.axis(a, pos[a])
				full *= f
				var next []int64
				for _, w := range win {
					for _, c := range cs {
						next = append(next, w*r.in[a]+c)
					}
				}
				win = next
			}
			fn(p, li, win, full)
		}
	}
}

// max is max pooling with flat indices and its backward for gy.
func (r poolRef) max(x, gy []float64) (y, idx, gx []float64) {
	hw, l := numel(r.in), numel(r.out)
	y, idx, gx = make([]float64, r.np*l), make([]float64, r.np*l), make([]float64, len(x))
	r.each(func(p, li int64, win []int64, _ int64) {
		m, at := math.Inf(-1), win[0]
		for _, w := range win {
			if v := x[p*hw+w]; v > m || math.IsNaN(v) {
				m, at = v, w
			}
		}
		y[p*l+li], idx[p*l+li] = m, float64(at)
		gx[p*hw+at] += gy[p*l+li]
	})
	return y, idx, gx
}

// avg is average pooling (sliding or adaptive) and its backward for gy.
func (r poolRef) avg(x, gy []float64) (y, gx []float64) {
	hw, l := numel(r.in), numel(r.out)
	y, gx = make([]float64, r.np*l), make([]float64, len(x))
	r.each(func(p, li int64, win []int64, full int64) {
		div := float64(len(win))
		switch {
		case r.kernel == nil:
		case r.override != 0:
			div = float64(r.override)
		case r.includePad:
			div = float64(full)
		}
		s := 0.0
		for _, w := range win {
			s += x[p*hw+w]
			gx[p*hw+w] += gy[p*l+li] / div
		}
		y[p*l+li] = s / div
	})
	return y, gx
}

// ints are the ExecOp Ints of r: max (kernel, stride, padding,
// dilation) or avg (kernel, stride, padding, flags; [dims] adaptive).
func (r poolRef) ints(max bool) []int64 {
	if r.kernel == nil {
		return []int64{int64(len(r.in))}
	}
	var v []int64
	v = append(append(append(v, r.kernel...), r.stride...), r.pad...)
	if max {
		d := r.dil
		if d == nil {
			d = []int64{1, 1, 1}[:len(r.in)]
		}
		return append(v, d...)
	}
	b := func(c bool) int64 {
		if c {
			return 1
		}
		return 0
	}
	return append(v, b(r.ceil), b(r.includePad), r.override)
}

// shape is the operand shape of sizes sp over r's planes (batched as
// [2, np/2] when np is even and batched, else [np]).
func (r poolRef) shape(sp []int64, batched bool) []int64 {
	if batched {
		return append([]int64{2, r.np / 2}, sp...)
	}
	return append([]int64{r.np}, sp...)
}

// TestPool3dMatchesDirect checks max pooling (indices, padding, dilation,
// ceil_mode, NaN and −inf), average pooling (count_include_pad both ways,
// divisor_override, ceil_mode), adaptive average and max pooling with
// non-divisible sizes, and their backwards, over 3 spatial dims (and 1 or
// 2 where the same code runs), batched and unbatched, against poolRef:
// float32, and float64 (computed in float64 scratch) to 1e-13.
func TestPool3dMatchesDirect(t *testing.T) {
	for _, dt := range []torch.DType{torch.Float32, torch.Float64} {
		t.Run(dt.String(), func(t *testing.T) { testPool3dMatchesDirect(t, dt) })
	}
}

func testPool3dMatchesDirect(t *testing.T, dt torch.DType) {
	tol := func(f32 float64) float64 {
		if dt == torch.Float64 {
			return 1e-13
		}
		return f32
	}
	sl := func(v ...int64) []int64 { return v }
	cases := []struct {
		name    string
		r       poolRef
		batched bool
		special bool // NaN and −inf in x
	}{
		{"k2", poolRef{np: 6, in: sl(4, 5, 6), kernel: sl(2, 2, 2), stride: sl(2, 2, 2), pad: sl(0, 0, 0)}, true, false},
		{"k3s2p1ceil", poolRef{np: 4, in: sl(5, 6, 7), kernel: sl(3, 3, 3), stride: sl(2, 2, 2), pad: sl(1, 1, 1), ceil: true}, true, false},
		{"mixed-dilation", poolRef{np: 3, in: sl(6, 7, 5), kernel: sl(2, 3, 2), stride: sl(1, 2, 3), pad: sl(1, 1, 0), dil: sl(2, 1, 2)}, false, false},
		{"nan-inf", poolRef{np: 2, in: sl(4, 4, 4), kernel: sl(3, 2, 3), stride: sl(2, 2, 2), pad: sl(1, 1, 1), ceil: true}, true, true},
		{"avg-nopad-count", poolRef{np: 4, in: sl(5, 6, 7), kernel: sl(3, 3, 3), stride: sl(2, 2, 2), pad: sl(1, 1, 1), ceil: true}, true, false},
		{"avg-include-pad", poolRef{np: 4, in: sl(5, 6, 6), kernel: sl(3, 2, 3), stride: sl(2, 1, 2), pad: sl(1, 1, 1), ceil: true, includePad: true}, true, false},
		{"avg-override", poolRef{np: 3, in: sl(4, 5, 6), kernel: sl(2, 3, 2), stride: sl(2, 2, 2), pad: sl(1, 1, 0), override: 5}, false, false},
		{"avg-stride1", poolRef{np: 2, in: sl(4, 5, 3), kernel: sl(2, 3, 2), stride: sl(1, 1, 1), pad: sl(0, 0, 0)}, true, false},
		{"adaptive-232", poolRef{np: 4, in: sl(5, 4, 7), out: sl(2, 3, 2)}, true, false},
		{"adaptive-divisible", poolRef{np: 3, in: sl(4, 6, 6), out: sl(2, 3, 2)}, false, false},
		{"adaptive-1", poolRef{np: 2, in: sl(3, 4, 5), out: sl(1, 1, 1)}, true, false},
		{"adaptive-nan", poolRef{np: 2, in: sl(4, 4, 4), out: sl(3, 3, 3)}, true, true},
		{"2d-adaptive", poolRef{np: 4, in: sl(5, 7), out: sl(3, 4)}, true, false},
		{"1d", poolRef{np: 4, in: sl(9), kernel: sl(3), stride: sl(2), pad: sl(1)}, true, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := c.r
			if r.kernel != nil {
				r = r.withOut()
			}
			xv := sinVals(r.np*numel(r.in), 0.77)
			if c.special {
				for i := range xv {
					switch i % 11 {
					case 3:
						xv[i] = math.NaN()
					case 5, 6:
						xv[i] = math.Inf(-1)
					case 8:
						xv[i] = xv[i-1] // ties: the first wins
					}
				}
				for i := 0; i < 40 && i < len(xv); i++ {
					xv[i] = math.Inf(-1) // all −inf windows: the first valid index
				}
			}
			gv := sinVals(r.np*numel(r.out), 0.31)
			xs, ys := r.shape(r.in, c.batched), r.shape(r.out, c.batched)
			f := newFixture(t)
			x := f.tensor(true, dt, xs, xv)
			gy := f.tensor(true, dt, ys, gv)

			// max (sliding or adaptive) with indices, and its backward
			kind := torch.ExecMaxPool
			if r.kernel == nil {
				kind = torch.ExecAdaptiveMaxPool
			}
			y := f.tensor(true, dt, ys, nil)
			idx := f.tensor(true, torch.Int64, ys, nil)
			if err := f.ex.Exec(&torch.ExecOp{Kind: kind, Out: []torch.ExecTensor{y, idx}, In: []torch.ExecTensor{x}, Ints: r.ints(true)}); err != nil {
				t.Fatalf("%s: %v", kind, err)
			}
			wy, wi, wgx := r.max(xv, gv)
			if got := f.read(y); !near(got, wy, tol(1e-6)) {
				t.Errorf("%s y = %v, want %v", kind, got, wy)
			}
			if got := f.read(idx); !near(got, wi, 0) {
				t.Errorf("%s indices = %v, want %v", kind, got, wi)
			}
			gx := f.tensor(true, dt, xs, nil)
			if err := f.exec(torch.ExecMaxPoolBack, gx, []torch.ExecTensor{gy, idx}, nil, []int64{int64(len(r.in))}); err != nil {
				t.Fatalf("max backward: %v", err)
			}
			if got := f.read(gx); !near(got, wgx, tol(1e-5)) {
				t.Errorf("max backward = %v, want %v", got, wgx)
			}
			if c.special {
				return
			}
			if r.kernel != nil && r.dil != nil {
				return // avg_pool has no dilation
			}

			// average (sliding or adaptive) and its backward
			a := f.tensor(true, dt, ys, nil)
			if err := f.exec(torch.ExecAvgPool, a, []torch.ExecTensor{x}, nil, r.ints(false)); err != nil {
				t.Fatalf("avg: %v", err)
			}
			wa, wag := r.avg(xv, gv)
			if got := f.read(a); !near(got, wa, tol(1e-5)) {
				t.Errorf("avg y = %v, want %v", got, wa)
			}
			ag := f.tensor(true, dt, xs, nil)
			if err := f.exec(torch.ExecAvgPoolBack, ag, []torch.ExecTensor{gy}, nil, r.ints(false)); err != nil {
				t.Fatalf("avg backward: %v", err)
			}
			if got := f.read(ag); !near(got, wag, tol(1e-5)) {
				t.Errorf("avg backward = %v, want %v", got, wag)
			}
		})
	}
}

// TestPool3dHalfTypes checks float16 and bfloat16 operands: max pooling
// selects the stored values exactly, average pooling rounds the f32
// result once, and the 3-d average backward rounds each window's gradient
// share to the type before adding it (AveragePool3d.cu). Float64 pooling
// is computed in float64 (TestPool3dMatchesDirect).
func TestPool3dHalfTypes(t *testing.T) {
	r := poolRef{np: 4, in: []int64{4, 6, 6}, kernel: []int64{2, 3, 3}, stride: []int64{2, 3, 3}, pad: []int64{0, 1, 1}, includePad: true}.withOut()
	for _, c := range []struct {
		dt  torch.DType
		tol float64
	}{{torch.Float16, 1e-3}, {torch.BFloat16, 8e-3}} {
		dt := c.dt
		t.Run(dt.String(), func(t *testing.T) {
			xv := sinVals(r.np*numel(r.in), 0.53)
			gv := sinVals(r.np*numel(r.out), 0.71)
			for i := range xv {
				xv[i] = round(dt, xv[i]*3)
			}
			for i := range gv {
				gv[i] = round(dt, gv[i])
			}
			xs, ys := r.shape(r.in, true), r.shape(r.out, true)
			f := newFixture(t)
			x := f.tensor(true, dt, xs, xv)
			gy := f.tensor(true, dt, ys, gv)
			y := f.tensor(true, dt, ys, nil)
			idx := f.tensor(true, torch.Int64, ys, nil)
			if err := f.ex.Exec(&torch.ExecOp{Kind: torch.ExecMaxPool, Out: []torch.ExecTensor{y, idx}, In: []torch.ExecTensor{x}, Ints: r.ints(true)}); err != nil {
				t.Fatal(err)
			}
			wy, wi, _ := r.max(xv, gv)
			if got := f.read(y); !near(got, wy, 0) {
				t.Errorf("max y = %v, want %v", got, wy)
			}
			if got := f.read(idx); !near(got, wi, 0) {
				t.Errorf("max indices = %v, want %v", got, wi)
			}
			a := f.tensor(true, dt, ys, nil)
			if err := f.exec(torch.ExecAvgPool, a, []torch.ExecTensor{x}, nil, r.ints(false)); err != nil {
				t.Fatal(err)
			}
			wa, _ := r.avg(xv, gv)
			for i := range wa {
				wa[i] = round(dt, wa[i])
			}
			if got := f.read(a); !near(got, wa, c.tol) {
				t.Errorf("avg y = %v, want %v", got, wa)
			}
			// kernel = stride: each input element gets one share, round(g/div)
			ag := f.tensor(true, dt, xs, nil)
			if err := f.exec(torch.ExecAvgPoolBack, ag, []torch.ExecTensor{gy}, nil, r.ints(false)); err != nil {
				t.Fatal(err)
			}
			_, wag := r.avg(xv, gv)
			for i := range wag {
				wag[i] = round(dt, float64(float32(wag[i])))
			}
			if got := f.read(ag); !near(got, wag, c.tol) {
				t.Errorf("avg backward = %v, want %v", got, wag)
			}
		})
	}
}

// TestPool3dBackwardRounding pins the 3-d average backward's order of
// operations bit for bit where PyTorch's is deterministic: a
// non-divisible adaptive window's share is grad/kT/kH/kW in f32 (three
// roundings), and a bfloat16 sliding window's share is rounded to
// bfloat16 before it is added (two shares per element at most here, so
// the atomic adds of AveragePool3d.cu round as one f32 sum does).
func TestPool3dBackwardRounding(t *testing.T) {
	bf := func(v float64) float64 { return round(torch.BFloat16, v) }
	f32 := func(v float64) float64 { return float64(float32(v)) }
	for _, c := range []struct {
		name  string
		dt    torch.DType
		r     poolRef
		share func(g float64, win []int64, full int64, r poolRef, pos []int64) float64
		sum   func(v float64) float64
		exact int // elements with at most this many shares must match bit for bit
	}{
		{"adaptive-f32", torch.Float32, poolRef{np: 4, in: []int64{7, 8, 11}, out: []int64{2, 3, 2}},
			func(g float64, _ []int64, _ int64, r poolRef, pos []int64) float64 {
				for a := range r.in {
					cs, _ := r.axis(a, pos[a])
					g = f32(g / float64(len(cs)))
				}
				return g
			}, f32, 1},
		{"sliding-bf16", torch.BFloat16, poolRef{np: 4, in: []int64{5, 4, 6}, kernel: []int64{3, 2, 3}, stride: []int64{2, 2, 3}, pad: []int64{1, 0, 1}}.withOut(),
			func(g float64, win []int64, _ int64, _ poolRef, _ []int64) float64 {
				return bf(f32(g / float64(len(win))))
			}, bf, 2},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := c.r
			gv := sinVals(r.np*numel(r.out), 0.61)
			for i := range gv {
				gv[i] = round(c.dt, gv[i]*1.7)
			}
			hw, l := numel(r.in), numel(r.out)
			want, shares := make([]float64, r.np*hw), make([]int, r.np*hw)
			pos := make([]int64, len(r.out))
			r.each(func(p, li int64, win []int64, full int64) {
				rem := li
				for a := len(r.out) - 1; a >= 0; a-- {
					pos[a], rem = rem%r.out[a], rem/r.out[a]
				}
				sh := c.share(gv[p*l+li], win, full, r, pos)
				for _, w := range win {
					want[p*hw+w] += sh
					shares[p*hw+w]++
				}
			})
			f := newFixture(t)
			gy := f.tensor(true, c.dt, r.shape(r.out, true), gv)
			gx := f.tensor(true, c.dt, r.shape(r.in, true), nil)
			if err := f.exec(torch.ExecAvgPoolBack, gx, []torch.ExecTensor{gy}, nil, r.ints(false)); err != nil {
				t.Fatal(err)
			}
			got, exact := f.read(gx), 0
			for i := range want {
				w, tol := c.sum(want[i]), 1e-6
				if shares[i] <= c.exact {
					tol = 0
					exact++
				}
				if !near(got[i:i+1], []float64{w}, tol) {
					t.Fatalf("avg_pool3d backward [%d] (%d shares) = %v, want %v", i, shares[i], got[i], w)
				}
			}
			if exact < len(want)/4 {
				t.Errorf("only %d of %d elements compared bit for bit", exact, len(want))
			}
		})
	}
}

// TestPoolIntsRejected checks that malformed Ints and shapes are errors,
// not panics.
func TestPoolIntsRejected(t *testing.T) {
	f := newFixture(t)
	x := f.tensor(true, torch.Float32, []int64{1, 2, 4, 4, 4}, sinVals(128, 0.3))
	y := f.tensor(true, torch.Float32, []int64{1, 2, 2, 2, 2}, nil)
	idx := f.tensor(true, torch.Int64, []int64{1, 2, 2, 2, 2}, nil)
	for i, op := range []*torch.ExecOp{
		{Kind: torch.ExecMaxPool, Out: []torch.ExecTensor{y, idx}, In: []torch.ExecTensor{x}, Ints: []int64{2, 2, 2, 2, 2, 2, 0, 0, 0, 1, 1}},
		{Kind: torch.ExecMaxPool, Out: []torch.ExecTensor{y, idx}, In: []torch.ExecTensor{x}, Ints: []int64{0, 2, 2, 2, 2, 2, 0, 0, 0, 1, 1, 1}},
		{Kind: torch.ExecAdaptiveMaxPool, Out: []torch.ExecTensor{y, idx}, In: []torch.ExecTensor{x}, Ints: []int64{4}},
		{Kind: torch.ExecAdaptiveMaxPool, Out: []torch.ExecTensor{y, idx}, In: []torch.ExecTensor{x}, Ints: nil},
		{Kind: torch.ExecAvgPool, Out: []torch.ExecTensor{y}, In: []torch.ExecTensor{x}, Ints: []int64{2, 2, 2, 2, 2, 2, 0, 0, 0, 0, 1}},
		{Kind: torch.ExecAvgPool, Out: []torch.ExecTensor{y}, In: []torch.ExecTensor{x}, Ints: nil}, // 2-d adaptive of a 5-d x
		{Kind: torch.ExecMaxPoolBack, Out: []torch.ExecTensor{x}, In: []torch.ExecTensor{y, idx}, Ints: []int64{3, 3}},
	} {
		if err := f.ex.Exec(op); err == nil {
			t.Errorf("op %d (%s %v): no error", i, op.Kind, op.Ints)
		}
	}
}

// TestMaxPoolBackStridedIndices checks the max backward with
// channels_last indices and gradient (2-d max_pool2d of a channels_last
// input): both are copied contiguous first.
func TestMaxPoolBackStridedIndices(t *testing.T) {
	f := newFixture(t)
	// [1, 2, 2, 2] in memory order (n, h, w, c): strides 8, 1, 4, 2
	idx := f.tensor(true, torch.Int64, []int64{8}, []float64{0, 5, 3, 10, 12, 1, 15, 14})
	g := f.tensor(true, torch.Float32, []int64{8}, []float64{1, 2, 3, 4, 5, 6, 7, 8})
	cl := []int64{8, 1, 4, 2}
	idx, g = view(idx, []int64{1, 2, 2, 2}, cl, 0), view(g, []int64{1, 2, 2, 2}, cl, 0)
	gx := f.tensor(true, torch.Float32, []int64{1, 2, 4, 4}, nil)
	if err := f.exec(torch.ExecMaxPoolBack, gx, []torch.ExecTensor{g, idx}, nil, nil); err != nil {
		t.Fatal(err)
	}
	// channel 0 (n,h,w order): positions (0,0),(0,1),(1,0),(1,1) take
	// memory 0, 2, 4, 6 → indices 0, 3, 12, 15, grads 1, 3, 5, 7; channel 1:
	// indices 5, 10, 1, 14, grads 2, 4, 6, 8
	want := make([]float64, 32)
	for i, at := range []int{0, 3, 12, 15} {
		want[at] = float64(2*i + 1)
	}
	for i, at := range []int{5, 10, 1, 14} {
		want[16+at] = float64(2*i + 2)
	}
	if got := f.read(gx); !near(got, want, 0) {
		t.Errorf("max backward = %v, want %v", got, want)
	}
}
