package gpuexec

import (
	"fmt"
	"math"

	"github.com/gpumem/playground/gpu"
	"github.com/gpumem/playground/gpu/kernels"
	"github.com/gpumem/playground/sim/torch"
)

// The neural-network ops (layer_norm, embedding and indexing, cat/stack,
// attention), composed of the map, row, matmul and index kernels over
// float32 scratch buffers: every intermediate is in f32, as PyTorch's
// opmath, and the result is converted into the output's type and layout
// by the strided copy.

// scratch holds the temporaries of one op; free waits for the device
// before it frees them.
type scratch struct {
	e    *Executor
	cuda bool
	ts   []temp
	// acc, if kernels.F64, makes f32 and asF32 give float64 buffers: the
	// ops that compute float64 operands in float64 set it (redAcc).
	acc kernels.DType
}

// f32 is a fresh contiguous float32 buffer of shape (float64 when acc is).
func (s *scratch) f32(shape []int64) (operand, error) {
	if s.acc == kernels.F64 {
		return s.typed(kernels.F64, shape)
	}
	return s.typed(kernels.F32, shape)
}

func (s *scratch) typed(kt kernels.DType, shape []int64) (operand, error) {
	t, err := s.e.tempAlloc(s.cuda, numel(shape)*kt.Size())
	if err != nil {
		return operand{}, err
	}
	s.ts = append(s.ts, t)
	return tempOperand(t, kt, shape), nil
}

// asF32 is x converted to a contiguous float32 copy (x's shape).
func (s *scratch) asF32(k gpu.Kernels, x operand) (operand, error) {
	c, err := s.f32(x.shape)
	if err != nil {
		return operand{}, err
	}
	return c, s.e.mapOp(k, "copy", c, []operand{x}, 0, 0)
}

func (s *scratch) free() error {
	if len(s.ts) == 0 {
		return nil
	}
	err := s.e.syncIf(s.cuda)
	for _, t := range s.ts {
		if ferr := s.e.tempFree(t); err == nil {
			err = ferr
		}
	}
	s.ts = nil
	return err
}

// withScratch runs fn with a scratch on out's side and frees it after.
func (e *Executor) withScratch(cuda bool, fn func(s *scratch) error) (err error) {
	s := &scratch{e: e, cuda: cuda}
	defer func() {
		if ferr := s.free(); err == nil {
			err = ferr
		}
	}()
	return fn(s)
}

// reshaped is a contiguous operand seen with another shape of the same size.
func reshaped(x operand, shape []int64) operand {
	x.shape, x.strides = shape, contiguousStrides(shape)
	return x
}

// transposed swaps x's last two dimensions (a view).
func transposed(x operand) operand {
	r := len(x.shape)
	sh, st := append([]int64(nil), x.shape...), append([]int64(nil), x.strides...)
	sh[r-2], sh[r-1] = sh[r-1], sh[r-2]
	st[r-2], st[r-1] = st[r-1], st[r-2]
	x.shape, x.strides = sh, st
	return x
}

// reduceInto writes the sum (or mean) of in over dims into the contiguous out.
func (e *Executor) reduceInto(k gpu.Kernels, out, in operand, mean bool, dims ...int64) error {
	kind := torch.ExecSum
	if mean {
		kind = torch.ExecMean
	}
	return e.reduce(k, &torch.ExecOp{Kind: kind, Ints: dims}, out, []operand{in})
}

