package gpuexec

import (
	"fmt"

	"github.com/gpumem/playground/gpu"
	"github.com/gpumem/playground/gpu/kernels"
	"github.com/gpumem/playground/sim/torch"
)

// cuDNN's RNNs (nn.LSTM, nn.GRU, nn.RNN tanh/relu) composed of the matmul
// and map kernels over float32 scratch, as cuDNN computes them: per layer
// and direction the input projection x·W_ihᵀ + b_ih of every time step as
// one matmul, then per step the recurrent h·W_hhᵀ + b_hh and the gates in
// cuDNN's order (LSTM i, f, g, o; GRU r, z, n with b_hn inside r·(…)). The
// reverse direction walks time backwards; layer l > 0 reads the outputs of
// both directions of layer l − 1. The backward reruns the forward (cuDNN
// keeps it in the reserve space) and walks the steps back (BPTT).

// rnnCall is one ExecRNN/ExecRNNBack call's geometry and operands.
type rnnCall struct {
	mode, gates      int64
	kt               kernels.DType // the call's type: f16/bf16 round where cuDNN stores
	st               kernels.DType // the scratch's type: f64 for float64 calls, else f32
	bias, batchFirst bool
	L, D             int64
	S, B, I, H       int64
	x, hx            operand // x time-major [S, B, I]
	cx               *operand
	w                [][]operand  // per layer·direction: w_ih, w_hh[, b_ih, b_hh]
	rest             []operand    // the inputs after the weights
	drop             *rnnDropArgs // dropout between layers (ops_rnn_dropout.go), nil without
}

// timeMajor swaps the first two dims of a batch_first operand.
func timeMajor(x operand, batchFirst bool) operand {
	if !batchFirst || len(x.shape) != 3 {
		return x
	}
	x.shape = []int64{x.shape[1], x.shape[0], x.shape[2]}
	x.strides = []int64{x.strides[1], x.strides[0], x.strides[2]}
	return x
}

// parseRNN reads Ints[0:5] and the inputs x, hx, cx (LSTM), weights.
func parseRNN(op *torch.ExecOp, ins []operand) (*rnnCall, error) {
	if len(op.Ints) < 5 {
		return nil, fmt.Errorf("gpuexec: %s takes mode, biases, layers, bidirectional, batch_first", op.Kind)
	}
	c := &rnnCall{mode: op.Ints[0], bias: op.Ints[1] != 0, L: op.Ints[2], D: 1 + op.Ints[3], batchFirst: op.Ints[4] != 0}
	switch c.mode {
	case torch.RNNModeLSTM:
		c.gates = 4
	case torch.RNNModeGRU:
		c.gates = 3
	case torch.RNNModeTanh, torch.RNNModeRelu:
		c.gates = 1
	default:
		return nil, fmt.Errorf("gpuexec: rnn mode %d", c.mode)
	}
	per := int64(2)
	if c.bias {
		per = 4
	}
	nState := 2
	if c.mode == torch.RNNModeLSTM {
		nState = 3
	}
	nw := per * c.L * c.D
	if c.L <= 0 || int64(len(ins)) < int64(nState)+nw {
		return nil, fmt.Errorf("gpuexec: %s with %d inputs for %d layers", op.Kind, len(ins), c.L)
	}
	c.x, c.hx = timeMajor(ins[0], c.batchFirst), ins[1]
	c.kt = c.x.kt
	c.st = kernels.F32
	switch c.kt {
	case kernels.F32, kernels.F16, kernels.BF16:
	case kernels.F64:
		c.st = kernels.F64 // float64 RNNs compute in float64 (map_wide's activations)
	default:
		return nil, errUnsupported("rnn over %s", c.kt)
	}
	if nState == 3 {
		c.cx = &ins[2]
	}
	if len(c.x.shape) != 3 || len(c.hx.shape) != 3 {
		return nil, errUnsupported("rnn of %v with hidden %v", c.x.shape, c.hx.shape)
	}
	c.S, c.B, c.I = c.x.shape[0], c.x.shape[1], c.x.shape[2]
	c.H = c.hx.shape[2]
	if c.S == 0 || c.B == 0 || c.H == 0 {
		return nil, errUnsupported("rnn of an empty tensor")
	}
	for i := int64(0); i < c.L*c.D; i++ {
		ws := ins[int64(nState)+i*per : int64(nState)+(i+1)*per]
		in := c.I
		if i >= c.D {
			in = c.D * c.H
		}
		gh := c.gates * c.H
		if !sameShape(ws[0].shape, []int64{gh, in}) || !sameShape(ws[1].shape, []int64{gh, c.H}) {
			return nil, errUnsupported("rnn weights %v, %v for input %d hidden %d", ws[0].shape, ws[1].shape, in, c.H)
		}
		for _, b := range ws[2:] {
			if !sameShape(b.shape, []int64{gh}) {
				return nil, errUnsupported("rnn bias %v", b.shape)
			}
		}
		c.w = append(c.w, ws)
	}
	c.rest = ins[int64(nState)+nw:]
	if !sameShape(c.hx.shape, []int64{c.L * c.D, c.B, c.H}) || (c.cx != nil && !sameShape(c.cx.shape, c.hx.shape)) {
		return nil, errUnsupported("rnn hidden state %v", c.hx.shape)
	}
	return c, nil
}

