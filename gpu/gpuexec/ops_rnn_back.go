package gpuexec

import (
	"fmt"

	"github.com/gpumem/playground/gpu"
	"github.com/gpumem/playground/gpu/kernels"
	"github.com/gpumem/playground/sim/torch"
)

// rnnGrads are the backward's f32 accumulators and the outputs to fill.
type rnnGrads struct {
	dx, dhx, dcx, dw *operand // outputs (nil: not wanted)
	offs             []int64  // each weight's element offset in dw
	dy               operand  // [S, B, D·H]: grad of the current layer's output
	dhy, dcy         operand  // [L·D, B, H]
}

// rnnBack is ExecRNNBack: the forward is rerun into scratch, then each layer
// from the top walks its steps back (both directions), giving the gate
// gradients dG [S, B, G·H]; from them dW_ih = dGᵀ·X, dW_hh = dG_hᵀ·H_prev,
// the biases' row sums, and the layer input's gradient dG·W_ih (summed over
// the directions), which is the grad of the layer below.
func (e *Executor) rnnBack(k gpu.Kernels, op *torch.ExecOp, out operand, ins []operand) error {
	c, err := parseRNN(op, ins)
	if err != nil {
		return err
	}
	nGrad := 2
	if c.cx != nil {
		nGrad = 3
	}
	if len(c.rest) != nGrad || len(op.Ints) < 6 {
		return fmt.Errorf("gpuexec: rnn_backward takes the incoming gradients and the output mask")
	}
	outs, err := e.resolveOuts(op, out)
	if err != nil {
		return err
	}
	var g rnnGrads
	mask, j := op.Ints[5], 0
	for i, p := range []**operand{&g.dx, &g.dhx, &g.dcx, &g.dw} {
		if mask&(1<<i) == 0 {
			continue
		}
		if j >= len(outs) {
			return fmt.Errorf("gpuexec: rnn_backward: mask %b for %d outputs", mask, len(outs))
		}
		*p = &outs[j]
		j++
	}
	nw := len(c.w) * len(c.w[0])
	g.offs = op.Ints[6:min(len(op.Ints), 6+nw)]
	if g.dw != nil && len(g.offs) != nw {
		return fmt.Errorf("gpuexec: rnn_backward: %d weight offsets", len(g.offs))
	}
	if c.drop, err = parseRNNDrop(op, c, 6+nw); err != nil {
		return err
	}
	if g.dx != nil {
		x := timeMajor(*g.dx, c.batchFirst)
		g.dx = &x
	}
	gOut := timeMajor(c.rest[0], c.batchFirst)
	if !sameShape(gOut.shape, []int64{c.S, c.B, c.D * c.H}) {
		return errUnsupported("rnn grad_output %v", gOut.shape)
	}
	return e.withScratch(out.cuda(), func(s *scratch) error {
		var drop *sdpaDropout
		if c.drop != nil {
			if drop, err = e.rnnDropDraw(k, s, op, c, false); err != nil {
				return err
			}
		}
		r, err := e.rnnForward(k, s, c, drop)
		if err != nil {
			return err
		}
		if g.dy, err = c.conv(k, s, gOut); err != nil {
			return err
		}
		if g.dhy, err = c.conv(k, s, c.rest[1]); err != nil {
			return err
		}
		if c.cx != nil {
			if g.dcy, err = c.conv(k, s, c.rest[2]); err != nil {
				return err
			}
		}
		for l := c.L - 1; l >= 0; l-- {
			in := r.input(l)
			dIn, err := c.buf(s, in.shape)
			if err != nil {
				return err
			}
			for d := int64(0); d < c.D; d++ {
				if err := e.rnnBackLayerDir(k, s, r, &g, l, d, dIn); err != nil {
					return err
				}
			}
			if r.drop != nil && l > 0 { // through the dropout of layer l − 1's output
				if err := r.applyDrop(l-1, dIn, dIn); err != nil {
					return err
				}
				if err := r.round(dIn, "B4"); err != nil {
					return err
				}
			}
			g.dy = dIn
		}
		if g.dx != nil {
			return e.mapOp(k, "copy", *g.dx, []operand{g.dy}, 0, 0)
		}
		return nil
	})
}