// optional splits the two presence masks off op.Ints (see torch.ExecLayerNorm)
// and returns, for each of nOut outputs and nIn inputs, the operand or nil.
func optional(op *torch.ExecOp, out []operand, ins []operand, nOut, nIn int) ([]*operand, []*operand, []int64, error) {
	if len(op.Ints) < 2 {
		return nil, nil, nil, fmt.Errorf("gpuexec: %s without operand masks", op.Kind)
	}
	om, im := op.Ints[len(op.Ints)-2], op.Ints[len(op.Ints)-1]
	pick := func(mask int64, ops []operand, n int) ([]*operand, error) {
		res := make([]*operand, n)
		j := 0
		for i := 0; i < n; i++ {
			if mask&(1<<i) == 0 {
				continue
			}
			if j >= len(ops) {
				return nil, fmt.Errorf("gpuexec: %s: mask %b for %d operands", op.Kind, mask, len(ops))
			}
			res[i] = &ops[j]
			j++
		}
		if j != len(ops) {
			return nil, fmt.Errorf("gpuexec: %s: mask %b for %d operands", op.Kind, mask, len(ops))
		}
		return res, nil
	}
	o, err := pick(om, out, nOut)
	if err != nil {
		return nil, nil, nil, err
	}
	i, err := pick(im, ins, nIn)
	if err != nil {
		return nil, nil, nil, err
	}
	return o, i, op.Ints[:len(op.Ints)-2], nil
}

// resolveOuts resolves every output of op (out[0] is already resolved).
func (e *Executor) resolveOuts(op *torch.ExecOp, first operand) ([]operand, error) {
	outs := []operand{first}
	for _, t := range op.Out[1:] {
		o, err := e.resolve(t)
		if err != nil {
			return nil, err
		}
		if o.cuda() != first.cuda() {
			return nil, errUnsupported("%s: outputs on two devices", op.Kind)
		}
		outs = append(outs, o)
	}
	return outs, nil
}

// layerNorm is native_layer_norm: two-pass mean and variance per row in f32.
func (e *Executor) layerNorm(k gpu.Kernels, op *torch.ExecOp, out operand, ins []operand) error {
	outs, err := e.resolveOuts(op, out)
	if err != nil {
		return err
	}
	o, in, ints, err := optional(op, outs, ins, 3, 3)
	if err != nil {
		return err
	}
	if o[0] == nil || in[0] == nil || len(ints) < 1 || len(op.Scalars) < 1 {
		return fmt.Errorf("gpuexec: layer_norm takes x, k and eps")
	}
	x, w, b := *in[0], in[1], in[2]
	rows, d, err := normRows(x.shape, ints[0])
	if err != nil {
		return err
	}
	eps := op.Scalars[0]
	return e.withScratch(out.cuda(), func(s *scratch) error {
		s.acc = redAcc(x.kt)
		xs, err := s.asF32(k, x)
		if err != nil {
			return err
		}
		xs = reshaped(xs, []int64{rows, d})
		mean, err := s.f32([]int64{rows, 1})
		if err != nil {
			return err
		}
		rstd, err := s.f32([]int64{rows, 1})
		if err != nil {
			return err
		}
		sq, err := s.f32([]int64{rows, d})
		if err != nil {
			return err
		}
		steps := []func() error{
			func() error { return e.reduceInto(k, mean, xs, true, 1) },
			func() error { return e.mapOp(k, "sub", xs, []operand{xs, mean}, 1, 0) },
			func() error { return e.mapOp(k, "square", sq, []operand{xs}, 0, 0) },
			func() error { return e.reduceInto(k, rstd, sq, true, 1) },
			func() error { return e.mapOp64(k, "affine", rstd, []operand{rstd}, 1, opScale(rstd.kt, eps)) },
			func() error { return e.mapOp(k, "rsqrt", rstd, []operand{rstd}, 0, 0) },
			func() error { return e.mapOp(k, "mul", xs, []operand{xs, rstd}, 0, 0) },
		}
		if err := run(steps); err != nil {
			return err
		}
		for i, p := range []*operand{w, b} {
			if p == nil {
				continue
			}
			p32, err := s.asF32(k, *p)
			if err != nil {
				return err
			}
			p32 = reshaped(p32, []int64{d})
			if i == 0 {
				err = e.mapOp(k, "mul", xs, []operand{xs, p32}, 0, 0)
			} else {
				err = e.mapOp(k, "add", xs, []operand{xs, p32}, 1, 0)
			}
			if err != nil {
				return err
			}
		}
		if err := e.mapOp(k, "copy", *o[0], []operand{reshaped(xs, o[0].shape)}, 0, 0); err != nil {
			return err
		}
		// mean and rstd (the reduce's mean was overwritten by nothing).
		for i, st := range []operand{mean, rstd} {
			if p := o[1+i]; p != nil {
				if err := e.mapOp(k, "copy", *p, []operand{reshaped(st, p.shape)}, 0, 0); err != nil {
					return err
				}
			}
		}
		return nil
	})
}