// buf is a fresh contiguous buffer of the call's scratch type.
func (c *rnnCall) buf(s *scratch, shape []int64) (operand, error) { return s.typed(c.st, shape) }

// conv is a contiguous copy of x in the scratch type.
func (c *rnnCall) conv(k gpu.Kernels, s *scratch, x operand) (operand, error) {
	b, err := c.buf(s, x.shape)
	if err != nil {
		return operand{}, err
	}
	return b, s.e.mapOp(k, "copy", b, []operand{x}, 0, 0)
}

// convAll is xs in the scratch type (those of it as they are).
func (c *rnnCall) convAll(k gpu.Kernels, s *scratch, xs ...operand) ([]operand, error) {
	out := make([]operand, len(xs))
	for i, x := range xs {
		if x.kt == c.st {
			out[i] = x
			continue
		}
		var err error
		if out[i], err = c.conv(k, s, x); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// rnnWin is a window of x: addr advanced by off elements, shape and strides.
func rnnWin(x operand, off int64, shape, strides []int64) operand {
	x.addr += uint64(off * x.kt.Size())
	x.shape, x.strides = shape, strides
	return x
}

// rnnRun is the forward's state in f32 scratch, kept for the backward.
type rnnRun struct {
	c      *rnnCall
	e      *Executor
	k      gpu.Kernels
	s      *scratch
	half   map[int64]operand // the call's type, by element count: round's buffers
	x      operand           // [S, B, I]
	h0, c0 operand           // [L·D, B, H] (c0: LSTM)
	w      [][]operand       // f32 weights per layer·direction
	y      []operand         // per layer [S, B, D·H]: h of every step
	gates  []operand         // per layer·direction [S, B, G·H]: activated gates (RNN: pre-activations)
	cells  []operand         // LSTM, per layer·direction [S, B, H]
	ghn    []operand         // GRU, per layer·direction [S, B, H]: W_hn·h + b_hn
	drop   *sdpaDropout      // the uniforms of dropout between layers, nil without
	yd     []operand         // per layer but the last with dropout: y dropped, the next layer's input
}

// step is the time index of the j-th step of direction d.
func (r *rnnRun) step(d, j int64) int64 {
	if d == 0 {
		return j
	}
	return r.c.S - 1 - j
}

// input is layer l's input [S, B, in].
func (r *rnnRun) input(l int64) operand {
	if l == 0 {
		return r.x
	}
	if r.drop != nil {
		return r.yd[l-1]
	}
	return r.y[l-1]
}

// hAt is h of layer l, direction d at time t: [B, H] in y.
func (r *rnnRun) hAt(l, d, t int64) operand {
	c := r.c
	return rnnWin(r.y[l], t*c.B*c.D*c.H+d*c.H, []int64{c.B, c.H}, []int64{c.D * c.H, 1})
}

// state is row ld of a [L·D, B, H] f32 buffer.
func (r *rnnRun) state(buf operand, ld int64) operand {
	c := r.c
	return rnnWin(buf, ld*c.B*c.H, []int64{c.B, c.H}, []int64{c.H, 1})
}

// hPrev is the h before the j-th step of (l, d): h0 or the previous step's.
func (r *rnnRun) hPrev(l, d, j int64) operand {
	if j == 0 {
		return r.state(r.h0, l*r.c.D+d)
	}
	return r.hAt(l, d, r.step(d, j-1))
}

// cPrev is the cell state before the j-th step (LSTM).
func (r *rnnRun) cPrev(l, d, j int64) operand {
	if j == 0 {
		return r.state(r.c0, l*r.c.D+d)
	}
	return r.rowsAt(r.cells[l*r.c.D+d], r.step(d, j-1))
}

// rowsAt is time t of a contiguous [S, B, W] buffer: [B, W].
func (r *rnnRun) rowsAt(buf operand, t int64) operand {
	b, w := buf.shape[1], buf.shape[2]
	return rnnWin(buf, t*b*w, []int64{b, w}, []int64{w, 1})
}

// gate is columns [g·H, (g+n)·H) of a [B, G·H] window.
func (r *rnnRun) gate(x operand, g, n int64) operand {
	h := r.c.H
	return rnnWin(x, g*h, []int64{x.shape[0], n * h}, x.strides)
}

// rnnForward runs every layer and direction into f32 scratch.
// drop (nil without dropout) holds the uniforms of rnnDropDraw.
func (e *Executor) rnnForward(k gpu.Kernels, s *scratch, c *rnnCall, drop *sdpaDropout) (*rnnRun, error) {
	r := &rnnRun{c: c, e: e, k: k, s: s, drop: drop}
	var err error
	if r.x, err = c.conv(k, s, c.x); err != nil {
		return nil, err
	}
	if r.h0, err = c.conv(k, s, c.hx); err != nil {
		return nil, err
	}
	if c.cx != nil {
		if r.c0, err = c.conv(k, s, *c.cx); err != nil {
			return nil, err
		}
	}
	for _, ws := range c.w {
		w32, err := c.convAll(k, s, ws...)
		if err != nil {
			return nil, err
		}
		r.w = append(r.w, w32)
	}
	S, B, H, G := c.S, c.B, c.H, c.gates
	gh, err := c.buf(s, []int64{B, G * H})
	if err != nil {
		return nil, err
	}
	for l := int64(0); l < c.L; l++ {
		y, err := c.buf(s, []int64{S, B, c.D * H})
		if err != nil {
			return nil, err
		}
		r.y = append(r.y, y)
		in := r.input(l)
		for d := int64(0); d < c.D; d++ {
			g, err := c.buf(s, []int64{S, B, G * H})
			if err != nil {
				return nil, err
			}
			r.gates = append(r.gates, g)
			var cells, ghn operand
			switch c.mode {
			case torch.RNNModeLSTM:
				cells, err = c.buf(s, []int64{S, B, H})
			case torch.RNNModeGRU:
				ghn, err = c.buf(s, []int64{S, B, H})
			}
			if err != nil {
				return nil, err
			}
			r.cells, r.ghn = append(r.cells, cells), append(r.ghn, ghn)
			if err := e.rnnLayerDir(k, r, l, d, in, gh); err != nil {
				return nil, err
			}
		}
		if r.drop != nil && l < c.L-1 {
			yd, err := c.buf(s, y.shape)
			if err != nil {
				return nil, err
			}
			if err := r.applyDrop(l, yd, y); err != nil {
				return nil, err
			}
			if err := r.round(yd, "F5"); err != nil {
				return nil, err
			}
			r.yd = append(r.yd, yd)
		}
	}
	return r, nil
}

// rnnLayerDir is the forward of layer l, direction d over every step.
func (e *Executor) rnnLayerDir(k gpu.Kernels, r *rnnRun, l, d int64, in operand, gh operand) error {
	c := r.c
	S, B, H, G := c.S, c.B, c.H, c.gates
	ld := l*c.D + d
	w := r.w[ld]
	g := r.gates[ld]
	if err := e.matmul(k, reshaped(g, []int64{S * B, G * H}), []operand{reshaped(in, []int64{S * B, in.shape[2]}), transposed(w[0])}); err != nil {
		return err
	}
	if err := r.round(g, "F1"); err != nil {
		return err
	}
	if c.bias {
		if err := e.mapOp(k, "add", g, []operand{g, w[2]}, 1, 0); err != nil {
			return err
		}
		if c.mode != torch.RNNModeGRU { // GRU adds b_hh to the recurrent part (b_hn inside r·(…))
			if err := e.mapOp(k, "add", g, []operand{g, w[3]}, 1, 0); err != nil {
				return err
			}
		}
	}
	for j := int64(0); j < S; j++ {
		t := r.step(d, j)
		hp := r.hPrev(l, d, j)
		if err := e.matmul(k, gh, []operand{hp, transposed(w[1])}); err != nil {
			return err
		}
		if err := r.round(gh, "F2"); err != nil {
			return err
		}
		gt, ht := r.rowsAt(g, t), r.hAt(l, d, t)
		var steps []func() error
		switch c.mode {
		case torch.RNNModeLSTM:
			ct, cp := r.rowsAt(r.cells[ld], t), r.cPrev(l, d, j)
			i, f, gg, o := r.gate(gt, 0, 1), r.gate(gt, 1, 1), r.gate(gt, 2, 1), r.gate(gt, 3, 1)
			steps = []func() error{
				func() error { return e.mapOp(k, "add", gt, []operand{gt, gh}, 1, 0) },
				func() error { return e.mapOp(k, "sigmoid", r.gate(gt, 0, 2), []operand{r.gate(gt, 0, 2)}, 0, 0) },
				func() error { return e.mapOp(k, "tanh", gg, []operand{gg}, 0, 0) },
				func() error { return e.mapOp(k, "sigmoid", o, []operand{o}, 0, 0) },
				func() error { return r.round(gt, "F3") },
				func() error { return e.mapOp(k, "mul", ct, []operand{f, cp}, 0, 0) },
				func() error { return e.mapOp(k, "addcmul", ct, []operand{ct, i, gg}, 1, 0) },
				func() error { return r.round(ct, "F4") },
				func() error { return e.mapOp(k, "tanh", ht, []operand{ct}, 0, 0) },
				func() error { return e.mapOp(k, "mul", ht, []operand{ht, o}, 0, 0) },
				func() error { return r.round(ht, "F5") },
			}
		case torch.RNNModeGRU:
			rz, n := r.gate(gt, 0, 2), r.gate(gt, 2, 1)
			rr, z := r.gate(gt, 0, 1), r.gate(gt, 1, 1)
			hn := r.rowsAt(r.ghn[ld], t)
			if c.bias {
				steps = append(steps, func() error { return e.mapOp(k, "add", gh, []operand{gh, w[3]}, 1, 0) })
			}
			steps = append(steps,
				func() error { return e.mapOp(k, "add", rz, []operand{rz, r.gate(gh, 0, 2)}, 1, 0) },
				func() error { return e.mapOp(k, "sigmoid", rz, []operand{rz}, 0, 0) },
				func() error { return e.mapOp(k, "copy", hn, []operand{r.gate(gh, 2, 1)}, 0, 0) },
				func() error { return e.mapOp(k, "addcmul", n, []operand{n, rr, hn}, 1, 0) },
				func() error { return e.mapOp(k, "tanh", n, []operand{n}, 0, 0) },
				func() error { return r.round(gt, "F3") },
				// h' = (1 − z)·n + z·h = n + z·(h − n)
				func() error { return e.mapOp(k, "sub", ht, []operand{hp, n}, 1, 0) },
				func() error { return e.mapOp(k, "mul", ht, []operand{ht, z}, 0, 0) },
				func() error { return e.mapOp(k, "add", ht, []operand{ht, n}, 1, 0) },
				func() error { return r.round(ht, "F5") },
			)
		default:
			act := kernels.MapOp("tanh")
			if c.mode == torch.RNNModeRelu {
				act = "relu"
			}
			steps = []func() error{
				func() error { return e.mapOp(k, "add", gt, []operand{gt, gh}, 1, 0) },
				func() error { return r.round(gt, "F3") },
				func() error { return e.mapOp(k, act, ht, []operand{gt}, 0, 0) },
				func() error { return r.round(ht, "F5") },
			}
		}
		if err := run(steps); err != nil {
			return err
		}
	}
	return nil
}

// rnnLast is the step index of direction d's last step.
func (r *rnnRun) last(d int64) int64 { return r.step(d, r.c.S-1) }

// writeState copies the [B, H] state of each layer·direction into row ld
// of out ([L·D, B, H], any layout and type).
func (e *Executor) rnnWriteState(k gpu.Kernels, out operand, at func(l, d int64) operand, c *rnnCall) error {
	for l := int64(0); l < c.L; l++ {
		for d := int64(0); d < c.D; d++ {
			ld := l*c.D + d
			dst := rnnWin(out, ld*out.strides[0], []int64{c.B, c.H}, out.strides[1:])
			if err := e.mapOp(k, "copy", dst, []operand{at(l, d)}, 0, 0); err != nil {
				return err
			}
		}
	}
	return nil
}

// rnn is ExecRNN: output, hy and cy from the forward.
func (e *Executor) rnn(k gpu.Kernels, op *torch.ExecOp, out operand, ins []operand) error {
	c, err := parseRNN(op, ins)
	if err != nil {
		return err
	}
	if c.drop, err = parseRNNDrop(op, c, 5); err != nil {
		return err
	}
	outs, err := e.resolveOuts(op, out)
	if err != nil {
		return err
	}
	if len(outs) < 2 || (c.cx != nil && len(outs) < 3) {
		return fmt.Errorf("gpuexec: rnn takes output, hy (and cy)")
	}
	y := timeMajor(outs[0], c.batchFirst)
	if !sameShape(y.shape, []int64{c.S, c.B, c.D * c.H}) {
		return errUnsupported("rnn output %v", y.shape)
	}
	return e.withScratch(out.cuda(), func(s *scratch) error {
		var drop *sdpaDropout
		if c.drop != nil {
			if drop, err = e.rnnDropDraw(k, s, op, c, true); err != nil {
				return err
			}
		}
		r, err := e.rnnForward(k, s, c, drop)
		if err != nil {
			return err
		}
		if err := e.mapOp(k, "copy", y, []operand{r.y[c.L-1]}, 0, 0); err != nil {
			return err
		}
		if err := e.rnnWriteState(k, outs[1], func(l, d int64) operand { return r.hAt(l, d, r.last(d)) }, c); err != nil {
			return err
		}
		if c.cx == nil {
			return nil
		}
		return e.rnnWriteState(k, outs[2], func(l, d int64) operand {
			return r.rowsAt(r.cells[l*c.D+d], r.last(d))
		}, c)
	})
}

// execRNN dispatches the kinds of this file; handled is false for others.
func (e *Executor) execRNN(k gpu.Kernels, op *torch.ExecOp, out operand, ins []operand) (handled bool, err error) {
	switch op.Kind {
	case torch.ExecRNN:
		return true, e.rnn(k, op, out, ins)
	case torch.ExecRNNBack:
		return true, e.rnnBack(k, op, out, ins)
	}
	return false, nil
}
