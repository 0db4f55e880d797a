package gpuexec

import (
	"testing"

	"github.com/gpumem/playground/sim/torch"
)

// convND is the textbook convolution over any number of spatial dims in
// float64 (x [n, c, *in], w [co, c/groups, *kern], y [n, co, *out]) with
// its gradients for the upstream gradient gy: the reference for the
// table-driven im2col path in 3-d.
type convND struct {
	n, c, co, groups int64
	in, kern, out    []int64
	st, pd, dl       []int64
}

func (g convND) run(x, w, b, gy []float64) (y, gx, gw, gb []float64) {
	l, kk, hw := numel(g.out), numel(g.kern), numel(g.in)
	y, gx, gw, gb = make([]float64, g.n*g.co*l), make([]float64, len(x)), make([]float64, len(w)), make([]float64, g.co)
	cg, og := g.c/g.groups, g.co/g.groups
	pos, win := make([]int, len(g.out)), make([]int, len(g.kern))
	for in := int64(0); in < g.n; in++ {
		for o := int64(0); o < g.co; o++ {
			grp := o / og
			clear(pos)
			for li := int64(0); li < l; li++ {
				yi := (in*g.co+o)*l + li
				s := 0.0
				if b != nil {
					s = b[o]
				}
				gb[o] += gy[yi]
				clear(win)
				for ki := int64(0); ki < kk; ki++ {
					off, inside := int64(0), true
					for a := range g.in {
						r := int64(pos[a])*g.st[a] - g.pd[a] + int64(win[a])*g.dl[a]
						if r < 0 || r >= g.in[a] {
							inside = false
						}
						off = off*g.in[a] + r
					}
					if inside {
						for ci := int64(0); ci < cg; ci++ {
							xi := (in*g.c+grp*cg+ci)*hw + off
							wi := (o*cg+ci)*kk + ki
							s += x[xi] * w[wi]
							gx[xi] += gy[yi] * w[wi]
							gw[wi] += gy[yi] * x[xi]
						}
					}
					odometer(win, func(i int) int { return int(g.kern[i]) })
				}
				y[yi] = s
				odometer(pos, func(i int) int { return int(g.out[i]) })
			}
		}
	}
	return y, gx, gw, gb
}

// TestConv3dAndTransposeMatchDirect checks ExecConv, ExecConvBack and the
// transposed convolution with its backward over three spatial dims
// (stride, padding, dilation, groups, bias) against the direct loops: a
// transposed convolution of x with w is the input gradient of the
// convolution from its output's shape to x's. float32, and float64
// (computed in float64 scratch) to 1e-13.
func TestConv3dAndTransposeMatchDirect(t *testing.T) {
	for _, dt := range []torch.DType{torch.Float32, torch.Float64} {
		t.Run(dt.String(), func(t *testing.T) { testConv3dAndTranspose(t, dt) })
	}
}

func testConv3dAndTranspose(t *testing.T, dt torch.DType) {
	tol := func(f32 float64) float64 {
		if dt == torch.Float64 {
			return 1e-13
		}
		return f32
	}
	g := convND{n: 2, c: 4, co: 6, groups: 2, in: []int64{5, 4, 6}, kern: []int64{2, 3, 2},
		st: []int64{2, 1, 2}, pd: []int64{1, 1, 0}, dl: []int64{1, 2, 2}}
	for a := range g.in {
		g.out = append(g.out, (g.in[a]+2*g.pd[a]-g.dl[a]*(g.kern[a]-1)-1)/g.st[a]+1)
	}
	shape := func(n, c int64, sp []int64) []int64 { return append([]int64{n, c}, sp...) }
	wShape := shape(g.co, g.c/g.groups, g.kern)
	xv, wv, bv := sinVals(numel(shape(g.n, g.c, g.in)), 0.7), sinVals(numel(wShape), 0.37), sinVals(g.co, 1.1)
	gv := sinVals(numel(shape(g.n, g.co, g.out)), 0.23)
	y0, gx0, gw0, gb0 := g.run(xv, wv, bv, gv)
	ints := append(append(append(append([]int64{}, g.st...), g.pd...), g.dl...), g.groups)
	f := newFixture(t)
	x := f.tensor(true, dt, shape(g.n, g.c, g.in), xv)
	w := f.tensor(true, dt, wShape, wv)
	b := f.tensor(true, dt, []int64{g.co}, bv)
	y := f.tensor(true, dt, shape(g.n, g.co, g.out), nil)
	if err := f.exec(torch.ExecConv, y, []torch.ExecTensor{x, w, b}, nil, append(append([]int64{}, ints...), 1, 7)); err != nil {
		t.Fatalf("conv3d: %v", err)
	}
	if got := f.read(y); !near(got, y0, tol(1e-5)) {
		t.Errorf("conv3d y = %v, want %v", got, y0)
	}
	gy := f.tensor(true, dt, shape(g.n, g.co, g.out), gv)
	gx := f.tensor(true, dt, shape(g.n, g.c, g.in), nil)
	gw := f.tensor(true, dt, wShape, nil)
	gb := f.tensor(true, dt, []int64{g.co}, nil)
	op := &torch.ExecOp{Kind: torch.ExecConvBack, Out: []torch.ExecTensor{gx, gw, gb}, In: []torch.ExecTensor{gy, x, w},
		Ints: append(append([]int64{}, ints...), 7, 7)}
	if err := f.ex.Exec(op); err != nil {
		t.Fatalf("conv3d backward: %v", err)
	}
	for _, c := range []struct {
		name string
		got  torch.ExecTensor
		want []float64
	}{{"gx", gx, gx0}, {"gw", gw, gw0}, {"gb", gb, gb0}} {
		if got := f.read(c.got); !near(got, c.want, tol(4e-5)) {
			t.Errorf("conv3d %s = %v, want %v", c.name, got, c.want)
		}
	}

	// conv_transpose3d of gy ([N, 6, *out]) with w ([6, 4/2, *kern] as a
	// transposed weight, out channels 4) is gx of the convolution above
	// with bias-free output; its backward is the convolution's forward of
	// the upstream gradient (grad_input) and its weight gradient.
	yt := f.tensor(true, dt, shape(g.n, g.c, g.in), nil)
	if err := f.exec(torch.ExecConvTranspose, yt, []torch.ExecTensor{gy, w}, nil, append(append([]int64{}, ints...), 1, 3)); err != nil {
		t.Fatalf("conv_transpose3d: %v", err)
	}
	if got := f.read(yt); !near(got, gx0, tol(4e-5)) {
		t.Errorf("conv_transpose3d = %v, want %v", got, gx0)
	}
	// upstream gradient of the transposed convolution: x's values
	dgy := f.tensor(true, dt, shape(g.n, g.co, g.out), nil)
	dw := f.tensor(true, dt, wShape, nil)
	back := &torch.ExecOp{Kind: torch.ExecConvTransposeBack, Out: []torch.ExecTensor{dgy, dw}, In: []torch.ExecTensor{x, gy, w},
		Ints: append(append([]int64{}, ints...), 3, 7)}
	if err := f.ex.Exec(back); err != nil {
		t.Fatalf("conv_transpose3d backward: %v", err)
	}
	yNoBias, _, gwT, _ := g.run(xv, wv, nil, gv)
	if got := f.read(dgy); !near(got, yNoBias, tol(4e-5)) {
		t.Errorf("conv_transpose3d grad_input = %v, want %v", got, yNoBias)
	}
	if got := f.read(dw); !near(got, gwT, tol(4e-5)) {
		t.Errorf("conv_transpose3d grad_weight = %v, want %v", got, gwT)
	}
}