// normRows is the [rows, d] view of layer_norm over the last k dims.
func normRows(shape []int64, k int64) (rows, d int64, err error) {
	r := int64(len(shape))
	if k < 0 || k > r {
		return 0, 0, fmt.Errorf("gpuexec: layer_norm over %d of %d dims", k, r)
	}
	rows, d = numel(shape[:r-k]), numel(shape[r-k:])
	if rows == 0 || d == 0 {
		return 0, 0, errUnsupported("layer_norm of an empty tensor")
	}
	return rows, d, nil
}

func run(steps []func() error) error {
	for _, f := range steps {
		if err := f(); err != nil {
			return err
		}
	}
	return nil
}

// layerNormBack is native_layer_norm_backward from the saved mean and rstd:
// x̂ = (x−mean)·rstd, gy = g·w, grad_x = rstd·(gy − mean(gy) − x̂·mean(gy·x̂)),
// grad_w = Σ_rows g·x̂, grad_b = Σ_rows g.
func (e *Executor) layerNormBack(k gpu.Kernels, op *torch.ExecOp, out operand, ins []operand) error {
	outs, err := e.resolveOuts(op, out)
	if err != nil {
		return err
	}
	o, in, ints, err := optional(op, outs, ins, 3, 5)
	if err != nil {
		return err
	}
	if in[0] == nil || in[1] == nil || in[2] == nil || in[3] == nil || len(ints) < 1 {
		return fmt.Errorf("gpuexec: layer_norm_backward takes grad, x, mean, rstd and k")
	}
	rows, d, err := normRows(in[1].shape, ints[0])
	if err != nil {
		return err
	}
	return e.withScratch(out.cuda(), func(s *scratch) error {
		s.acc = redAcc(in[1].kt)
		var f [4]operand // g, x, mean, rstd in f32 (float64 for float64)
		for i := range f {
			c, err := s.asF32(k, *in[i])
			if err != nil {
				return err
			}
			f[i] = c
		}
		g, x := reshaped(f[0], []int64{rows, d}), reshaped(f[1], []int64{rows, d})
		mean, rstd := reshaped(f[2], []int64{rows, 1}), reshaped(f[3], []int64{rows, 1})
		t, err := s.f32([]int64{rows, d})
		if err != nil {
			return err
		}
		if err := run([]func() error{
			func() error { return e.mapOp(k, "sub", x, []operand{x, mean}, 1, 0) },
			func() error { return e.mapOp(k, "mul", x, []operand{x, rstd}, 0, 0) },
		}); err != nil {
			return err
		}
		row, err := s.f32([]int64{d})
		if err != nil {
			return err
		}
		if p := o[2]; p != nil { // grad_bias
			if err := e.reduceInto(k, row, g, false, 0); err != nil {
				return err
			}
			if err := e.mapOp(k, "copy", *p, []operand{reshaped(row, p.shape)}, 0, 0); err != nil {
				return err
			}
		}
		if p := o[1]; p != nil { // grad_weight
			if err := e.mapOp(k, "mul", t, []operand{g, x}, 0, 0); err != nil {
				return err
			}
			if err := e.reduceInto(k, row, t, false, 0); err != nil {
				return err
			}
			if err := e.mapOp(k, "copy", *p, []operand{reshaped(row, p.shape)}, 0, 0); err != nil {
				return err
			}
		}
		p := o[0]
		if p == nil {
			return nil
		}
		if w := in[4]; w != nil {
			w32, err := s.asF32(k, *w)
			if err != nil {
				return err
			}
			if err := e.mapOp(k, "mul", g, []operand{g, reshaped(w32, []int64{d})}, 0, 0); err != nil {
				return err
			}
		}
		a, err := s.f32([]int64{rows, 1})
		if err != nil {
			return err
		}
		bb, err := s.f32([]int64{rows, 1})
		if err != nil {
			return err
		}
		return run([]func() error{
			func() error { return e.reduceInto(k, a, g, true, 1) },
			func() error { return e.mapOp(k, "mul", t, []operand{g, x}, 0, 0) },
			func() error { return e.reduceInto(k, bb, t, true, 1) },
			func() error { return e.mapOp(k, "mul", t, []operand{x, bb}, 0, 0) },
			func() error { return e.mapOp(k, "sub", g, []operand{g, a}, 1, 0) },
			func() error { return e.mapOp(k, "sub", g, []operand{g, t}, 1, 0) },
			func() error { return e.mapOp(k, "mul", g, []operand{g, rstd}, 0, 0) },
			func() error { return e.mapOp(k, "copy", *p, []operand{reshaped(g, p.shape)}, 0, 0) },
		})
	})
}