// rnnBackLayerDir walks the steps of (l, d) back, writes dhx/dcx of it and
// its weights' gradients, and adds dG·W_ih into dIn.
func (e *Executor) rnnBackLayerDir(k gpu.Kernels, s *scratch, r *rnnRun, g *rnnGrads, l, d int64, dIn operand) error {
	c := r.c
	S, B, H, G := c.S, c.B, c.H, c.gates
	ld := l*c.D + d
	w := r.w[ld]
	dG, err := c.buf(s, []int64{S, B, G * H})
	if err != nil {
		return err
	}
	dGh := dG // the recurrent part's gate gradients (GRU: n's differs)
	if c.mode == torch.RNNModeGRU {
		if dGh, err = c.buf(s, []int64{S, B, G * H}); err != nil {
			return err
		}
	}
	dh, err := c.buf(s, []int64{B, H})
	if err != nil {
		return err
	}
	t1, err := c.buf(s, []int64{B, H})
	if err != nil {
		return err
	}
	t2, err := c.buf(s, []int64{B, H})
	if err != nil {
		return err
	}
	if err := e.mapOp(k, "copy", dh, []operand{r.state(g.dhy, ld)}, 0, 0); err != nil {
		return err
	}
	var dc operand
	if c.mode == torch.RNNModeLSTM {
		if dc, err = c.buf(s, []int64{B, H}); err != nil {
			return err
		}
		if err := e.mapOp(k, "copy", dc, []operand{r.state(g.dcy, ld)}, 0, 0); err != nil {
			return err
		}
	}
	dyAt := func(t int64) operand {
		return rnnWin(g.dy, t*B*c.D*H+d*H, []int64{B, H}, []int64{c.D * H, 1})
	}
	for j := S - 1; j >= 0; j-- {
		t := r.step(d, j)
		hp := r.hPrev(l, d, j)
		gt, dgt := r.rowsAt(r.gates[ld], t), r.rowsAt(dG, t)
		steps := []func() error{
			func() error { return e.mapOp(k, "add", dh, []operand{dh, dyAt(t)}, 1, 0) },
		}
		switch c.mode {
		case torch.RNNModeLSTM:
			ct, cp := r.rowsAt(r.cells[ld], t), r.cPrev(l, d, j)
			i, f, gg, o := r.gate(gt, 0, 1), r.gate(gt, 1, 1), r.gate(gt, 2, 1), r.gate(gt, 3, 1)
			di, df, dgg, do := r.gate(dgt, 0, 1), r.gate(dgt, 1, 1), r.gate(dgt, 2, 1), r.gate(dgt, 3, 1)
			steps = append(steps,
				func() error { return e.mapOp(k, "tanh", t1, []operand{ct}, 0, 0) },
				func() error { return e.mapOp(k, "mul", do, []operand{dh, t1}, 0, 0) },
				func() error { return e.mapOp(k, "sigmoid_backward", do, []operand{do, o}, 0, 0) },
				func() error { return e.mapOp(k, "mul", t2, []operand{dh, o}, 0, 0) },
				func() error { return e.mapOp(k, "tanh_backward", t2, []operand{t2, t1}, 0, 0) },
				func() error { return e.mapOp(k, "add", dc, []operand{dc, t2}, 1, 0) },
				func() error { return e.mapOp(k, "mul", di, []operand{dc, gg}, 0, 0) },
				func() error { return e.mapOp(k, "sigmoid_backward", di, []operand{di, i}, 0, 0) },
				func() error { return e.mapOp(k, "mul", dgg, []operand{dc, i}, 0, 0) },
				func() error { return e.mapOp(k, "tanh_backward", dgg, []operand{dgg, gg}, 0, 0) },
				func() error { return e.mapOp(k, "mul", df, []operand{dc, cp}, 0, 0) },
				func() error { return e.mapOp(k, "sigmoid_backward", df, []operand{df, f}, 0, 0) },
				func() error { return e.mapOp(k, "mul", dc, []operand{dc, f}, 0, 0) },
				func() error { return r.round(dgt, "B1") },
				func() error { return r.round(dc, "B3") },
				func() error { return e.matmul(k, dh, []operand{dgt, w[1]}) },
				func() error { return r.round(dh, "B2") },
			)
		case torch.RNNModeGRU:
			rr, z, n := r.gate(gt, 0, 1), r.gate(gt, 1, 1), r.gate(gt, 2, 1)
			dr, dz, dn := r.gate(dgt, 0, 1), r.gate(dgt, 1, 1), r.gate(dgt, 2, 1)
			dght := r.rowsAt(dGh, t)
			hn := r.rowsAt(r.ghn[ld], t)
			steps = append(steps,
				// dz = dh·(h − n), dn = dh·(1 − z), through the activations
				func() error { return e.mapOp(k, "sub", t1, []operand{hp, n}, 1, 0) },
				func() error { return e.mapOp(k, "mul", dz, []operand{dh, t1}, 0, 0) },
				func() error { return e.mapOp(k, "sigmoid_backward", dz, []operand{dz, z}, 0, 0) },
				func() error { return e.mapOp(k, "affine", t1, []operand{z}, -1, 1) },
				func() error { return e.mapOp(k, "mul", dn, []operand{dh, t1}, 0, 0) },
				func() error { return e.mapOp(k, "tanh_backward", dn, []operand{dn, n}, 0, 0) },
				// the recurrent n part is r·(W_hn·h + b_hn)
				func() error { return e.mapOp(k, "mul", r.gate(dght, 2, 1), []operand{dn, rr}, 0, 0) },
				func() error { return e.mapOp(k, "mul", dr, []operand{dn, hn}, 0, 0) },
				func() error { return e.mapOp(k, "sigmoid_backward", dr, []operand{dr, rr}, 0, 0) },
				func() error {
					return e.mapOp(k, "copy", r.gate(dght, 0, 2), []operand{r.gate(dgt, 0, 2)}, 0, 0)
				},
				func() error { return r.round(dgt, "B1") },
				func() error { return r.round(dght, "B1") },
				func() error { return e.mapOp(k, "mul", t2, []operand{dh, z}, 0, 0) },
				func() error { return e.matmul(k, dh, []operand{dght, w[1]}) },
				func() error { return e.mapOp(k, "add", dh, []operand{dh, t2}, 1, 0) },
				func() error { return r.round(dh, "B2") },
			)
		default:
			back := "tanh_backward"
			if c.mode == torch.RNNModeRelu {
				back = "relu_backward"
			}
			ht := r.hAt(l, d, t)
			steps = append(steps,
				func() error { return e.mapOp(k, kernels.MapOp(back), dgt, []operand{dh, ht}, 0, 0) },
				func() error { return r.round(dgt, "B1") },
				func() error { return e.matmul(k, dh, []operand{dgt, w[1]}) },
				func() error { return r.round(dh, "B2") },
			)
		}
		if err := run(steps); err != nil {
			return err
		}
	}
	if p := g.dhx; p != nil {
		if err := e.mapOp(k, "copy", rnnWin(*p, ld*p.strides[0], []int64{B, H}, p.strides[1:]), []operand{dh}, 0, 0); err != nil {
			return err
		}
	}
	if p := g.dcx; p != nil && c.mode == torch.RNNModeLSTM {
		if err := e.mapOp(k, "copy", rnnWin(*p, ld*p.strides[0], []int64{B, H}, p.strides[1:]), []operand{dc}, 0, 0); err != nil {
			return err
		}
	}
	in := r.input(l)
	dG2, in2 := reshaped(dG, []int64{S * B, G * H}), reshaped(in, []int64{S * B, in.shape[2]})
	if g.dw != nil {
		if err := e.rnnWeightGrads(k, s, r, g, l, d, dG2, reshaped(dGh, dG2.shape), in2); err != nil {
			return err
		}
	}
	dIn2 := reshaped(dIn, []int64{S * B, in.shape[2]})
	if d == 0 {
		if err := e.matmul(k, dIn2, []operand{dG2, w[0]}); err != nil {
			return err
		}
		return r.round(dIn2, "B4")
	}
	tmp, err := c.buf(s, dIn2.shape)
	if err != nil {
		return err
	}
	if err := e.matmul(k, tmp, []operand{dG2, w[0]}); err != nil {
		return err
	}
	if err := e.mapOp(k, "add", dIn2, []operand{dIn2, tmp}, 1, 0); err != nil {
		return err
	}
	return r.round(dIn2, "B4")
}

