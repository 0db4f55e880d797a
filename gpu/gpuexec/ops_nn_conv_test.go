package gpuexec

import (
	"math"
	"testing"

	"github.com/gpumem/playground/sim/torch"
)

// sinVals are deterministic test values.
func sinVals(n int64, scale float64) []float64 {
	v := make([]float64, n)
	for i := range v {
		v[i] = math.Sin(float64(i)*scale + 0.3)
	}
	return v
}

// directConv is the textbook convolution (and its gradients for the
// upstream gradient gy) in float64, the reference for the im2col path.
func directConv(x, w, b, gy []float64, n, c, h, wd, co, kh, kw, oh, ow, groups int64, st, pd, dl [2]int64) (y, gx, gw, gb []float64) {
	y, gx, gw, gb = make([]float64, n*co*oh*ow), make([]float64, len(x)), make([]float64, len(w)), make([]float64, co)
	cg, og := c/groups, co/groups
	for in := int64(0); in < n; in++ {
		for o := int64(0); o < co; o++ {
			grp := o / og
			for i := int64(0); i < oh; i++ {
				for j := int64(0); j < ow; j++ {
					yi := ((in*co+o)*oh+i)*ow + j
					s := b[o]
					gb[o] += gy[yi]
					for ci := int64(0); ci < cg; ci++ {
						for a := int64(0); a < kh; a++ {
							for e := int64(0); e < kw; e++ {
								r, q := i*st[0]-pd[0]+a*dl[0], j*st[1]-pd[1]+e*dl[1]
								if r < 0 || r >= h || q < 0 || q >= wd {
									continue
								}
								xi := ((in*c+grp*cg+ci)*h+r)*wd + q
								wi := ((o*cg+ci)*kh+a)*kw + e
								s += x[xi] * w[wi]
								gx[xi] += gy[yi] * w[wi]
								gw[wi] += gy[yi] * x[xi]
							}
						}
					}
					y[yi] = s
				}
			}
		}
	}
	return y, gx, gw, gb
}

// TestConvMatchesDirect checks ExecConv and ExecConvBack (stride, padding,
// dilation, groups, bias) against the direct loops.
func TestConvMatchesDirect(t *testing.T) {
	const n, c, h, wd, co, kh, kw, groups = 2, 4, 6, 7, 6, 3, 2, 2
	st, pd, dl := [2]int64{2, 1}, [2]int64{1, 2}, [2]int64{1, 2}
	oh := (h+2*pd[0]-dl[0]*(kh-1)-1)/st[0] + 1
	ow := (wd+2*pd[1]-dl[1]*(kw-1)-1)/st[1] + 1
	xv, wv, bv := sinVals(n*c*h*wd, 0.7), sinVals(co*c/groups*kh*kw, 0.37), sinVals(co, 1.1)
	gv := sinVals(n*co*oh*ow, 0.23)
	y0, gx0, gw0, gb0 := directConv(xv, wv, bv, gv, n, c, h, wd, co, kh, kw, oh, ow, groups, st, pd, dl)
	ints := []int64{st[0], st[1], pd[0], pd[1], dl[0], dl[1], groups}
	for _, dt := range []torch.DType{torch.Float32, torch.Float16} {
		tol := 1e-5
		if dt == torch.Float16 {
			tol = 2e-2
		}
		f := newFixture(t)
		x := f.tensor(true, dt, []int64{n, c, h, wd}, xv)
		w := f.tensor(true, dt, []int64{co, c / groups, kh, kw}, wv)
		b := f.tensor(true, dt, []int64{co}, bv)
		y := f.tensor(true, dt, []int64{n, co, oh, ow}, nil)
		if err := f.exec(torch.ExecConv, y, []torch.ExecTensor{x, w, b}, nil, append(append([]int64{}, ints...), 1, 7)); err != nil {
			t.Fatalf("%s conv: %v", dt, err)
		}
		if got := f.read(y); !near(got, y0, tol) {
			t.Errorf("%s conv y = %v, want %v", dt, got, y0)
		}
		g := f.tensor(true, dt, []int64{n, co, oh, ow}, gv)
		gx := f.tensor(true, dt, []int64{n, c, h, wd}, nil)
		gw := f.tensor(true, dt, []int64{co, c / groups, kh, kw}, nil)
		gb := f.tensor(true, dt, []int64{co}, nil)
		op := &torch.ExecOp{Kind: torch.ExecConvBack, Out: []torch.ExecTensor{gx, gw, gb}, In: []torch.ExecTensor{g, x, w},
			Ints: append(append([]int64{}, ints...), 7, 7)}
		if err := f.ex.Exec(op); err != nil {
			t.Fatalf("%s conv backward: %v", dt, err)
		}
		for _, c := range []struct {
			name string
			got  torch.ExecTensor
			want []float64
		}{{"gx", gx, gx0}, {"gw", gw, gw0}, {"gb", gb, gb0}} {
			if got := f.read(c.got); !near(got, c.want, tol*4) {
				t.Errorf("%s conv %s = %v, want %v", dt, c.name, got, c.want)
			}
		}
	}
}