// cat copies every input into its window of the output (stack: a new dim).
func (e *Executor) cat(k gpu.Kernels, op *torch.ExecOp, out operand, ins []operand) error {
	if len(op.Ints) < 2 {
		return fmt.Errorf("gpuexec: cat takes a dim and the stack flag")
	}
	d, stack := int(op.Ints[0]), op.Ints[1] == 1
	if d < 0 || d >= len(out.shape) {
		return fmt.Errorf("gpuexec: cat along dim %d of %v", d, out.shape)
	}
	size := uint64(out.kt.Size())
	off := int64(0)
	for i, in := range ins {
		w := out
		if stack {
			w.shape = append(append([]int64{}, out.shape[:d]...), out.shape[d+1:]...)
			w.strides = append(append([]int64{}, out.strides[:d]...), out.strides[d+1:]...)
			w.addr = out.addr + uint64(int64(i)*out.strides[d])*size
		} else {
			if len(in.shape) != len(out.shape) {
				if numel(in.shape) == 0 {
					continue // the legacy empty 1-d tensor cat skips
				}
				return errUnsupported("cat of %v into %v", in.shape, out.shape)
			}
			w.shape = append([]int64{}, out.shape...)
			w.shape[d] = in.shape[d]
			w.addr = out.addr + uint64(off*out.strides[d])*size
			off += in.shape[d]
		}
		if !sameShape(w.shape, in.shape) {
			return errUnsupported("cat of %v into a window %v", in.shape, w.shape)
		}
		if err := e.mapOp(k, "copy", w, []operand{in}, 0, 0); err != nil {
			return err
		}
	}
	return nil
}

// sdpaInputs checks the attention operands: q [B,H,L,E], k [B,H,S,E],
// v [B,H,S,Ev] with the same B, H.
func sdpaInputs(q, kk, v operand) error {
	if len(q.shape) != 4 || len(kk.shape) != 4 || len(v.shape) != 4 {
		return errUnsupported("attention of %d-d inputs", len(q.shape))
	}
	for i := 0; i < 2; i++ {
		if q.shape[i] != kk.shape[i] || q.shape[i] != v.shape[i] {
			return errUnsupported("attention with broadcast batch dims %v %v %v", q.shape, kk.shape, v.shape)
		}
	}
	if q.shape[3] != kk.shape[3] || kk.shape[2] != v.shape[2] {
		return errUnsupported("attention shapes %v %v %v", q.shape, kk.shape, v.shape)
	}
	return nil
}