// rnnWeightGrads writes dW_ih = dGᵀ·X, dW_hh = dG_hᵀ·H_prev, db_ih = Σ dG,
// db_hh = Σ dG_h of (l, d) into their slices of dw.
func (e *Executor) rnnWeightGrads(k gpu.Kernels, s *scratch, r *rnnRun, g *rnnGrads, l, d int64, dG, dGh, in operand) error {
	c := r.c
	S, B, H := c.S, c.B, c.H
	ld := l*c.D + d
	hp, err := c.buf(s, []int64{S, B, H})
	if err != nil {
		return err
	}
	for j := int64(0); j < S; j++ {
		if err := e.mapOp(k, "copy", r.rowsAt(hp, r.step(d, j)), []operand{r.hPrev(l, d, j)}, 0, 0); err != nil {
			return err
		}
	}
	per := len(c.w[ld])
	w := r.w[ld]
	for i := 0; i < per; i++ {
		grad, err := c.buf(s, w[i].shape)
		if err != nil {
			return err
		}
		switch i {
		case 0:
			err = e.matmul(k, grad, []operand{transposed(dG), in})
		case 1:
			err = e.matmul(k, grad, []operand{transposed(dGh), reshaped(hp, []int64{S * B, H})})
		case 2:
			err = e.reduceInto(k, grad, dG, false, 0)
		case 3:
			err = e.reduceInto(k, grad, dGh, false, 0)
		}
		if err != nil {
			return err
		}
		dst := rnnWin(*g.dw, g.offs[ld*int64(per)+int64(i)], w[i].shape, contiguousStrides(w[i].shape))
		if err := e.mapOp(k, "copy", dst, []operand{grad}, 0, 0); err != nil {
			return err
		}
	}
	return nil
}