// TestPoolWindows checks max pooling (values, indices, padding) and its
// backward, and average pooling's divisors (count_include_pad, ceil_mode).
func TestPoolWindows(t *testing.T) {
	f := newFixture(t)
	// one 3×4 plane: 0 5 2 7 / 4 1 6 3 / 8 9 -1 10
	x := f.tensor(true, torch.Float32, []int64{1, 1, 3, 4}, []float64{0, 5, 2, 7, 4, 1, 6, 3, 8, 9, -1, 10})
	y := f.tensor(true, torch.Float32, []int64{1, 1, 2, 3}, nil)
	idx := f.tensor(true, torch.Int64, []int64{1, 1, 2, 3}, nil)
	// kernel 2, stride 2, padding 1
	op := &torch.ExecOp{Kind: torch.ExecMaxPool, Out: []torch.ExecTensor{y, idx}, In: []torch.ExecTensor{x}, Ints: []int64{2, 2, 2, 2, 1, 1, 1, 1}}
	if err := f.ex.Exec(op); err != nil {
		t.Fatal(err)
	}
	if got, want := f.read(y), []float64{0, 5, 7, 8, 9, 10}; !near(got, want, 0) {
		t.Errorf("max_pool2d = %v, want %v", got, want)
	}
	if got, want := f.read(idx), []float64{0, 1, 3, 8, 9, 11}; !near(got, want, 0) {
		t.Errorf("indices = %v, want %v", got, want)
	}
	g := f.tensor(true, torch.Float32, []int64{1, 1, 2, 3}, []float64{1, 2, 3, 4, 5, 6})
	gx := f.tensor(true, torch.Float32, []int64{1, 1, 3, 4}, nil)
	if err := f.exec(torch.ExecMaxPoolBack, gx, []torch.ExecTensor{g, idx}, nil, nil); err != nil {
		t.Fatal(err)
	}
	if got, want := f.read(gx), []float64{1, 2, 0, 3, 0, 0, 0, 0, 4, 5, 0, 6}; !near(got, want, 0) {
		t.Errorf("max_pool2d backward = %v, want %v", got, want)
	}
	// avg kernel 2 stride 2 padding 1: windows at rows {-1,0},{1,2}, cols {-1,0},{1,2},{3,4}
	for _, c := range []struct {
		cip  int64
		want []float64
	}{
		{1, []float64{0, 7.0 / 4, 7.0 / 4, 12.0 / 4, 15.0 / 4, 13.0 / 4}},
		{0, []float64{0, 7.0 / 2, 7, 12.0 / 2, 15.0 / 4, 13.0 / 2}},
	} {
		a := f.tensor(true, torch.Float32, []int64{1, 1, 2, 3}, nil)
		if err := f.exec(torch.ExecAvgPool, a, []torch.ExecTensor{x}, nil, []int64{2, 2, 2, 2, 1, 1, 0, c.cip, 0}); err != nil {
			t.Fatal(err)
		}
		if got := f.read(a); !near(got, c.want, 1e-6) {
			t.Errorf("avg_pool2d count_include_pad=%d = %v, want %v", c.cip, got, c.want)
		}
	}
	// adaptive 3×4 → 2×2: rows {0,1},{1,2}, cols {0,1},{2,3}
	a := f.tensor(true, torch.Float32, []int64{1, 1, 2, 2}, nil)
	if err := f.exec(torch.ExecAvgPool, a, []torch.ExecTensor{x}, nil, nil); err != nil {
		t.Fatal(err)
	}
	if got, want := f.read(a), []float64{10.0 / 4, 18.0 / 4, 22.0 / 4, 18.0 / 4}; !near(got, want, 1e-6) {
		t.Errorf("adaptive_avg_pool2d = %v, want %v", got, want)
	}
}