// attnProbs computes P = softmax(Q·Kᵀ·scale + mask) [B,H,L,S] in f32 (q and
// k already f32).
func (e *Executor) attnProbs(k gpu.Kernels, s *scratch, q, kk operand, mask *operand, causal bool, scale float32) (operand, error) {
	b, h, l, sl := q.shape[0], q.shape[1], q.shape[2], kk.shape[2]
	p, err := s.f32([]int64{b, h, l, sl})
	if err != nil {
		return operand{}, err
	}
	if err := e.matmul(k, p, []operand{q, transposed(kk)}); err != nil {
		return operand{}, err
	}
	if err := e.mapOp(k, "affine", p, []operand{p}, scale, 0); err != nil {
		return operand{}, err
	}
	if mask != nil {
		m, err := s.asF32(k, *mask)
		if err != nil {
			return operand{}, err
		}
		if err := e.mapOp(k, "add", p, []operand{p, m}, 1, 0); err != nil {
			return operand{}, err
		}
	}
	if causal {
		vals := make([]float64, l*sl)
		for i := int64(0); i < l; i++ {
			for j := i + 1; j < sl; j++ {
				vals[i*sl+j] = math.Inf(-1)
			}
		}
		m, err := s.f32([]int64{l, sl})
		if err != nil {
			return operand{}, err
		}
		if err := e.values(m, vals); err != nil {
			return operand{}, err
		}
		if err := e.mapOp(k, "add", p, []operand{p, m}, 1, 0); err != nil {
			return operand{}, err
		}
	}
	return p, e.softmax(k, &torch.ExecOp{Kind: torch.ExecSoftmax, Ints: []int64{3}}, p, []operand{p})
}

// matmulInto is out = a·b, through an f32 buffer when out is not f32.
func (e *Executor) matmulInto(k gpu.Kernels, s *scratch, out, a, b operand) error {
	if out.kt == kernels.F32 {
		return e.matmul(k, out, []operand{a, b})
	}
	c, err := s.f32(out.shape)
	if err != nil {
		return err
	}
	if err := e.matmul(k, c, []operand{a, b}); err != nil {
		return err
	}
	return e.mapOp(k, "copy", out, []operand{c}, 0, 0)
}

// f32All converts operands to f32 (f32 ones are used as they are).
func (s *scratch) f32All(k gpu.Kernels, xs ...operand) ([]operand, error) {
	out := make([]operand, len(xs))
	for i, x := range xs {
		if x.kt == kernels.F32 {
			out[i] = x
			continue
		}
		c, err := s.asF32(k, x)
		if err != nil {
			return nil, err
		}
		out[i] = c
	}
	return out, nil
}

// sdpaDropout is the keep mask of SDPA's dropout (ints[1] set; p =
// Scalars[1]): a uniform [0, 1) f32 draw over the probabilities' shape from
// the generator at seed, offset (the forward takes the executor's and
// advances it, reporting them in op.Ints[2], op.Ints[3]; the backward
// passes them back). apply scales x by mask/(1 − p) into dst.
type sdpaDropout struct {
	u           operand
	keep, scale float32
}

// sdpaDraw draws the dropout uniforms for op, or returns nil without
// dropout: the math path's native_dropout over the [B,H,L,S] probabilities
// (a fresh tensor of the query's type), from the CUDA generator. The forward
// takes the generator's offset and reports (seed, offset) in Ints[2:4]; the
// backward passes them again and draws the same numbers.
func (e *Executor) sdpaDraw(k gpu.Kernels, s *scratch, op *torch.ExecOp, ints []int64, shape []int64, forward bool) (*sdpaDropout, error) {
	if len(ints) < 2 || ints[1] == 0 {
		return nil, nil
	}
	if len(ints) < 4 || len(op.Scalars) < 2 || len(op.In) == 0 {
		return nil, fmt.Errorf("gpuexec: %s with dropout takes seed, offset and p", op.Kind)
	}
	p := op.Scalars[1]
	if p <= 0 || p >= 1 {
		return nil, errUnsupported("attention dropout p = %v", p)
	}
	t, ok := kernelType(op.In[0].DType)
	if !ok || !op.In[0].CUDA {
		return nil, errUnsupported("attention dropout of %s", op.In[0].DType)
	}
	u, err := s.f32(shape)
	if err != nil {
		return nil, err
	}
	n := numel(shape)
	threads, err := e.launchThreads(k, n)
	if err != nil {
		return nil, err
	}
	g := kernels.PhiloxArgs{Seed: uint64(ints[2]), Offset: uint64(ints[3]), Threads: threads}
	if forward {
		g.Seed, g.Offset = e.cuda.seed, e.cuda.take(uint64(((n-1)/(threads*4)+1)*4))
		op.Ints[2], op.Ints[3] = int64(g.Seed), int64(g.Offset)
	}
	if v := dropoutVec(t, 0, n); v > 1 {
		g.Vec = v
	}
	if err := k.Philox(kernels.PhiloxRaw, kernels.F32, u.addr, n, g); err != nil {
		return nil, err
	}
	keep, scale := dropoutScale(p)
	return &sdpaDropout{u: u, keep: keep, scale: scale}, nil
}

