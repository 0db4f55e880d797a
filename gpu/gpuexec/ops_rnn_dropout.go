package gpuexec

import (
	"fmt"

	"github.com/gpumem/playground/gpu"
	"github.com/gpumem/playground/gpu/kernels"
	"github.com/gpumem/playground/sim/torch"
)

// Dropout between the layers of a training RNN (num_layers > 1, dropout
// p > 0). cuDNN draws its mask from its own dropout state (cudnnDropout*,
// seeded once per run from PyTorch's generator), whose numbers cannot be
// reproduced; the executor draws the keep mask from the CUDA Philox
// generator instead, on a private stream: the numbers differ from
// PyTorch's, the distribution (keep u < 1 − p, scale 1/(1 − p), on the
// output of every layer but the last, as cuDNN applies it) is the same.
// PyTorch's own generator is left alone: the model does not advance it
// for cuDNN's state today, so neither does the draw, and the random ops
// after an RNN keep PyTorch's numbers.

// rnnDropGen is the private stream: its seed is derived from the CUDA
// generator's (seed, offset) at the first draw after torch.manual_seed (as
// get_dropout_state seeds a new cuDNN state then), its offset advances by
// each draw's Philox increment.
type rnnDropGen struct {
	ready        bool
	seed, offset uint64
}

// rnnDropSalt separates the private stream's key from the generator's.
const rnnDropSalt = 0x52_4e_4e_44_72_6f_70_00 // "RNNDrop"

// mix64 is splitmix64's finaliser.
func mix64(x uint64) uint64 {
	x ^= x >> 30
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 27
	x *= 0x94d049bb133111eb
	return x ^ x>>31
}

// next returns the (seed, offset) of a draw of inc offsets.
func (e *Executor) rnnDropNext(inc uint64) (seed, offset uint64) {
	g := &e.rnnDrop
	if !g.ready {
		g.ready, g.offset = true, 0
		g.seed = mix64(e.cuda.seed ^ rnnDropSalt ^ mix64(e.cuda.offset))
	}
	o := g.offset
	g.offset += (inc + 3) / 4 * 4
	return g.seed, o
}

// rnnDropArgs are a call's dropout operands: Scalars[0] = p and, from
// Ints[at], [1, seed, offset] (the forward reports its seed and offset
// there; the backward sends them back). Absent: no dropout.
type rnnDropArgs struct {
	p    float64
	at   int // index of the triple in op.Ints
	seed int64
	off  int64
}

// parseRNNDrop reads the dropout triple at Ints[at]; nil without one.
func parseRNNDrop(op *torch.ExecOp, c *rnnCall, at int) (*rnnDropArgs, error) {
	if len(op.Ints) <= at || op.Ints[at] == 0 {
		return nil, nil
	}
	if len(op.Ints) < at+3 || len(op.Scalars) < 1 {
		return nil, fmt.Errorf("gpuexec: %s with dropout takes p, seed and offset", op.Kind)
	}
	p := op.Scalars[0]
	if p <= 0 || p >= 1 {
		return nil, errUnsupported("rnn dropout p = %v", p)
	}
	if c.L < 2 {
		return nil, nil
	}
	return &rnnDropArgs{p: p, at: at, seed: op.Ints[at+1], off: op.Ints[at+2]}, nil
}

// rnnDropDraw draws the uniforms of every dropped layer output ((L − 1)
// windows of [S, B, D·H], layer by layer) into f32 scratch (float64 RNNs:
// then turned into float64 factors); the forward
// takes a new (seed, offset) from the private stream and reports it in
// op.Ints, the backward redraws at the forward's.
func (e *Executor) rnnDropDraw(k gpu.Kernels, s *scratch, op *torch.ExecOp, c *rnnCall, forward bool) (*sdpaDropout, error) {
	a := c.drop
	per := c.S * c.B * c.D * c.H
	n := (c.L - 1) * per
	u, err := s.f32([]int64{c.L - 1, c.S, c.B, c.D * c.H})
	if err != nil {
		return nil, err
	}
	threads, err := e.launchThreads(k, n)
	if err != nil {
		return nil, err
	}
	g := kernels.PhiloxArgs{Seed: uint64(a.seed), Offset: uint64(a.off), Threads: threads}
	if forward {
		g.Seed, g.Offset = e.rnnDropNext(uint64(((n-1)/(threads*4) + 1) * 4))
		op.Ints[a.at+1], op.Ints[a.at+2] = int64(g.Seed), int64(g.Offset)
	}
	if err := k.Philox(kernels.PhiloxRaw, kernels.F32, u.addr, n, g); err != nil {
		return nil, err
	}
	keep, scale := dropoutScale(a.p)
	if c.st == kernels.F64 {
		return e.rnnDropMask64(k, s, u, keep, 1/(1-a.p))
	}
	return &sdpaDropout{u: u, keep: keep, scale: scale}, nil
}

// rnnDropMask64 turns the uniforms u into float64 factors [u < keep]·scale
// (scale = 1/(1 − p) in float64, as Dropout.cu's double opmath): a float64
// RNN's dropout is then one float64 product per element (x·(m·scale) is
// (x·m)·scale bit for bit, m being 0 or 1). The result's u holds the
// factors (kt F64), which applyDrop recognises.
func (e *Executor) rnnDropMask64(k gpu.Kernels, s *scratch, u operand, keep float32, scale float64) (*sdpaDropout, error) {
	m, err := s.typed(kernels.B8, u.shape)
	if err != nil {
		return nil, err
	}
	if err := e.mapOp(k, "lt_scalar", m, []operand{u}, keep, 0); err != nil {
		return nil, err
	}
	f, err := s.typed(kernels.F64, u.shape)
	if err != nil {
		return nil, err
	}
	if err := e.mapOp(k, "copy", f, []operand{m}, 0, 0); err != nil {
		return nil, err
	}
	if err := e.mapOp64(k, "affine", f, []operand{f}, scale, 0); err != nil {
		return nil, err
	}
	return &sdpaDropout{u: f, keep: keep, scale: float32(scale)}, nil
}

// dropLayer is layer l's window of the uniforms: [S, B, D·H].
func (r *rnnRun) dropLayer(l int64) operand {
	c := r.c
	per := c.S * c.B * c.D * c.H
	return rnnWin(r.drop.u, l*per, []int64{c.S, c.B, c.D * c.H}, []int64{c.B * c.D * c.H, c.D * c.H, 1})
}

// applyDrop is dst = x·[u < 1 − p]/(1 − p) with layer l's uniforms: the
// forward's dropped output and, being linear in x, the backward's. Over
// float64 the uniforms are already the factors (rnnDropMask64).
func (r *rnnRun) applyDrop(l int64, dst, x operand) error {
	if r.drop.u.kt == kernels.F64 {
		return r.e.mapOp(r.k, "mul", dst, []operand{x, r.dropLayer(l)}, 0, 0)
	}
	return r.e.mapOp(r.k, "dropout", dst, []operand{x, r.dropLayer(l)}, r.drop.keep, r.drop.scale)
}
