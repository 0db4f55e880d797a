package gpuexec

import (
	"fmt"

	"github.com/gpumem/playground/gpu"
	"github.com/gpumem/playground/gpu/kernels"
	"github.com/gpumem/playground/sim/torch"
)

// Convolution (1 to 3 spatial dims, stride, padding, dilation, groups) as
// im2col and matrix products in f32, with no cuDNN: cols[n, c, k, l] is
// the input under window element k of output position l, and per group
// y = W·cols (+ bias), grad_cols = Wᵀ·grad scattered back (col2im),
// grad_W = grad·colsᵀ summed over the batch, grad_b = Σ grad. PyTorch's
// cuDNN picks other summation orders (and TF32 unless disabled), so
// results agree to f32 rounding, not bit for bit. float64 operands
// compute in float64 scratch (scratch.acc = redAcc: the f64 gather,
// scatter_add and matmul kernels), as PyTorch computes double in double.

// convGeom is a convolution's sizes: batch, channels and 1 to 3 spatial
// axes (in: the input's, out: the output's, axes: their windows).
type convGeom struct {
	n, c, cout, cg, groups int64
	in, out, kernel        []int64
	axes                   []axisWindows
}

// hw, l and kk are the input's spatial element count, the number of
// output positions and of window elements.
func (g convGeom) hw() int64 { return numel(g.in) }
func (g convGeom) l() int64  { return numel(g.out) }
func (g convGeom) kk() int64 { return numel(g.kernel) }

// convGeometry reads the sizes from the batched views and the Ints
// (stride, padding, dilation per spatial dim, groups).
func convGeometry(x, w, y operand, spatial int, ints []int64) (convGeom, error) {
	if len(ints) != 3*spatial+1 {
		return convGeom{}, fmt.Errorf("gpuexec: conv takes %d ints, got %d", 3*spatial+1, len(ints))
	}
	if len(x.shape) != spatial+2 || len(w.shape) != spatial+2 || len(y.shape) != spatial+2 {
		return convGeom{}, errUnsupported("conv of %v with %v into %v", x.shape, w.shape, y.shape)
	}
	st, pd, dl := ints[:spatial], ints[spatial:2*spatial], ints[2*spatial:3*spatial]
	g := convGeom{n: x.shape[0], c: x.shape[1], cout: w.shape[0], cg: w.shape[1], groups: ints[3*spatial],
		in: x.shape[2:], out: y.shape[2:], kernel: w.shape[2:]}
	if g.groups < 1 || g.c != g.cg*g.groups || g.cout%g.groups != 0 || y.shape[0] != g.n || y.shape[1] != g.cout {
		return convGeom{}, errUnsupported("conv of %v with %v into %v, groups %d", x.shape, w.shape, y.shape, g.groups)
	}
	for i := range spatial {
		g.axes = append(g.axes, slidingAxis(g.in[i], g.out[i], g.kernel[i], st[i], pd[i], dl[i]))
	}
	return g, nil
}

// windows is the convolution's gather table [L, K] of flat input offsets.
func (e *Executor) windows(s *scratch, g convGeom) (operand, error) {
	vals, l, kk := windowTableN(g.axes, g.in)
	return s.table(kernels.I64, []int64{l, kk}, vals)
}

// im2col gathers cols in the layout of dst strides over (n, c, k, l).
func (e *Executor) im2col(k gpu.Kernels, s *scratch, g convGeom, xf operand, dst operand, dstStrides []int64) (operand, error) {
	tbl, err := e.windows(s, g)
	if err != nil {
		return operand{}, err
	}
	if err := e.mapOp(k, "fill", dst, nil, 0, 0); err != nil {
		return operand{}, err
	}
	hw, l, kk := g.hw(), g.l(), g.kk()
	return tbl, e.indexLaunch(k, kernels.IndexGather, dst.kt, []int64{g.n, g.c, kk, l}, dst, xf, tbl,
		[3][]int64{dstStrides, {g.c * hw, hw, 0, 0}, {0, 0, 1, kk}}, 1, hw, torch.NoSkipIndex)
}

// conv is ExecConv.
func (e *Executor) conv(k gpu.Kernels, op *torch.ExecOp, out operand, ins []operand) error {
	o, in, ints, err := optional(op, []operand{out}, ins, 1, 3)
	if err != nil {
		return err
	}
	if o[0] == nil || in[0] == nil || in[1] == nil {
		return fmt.Errorf("gpuexec: conv takes x and w")
	}
	spatial := len(in[1].shape) - 2
	xb, err := batchedConv(*in[0], spatial)
	if err != nil {
		return err
	}
	wb, _ := batchedConv(*in[1], spatial)
	yb, err := batchedConv(*o[0], spatial)
	if err != nil {
		return err
	}
	g, err := convGeometry(xb, wb, yb, spatial, ints)
	if err != nil {
		return err
	}
	return e.withScratch(out.cuda(), func(s *scratch) error {
		s.acc = redAcc(xb.kt)
		xf, err := s.asF32(k, xb)
		if err != nil {
			return err
		}
		wf, err := s.asF32(k, wb)
		if err != nil {
			return err
		}
		l, kk := g.l(), g.kk()
		cols, err := s.f32([]int64{g.n, g.c, kk, l})
		if err != nil {
			return err
		}
		if _, err := e.im2col(k, s, g, xf, cols, cols.strides); err != nil {
			return err
		}
		gk := g.cg * kk
		yf, err := s.f32([]int64{g.n, g.groups, g.cout / g.groups, l})
		if err != nil {
			return err
		}
		wv := reshaped(wf, []int64{g.groups, g.cout / g.groups, gk})
		if err := e.matmul(k, yf, []operand{wv, reshaped(cols, []int64{g.n, g.groups, gk, l})}); err != nil {
			return err
		}
		if b := in[2]; b != nil {
			bf, err := s.asF32(k, *b)
			if err != nil {
				return err
			}
			y3 := reshaped(yf, []int64{g.n, g.cout, l})
			if err := e.mapOp(k, "add", y3, []operand{y3, reshaped(bf, []int64{g.cout, 1})}, 1, 0); err != nil {
				return err
			}
		}
		return e.mapOp(k, "copy", yb, []operand{reshaped(yf, yb.shape)}, 0, 0)
	})
}