// apply is dst = x·[u < 1 − p]/(1 − p) (dst may be x).
func (d *sdpaDropout) apply(e *Executor, k gpu.Kernels, dst, x operand) error {
	return e.mapOp(k, "dropout", dst, []operand{x, d.u}, d.keep, d.scale)
}

// sdpa is dropout(softmax(Q·Kᵀ·scale + mask))·V.
func (e *Executor) sdpa(k gpu.Kernels, op *torch.ExecOp, out operand, ins []operand) error {
	o, in, ints, err := optional(op, []operand{out}, ins, 1, 4)
	if err != nil {
		return err
	}
	if o[0] == nil || in[0] == nil || in[1] == nil || in[2] == nil || len(ints) < 1 || len(op.Scalars) < 1 {
		return fmt.Errorf("gpuexec: sdpa takes q, k, v, is_causal and scale")
	}
	if err := sdpaInputs(*in[0], *in[1], *in[2]); err != nil {
		return err
	}
	return e.withScratch(out.cuda(), func(s *scratch) error {
		f, err := s.f32All(k, *in[0], *in[1], *in[2])
		if err != nil {
			return err
		}
		p, err := e.attnProbs(k, s, f[0], f[1], in[3], ints[0] != 0, float32(op.Scalars[0]))
		if err != nil {
			return err
		}
		drop, err := e.sdpaDraw(k, s, op, ints, p.shape, true)
		if err != nil {
			return err
		}
		if drop != nil {
			if err := drop.apply(e, k, p, p); err != nil {
				return err
			}
		}
		return e.matmulInto(k, s, out, p, f[2])
	})
}