// convBack is ExecConvBack.
func (e *Executor) convBack(k gpu.Kernels, op *torch.ExecOp, out operand, ins []operand) error {
	outs, err := e.resolveOuts(op, out)
	if err != nil {
		return err
	}
	o, in, ints, err := optional(op, outs, ins, 3, 3)
	if err != nil {
		return err
	}
	if in[0] == nil || in[1] == nil || in[2] == nil {
		return fmt.Errorf("gpuexec: conv_backward takes grad, x and w")
	}
	spatial := len(in[2].shape) - 2
	gb, err := batchedConv(*in[0], spatial)
	if err != nil {
		return err
	}
	xb, err := batchedConv(*in[1], spatial)
	if err != nil {
		return err
	}
	wb, _ := batchedConv(*in[2], spatial)
	g, err := convGeometry(xb, wb, gb, spatial, ints)
	if err != nil {
		return err
	}
	l, kk := g.l(), g.kk()
	gk, cpg := g.cg*kk, g.cout/g.groups
	return e.withScratch(out.cuda(), func(s *scratch) error {
		s.acc = redAcc(gb.kt)
		gf, err := s.asF32(k, gb)
		if err != nil {
			return err
		}
		xf, err := s.asF32(k, xb)
		if err != nil {
			return err
		}
		wf, err := s.asF32(k, wb)
		if err != nil {
			return err
		}
		if dx := o[0]; dx != nil {
			dxb, err := batchedConv(*dx, spatial)
			if err != nil {
				return err
			}
			dcols, err := s.f32([]int64{g.n, g.groups, gk, l})
			if err != nil {
				return err
			}
			wv := reshaped(wf, []int64{g.groups, cpg, gk})
			if err := e.matmul(k, dcols, []operand{transposed(wv), reshaped(gf, []int64{g.n, g.groups, cpg, l})}); err != nil {
				return err
			}
			tbl, err := e.windows(s, g)
			if err != nil {
				return err
			}
			dxf, err := s.f32(xb.shape)
			if err != nil {
				return err
			}
			if err := e.mapOp(k, "fill", dxf, nil, 0, 0); err != nil {
				return err
			}
			hw := g.hw()
			if err := e.indexLaunch(k, kernels.IndexScatterAdd, dxf.kt, []int64{g.n, g.c, kk, l}, dxf, dcols, tbl,
				[3][]int64{{g.c * hw, hw, 0, 0}, contiguousStrides([]int64{g.n, g.c, kk, l}), {0, 0, 1, kk}}, 1, hw, torch.NoSkipIndex); err != nil {
				return err
			}
			if err := e.mapOp(k, "copy", dxb, []operand{dxf}, 0, 0); err != nil {
				return err
			}
		}
		if o[1] == nil && o[2] == nil {
			return nil
		}
		// grad as [Cout, N·L]
		gt, err := s.f32([]int64{g.cout, g.n, l})
		if err != nil {
			return err
		}
		gperm := gf
		gperm.shape, gperm.strides = []int64{g.cout, g.n, l}, []int64{l, g.cout * l, 1}
		if err := e.mapOp(k, "copy", gt, []operand{gperm}, 0, 0); err != nil {
			return err
		}
		if db := o[2]; db != nil {
			row, err := s.f32([]int64{g.cout})
			if err != nil {
				return err
			}
			if err := e.reduceInto(k, row, reshaped(gt, []int64{g.cout, g.n * l}), false, 1); err != nil {
				return err
			}
			if err := e.mapOp(k, "copy", *db, []operand{reshaped(row, db.shape)}, 0, 0); err != nil {
				return err
			}
		}
		dw := o[1]
		if dw == nil {
			return nil
		}
		// cols as [C·K, N·L]: strides over (n, c, k, l)
		cols, err := s.f32([]int64{g.c, kk, g.n, l})
		if err != nil {
			return err
		}
		if _, err := e.im2col(k, s, g, xf, cols, []int64{l, kk * g.n * l, g.n * l, 1}); err != nil {
			return err
		}
		dwf, err := s.f32([]int64{g.groups, cpg, gk})
		if err != nil {
			return err
		}
		cv := reshaped(cols, []int64{g.groups, gk, g.n * l})
		if err := e.matmul(k, dwf, []operand{reshaped(gt, []int64{g.groups, cpg, g.n * l}), transposed(cv)}); err != nil {
			return err
		}
		return e.mapOp(k, "copy", *dw, []operand{reshaped(dwf, dw.shape)}, 0, 0)
	})
}