// sdpaBack recomputes P and computes dV = Pᵀ·dO, dS = P∘(dP − Σ dP∘P) with
// dP = dO·Vᵀ, dQ = dS·K·scale, dK = dSᵀ·Q·scale. With dropout (the
// forward's seed and offset) Pd = dropout(P) replaces P in dV and dP is
// dropout(dO·Vᵀ) with the same mask.
func (e *Executor) sdpaBack(k gpu.Kernels, op *torch.ExecOp, out operand, ins []operand) error {
	outs, err := e.resolveOuts(op, out)
	if err != nil {
		return err
	}
	o, in, ints, err := optional(op, outs, ins, 3, 5)
	if err != nil {
		return err
	}
	for i := 0; i < 4; i++ {
		if in[i] == nil {
			return fmt.Errorf("gpuexec: sdpa_backward takes grad, q, k, v")
		}
	}
	if len(ints) < 1 || len(op.Scalars) < 1 {
		return fmt.Errorf("gpuexec: sdpa_backward takes is_causal and scale")
	}
	if err := sdpaInputs(*in[1], *in[2], *in[3]); err != nil {
		return err
	}
	scale := float32(op.Scalars[0])
	return e.withScratch(out.cuda(), func(s *scratch) error {
		f, err := s.f32All(k, *in[0], *in[1], *in[2], *in[3])
		if err != nil {
			return err
		}
		g, q, kk, v := f[0], f[1], f[2], f[3]
		p, err := e.attnProbs(k, s, q, kk, in[4], ints[0] != 0, scale)
		if err != nil {
			return err
		}
		drop, err := e.sdpaDraw(k, s, op, ints, p.shape, false)
		if err != nil {
			return err
		}
		pd := p
		if drop != nil {
			if pd, err = s.f32(p.shape); err != nil {
				return err
			}
			if err := drop.apply(e, k, pd, p); err != nil {
				return err
			}
		}
		if dv := o[2]; dv != nil {
			if err := e.matmulInto(k, s, *dv, transposed(pd), g); err != nil {
				return err
			}
		}
		if o[0] == nil && o[1] == nil {
			return nil
		}
		ds, err := s.f32(p.shape)
		if err != nil {
			return err
		}
		if err := e.matmul(k, ds, []operand{g, transposed(v)}); err != nil {
			return err
		}
		if drop != nil {
			if err := drop.apply(e, k, ds, ds); err != nil {
				return err
			}
		}
		if err := e.softmax(k, &torch.ExecOp{Kind: torch.ExecSoftmaxBack, Ints: []int64{3}}, ds, []operand{ds, p}); err != nil {
			return err
		}
		if err := e.mapOp(k, "affine", ds, []operand{ds}, scale, 0); err != nil {
			return err
		}
		if dq := o[0]; dq != nil {
			if err := e.matmulInto(k, s, *dq, ds, kk); err != nil {
				return err
			}
		}
		if dk := o[1]; dk != nil {
			return e.matmulInto(k, s, *dk, transposed(ds), q)
		}
		return nil
	})
}

// execNN dispatches the kinds of this file; handled is false for others.
func (e *Executor) execNN(k gpu.Kernels, op *torch.ExecOp, out operand, ins []operand) (handled bool, err error) {
	switch op.Kind {
	case torch.ExecLayerNorm:
		return true, e.layerNorm(k, op, out, ins)
	case torch.ExecLayerNormBack:
		return true, e.layerNormBack(k, op, out, ins)
	case torch.ExecIndex:
		return true, e.index(k, op, out, ins)
	case torch.ExecIndexBack:
		return true, e.indexBack(k, op, out, ins)
	case torch.ExecIndexPut:
		return true, e.indexPut(k, op, out, ins)
	case torch.ExecGather:
		return true, e.gather(k, op, out, ins)
	case torch.ExecScatter:
		return true, e.scatter(k, op, out, ins)
	case torch.ExecCat:
		return true, e.cat(k, op, out, ins)
	case torch.ExecSDPA:
		return true, e.sdpa(k, op, out, ins)
	case torch.ExecSDPABack:
		return true, e.sdpaBack(k, op, out, ins)
	case torch.ExecConv:
		return true, e.conv(k, op, out, ins)
	case torch.ExecConvBack:
		return true, e.convBack(k, op, out, ins)
	case torch.ExecMaxPool, torch.ExecAdaptiveMaxPool:
		return true, e.maxPool(k, op, out, ins)
	case torch.ExecMaxPoolBack:
		return true, e.maxPoolBack(k, op, out, ins)
	case torch.ExecAvgPool:
		return true, e.avgPool(k, op, out, ins)
	case torch.ExecAvgPoolBack:
		return true, e.avgPoolBack(k, op, out, ins)
	case torch.ExecBatchNorm:
		return true, e.batchNorm(k, op, out, ins)
	case torch.ExecBatchNormBack:
		return true, e.batchNormBack(k, op, out, ins)
	}
	return false, nil
}

// crossDeviceNN reports kinds whose index operand may be on the host while
// the tensor is on the device (t[cpu_idx], t[cpu_mask] = v).
func crossDeviceNN(kind torch.ExecKind) bool {
	return kind == torch.ExecIndex || kind == torch.ExecIndexBack || kind == torch.ExecIndexPut
}
