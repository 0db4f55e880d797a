package gpuexec

import (
	"fmt"
	"math"

	"github.com/gpumem/playground/gpu"
	"github.com/gpumem/playground/gpu/kernels"
	"github.com/gpumem/playground/sim/torch"
)

// The fused optimizers torch._fused_adam_, _fused_adamw_ and _fused_sgd_
// (ExecFusedAdam, ExecFusedAdamW, ExecFusedSGD; operands in
// sim/torch/fused_optim_exec.go), composed of map kernels per parameter
// with the formulas of ATen's fused_adam_utils.cuh (adam_math) and
// FusedSgdKernel.cu (sgd_math): float32 opmath (f16/bf16 tensors are
// converted into float32 scratch and back, stored once as the fused kernel
// does), grad_scale divides the gradient (written back), found_inf == 1
// skips the whole update, Adam's bias corrections come from the float32
// step tensor in float64. The fused kernels mix float64 hyper-parameters
// into single expressions (beta1·m + (1 − beta1)·g in double); here each
// step is one float32 map kernel (fma where it fits), so values agree to a
// few float32 ulps, not bit for bit. grad_scale, found_inf and the steps
// are read on the host (a synchronisation per parameter).

// fusedKinds are the fused optimizer kinds.
var fusedKinds = map[torch.ExecKind]bool{torch.ExecFusedAdam: true, torch.ExecFusedAdamW: true, torch.ExecFusedSGD: true}

// fusedCall is one fused optimizer call, its lists resolved.
type fusedCall struct {
	n                   int
	lists               [][]operand // nil where the list is absent
	inT                 [][]torch.ExecTensor
	gradScale, foundInf *torch.ExecTensor
	amsgrad, maximize   bool
	nesterov, first     bool
}

// execFused computes a fused optimizer kind; handled is false for others.
// It runs before exec's generic checks: it checks its own inputs (SGD's
// first step reads no momentum buffer).
func (e *Executor) execFused(op *torch.ExecOp) (handled bool, err error) {
	if !fusedKinds[op.Kind] {
		return false, nil
	}
	c, err := e.fusedOperands(op)
	if err != nil {
		return true, err
	}
	if c.n == 0 {
		return true, nil
	}
	cuda := c.lists[0][0].cuda()
	k := e.kern(cuda)
	if c.foundInf != nil {
		v, err := e.Read(*c.foundInf)
		if err != nil {
			return true, err
		}
		if len(v) != 1 {
			return true, errUnsupported("%s: found_inf of %d elements", op.Kind, len(v))
		}
		if v[0] == 1 {
			return true, nil // the kernel returns before touching anything
		}
	}
	for i := 0; i < c.n; i++ {
		var err error
		if op.Kind == torch.ExecFusedSGD {
			err = e.withScratch(cuda, func(s *scratch) error { return e.fusedSGD(k, s, op, c, i) })
		} else {
			err = e.withScratch(cuda, func(s *scratch) error { return e.fusedAdam(k, s, op, c, i) })
		}
		if err != nil {
			return true, err
		}
	}
	return true, nil
}

// fusedOperands splits op.In into its lists and checks that what the
// kernel reads was computed.
func (e *Executor) fusedOperands(op *torch.ExecOp) (fusedCall, error) {
	var c fusedCall
	if len(op.Ints) < 8 {
		return c, fmt.Errorf("gpuexec: %s takes 8 ints, got %d", op.Kind, len(op.Ints))
	}
	nLists := 6
	if op.Kind == torch.ExecFusedSGD {
		nLists = 3
	}
	c.n = int(op.Ints[0])
	mask := op.Ints[1]
	c.amsgrad, c.maximize, c.nesterov, c.first = op.Ints[4] == 1, op.Ints[5] == 1, op.Ints[6] == 1, op.Ints[7] == 1
	c.lists = make([][]operand, nLists)
	c.inT = make([][]torch.ExecTensor, nLists)
	j := 0
	for l := 0; l < nLists; l++ {
		if mask&(1<<l) == 0 {
			continue
		}
		if j+c.n > len(op.In) {
			return c, fmt.Errorf("gpuexec: %s: %d inputs for list %d", op.Kind, len(op.In), l)
		}
		c.inT[l] = op.In[j : j+c.n]
		j += c.n
	}
	for _, f := range []struct {
		on  bool
		dst **torch.ExecTensor
	}{{op.Ints[2] == 1, &c.gradScale}, {op.Ints[3] == 1, &c.foundInf}} {
		if !f.on {
			continue
		}
		if j >= len(op.In) {
			return c, fmt.Errorf("gpuexec: %s: missing grad_scale/found_inf", op.Kind)
		}
		t := op.In[j]
		*f.dst = &t
		j++
	}
	if j != len(op.In) || c.inT[0] == nil || c.inT[1] == nil {
		return c, fmt.Errorf("gpuexec: %s: %d inputs do not match its lists", op.Kind, len(op.In))
	}
	if op.Kind != torch.ExecFusedSGD && (c.inT[2] == nil || c.inT[3] == nil || c.inT[5] == nil || c.amsgrad && c.inT[4] == nil) {
		return c, errUnsupported("%s without its state lists", op.Kind)
	}
	for l, ts := range c.inT {
		if ts == nil {
			continue
		}
		unread := op.Kind == torch.ExecFusedSGD && l == 2 && c.first
		c.lists[l] = make([]operand, len(ts))
		for i, t := range ts {
			if !unread && !e.computed[t.Storage] {
				return c, errUnsupported("%s: an input's values were not computed", op.Kind)
			}
			o, err := e.resolve(t)
			if err != nil {
				return c, err
			}
			if !o.cuda() {
				return c, errUnsupported("%s of CPU tensors", op.Kind)
			}
			if !floatKernel(o.kt) {
				return c, errUnsupported("%s over %s", op.Kind, o.kt)
			}
			c.lists[l][i] = o
		}
	}
	return c, nil
}

// floatKernel reports the float types with f32 opmath.
func floatKernel(kt kernels.DType) bool {
	return kt == kernels.F32 || kt == kernels.F16 || kt == kernels.BF16
}

// fusedGrad is the f32 gradient the formulas use: grad / grad_scale (the
// scaled one written back to the gradient, as the kernel stores it),
// negated under maximize, into a fresh scratch (g itself is never changed
// otherwise).
func (e *Executor) fusedGrad(k gpu.Kernels, s *scratch, c fusedCall, i int) (operand, error) {
	g := c.lists[1][i]
	ge, err := s.f32(g.shape)
	if err != nil {
		return operand{}, err
	}
	if err := e.mapOp(k, "copy", ge, []operand{g}, 0, 0); err != nil {
		return operand{}, err
	}
	if c.gradScale != nil {
		gs, err := e.resolve(*c.gradScale)
		if err != nil {
			return operand{}, err
		}
		if gs.kt != kernels.F32 || numel(gs.shape) != 1 {
			return operand{}, errUnsupported("grad_scale of %s %v", gs.kt, gs.shape)
		}
		gs.shape, gs.strides = nil, nil
		if err := e.mapOp(k, "div", ge, []operand{ge, gs}, 0, 0); err != nil {
			return operand{}, err
		}
		if err := e.mapOp(k, "copy", g, []operand{ge}, 0, 0); err != nil {
			return operand{}, err
		}
	}
	if c.maximize {
		if err := e.mapOp(k, "neg", ge, []operand{ge}, 0, 0); err != nil {
			return operand{}, err
		}
	}
	return ge, nil
}

// f32View is x itself when it is float32, else a float32 scratch copy of
// it (load false: uninitialised) that storeBack writes back.
func (e *Executor) f32View(k gpu.Kernels, s *scratch, x operand, load bool) (operand, error) {
	if x.kt == kernels.F32 {
		return x, nil
	}
	c, err := s.f32(x.shape)
	if err != nil || !load {
		return c, err
	}
	return c, e.mapOp(k, "copy", c, []operand{x}, 0, 0)
}

// storeBack converts f32 views back into the tensors they stand for.
func (e *Executor) storeBack(k gpu.Kernels, pairs ...[2]operand) error {
	for _, p := range pairs {
		if p[0].addr == p[1].addr && p[0].kt == p[1].kt {
			continue
		}
		if err := e.mapOp(k, "copy", p[0], []operand{p[1]}, 0, 0); err != nil {
			return err
		}
	}
	return nil
}

// fusedAdam is adam_math for parameter i (ADAM_MODE ORIGINAL for
// ExecFusedAdam, ADAMW for ExecFusedAdamW).
func (e *Executor) fusedAdam(k gpu.Kernels, s *scratch, op *torch.ExecOp, c fusedCall, i int) error {
	if len(op.Scalars) < 5 {
		return fmt.Errorf("gpuexec: %s takes 5 scalars", op.Kind)
	}
	lr, beta1, beta2, wd, eps := op.Scalars[0], op.Scalars[1], op.Scalars[2], op.Scalars[3], op.Scalars[4]
	steps, err := e.Read(c.inT[5][i])
	if err != nil {
		return err
	}
	if len(steps) != 1 {
		return errUnsupported("%s: a step of %d elements", op.Kind, len(steps))
	}
	step := float64(float32(steps[0]))
	bc1 := 1 - math.Pow(beta1, step)
	bc2sqrt := math.Sqrt(1 - math.Pow(beta2, step))
	ge, err := e.fusedGrad(k, s, c, i)
	if err != nil {
		return err
	}
	p, m, v := c.lists[0][i], c.lists[2][i], c.lists[3][i]
	pf, err := e.f32View(k, s, p, true)
	if err != nil {
		return err
	}
	mf, err := e.f32View(k, s, m, true)
	if err != nil {
		return err
	}
	vf, err := e.f32View(k, s, v, true)
	if err != nil {
		return err
	}
	if wd != 0 {
		if op.Kind == torch.ExecFusedAdamW {
			// param -= lr·weight_decay·param
			err = e.mapOp64(k, "add", pf, []operand{pf, pf}, -lr*wd, 0)
		} else {
			// grad += param·weight_decay
			err = e.mapOp64(k, "add", ge, []operand{ge, pf}, wd, 0)
		}
		if err != nil {
			return err
		}
	}
	// exp_avg = beta1·exp_avg + (1 − beta1)·grad
	if err := e.mapOp64(k, "affine", mf, []operand{mf}, beta1, 0); err != nil {
		return err
	}
	if err := e.mapOp64(k, "add", mf, []operand{mf, ge}, 1-beta1, 0); err != nil {
		return err
	}
	// exp_avg_sq = beta2·exp_avg_sq + (1 − beta2)·grad·grad
	if err := e.mapOp64(k, "affine", vf, []operand{vf}, beta2, 0); err != nil {
		return err
	}
	if err := e.mapOp64(k, "addcmul", vf, []operand{vf, ge, ge}, 1-beta2, 0); err != nil {
		return err
	}
	src := vf
	pairs := [][2]operand{{p, pf}, {m, mf}, {v, vf}}
	if c.amsgrad {
		mx := c.lists[4][i]
		mxf, err := e.f32View(k, s, mx, true)
		if err != nil {
			return err
		}
		if err := e.mapOp(k, "maximum", mxf, []operand{mxf, vf}, 0, 0); err != nil {
			return err
		}
		src = mxf
		pairs = append(pairs, [2]operand{mx, mxf})
	}
	// denom = sqrt(v)/bias_correction2_sqrt + eps, reusing ge's scratch
	// would clobber the gradient: a scratch of its own.
	denom, err := s.f32(p.shape)
	if err != nil {
		return err
	}
	if err := e.mapOp(k, "sqrt", denom, []operand{src}, 0, 0); err != nil {
		return err
	}
	if err := e.mapOp64(k, "affine", denom, []operand{denom}, 1/bc2sqrt, eps); err != nil {
		return err
	}
	// param -= (lr/bias_correction1)·exp_avg/denom
	if err := e.mapOp64(k, "addcdiv", pf, []operand{pf, mf, denom}, -(lr / bc1), 0); err != nil {
		return err
	}
	return e.storeBack(k, pairs...)
}

// fusedSGD is sgd_math for parameter i.
func (e *Executor) fusedSGD(k gpu.Kernels, s *scratch, op *torch.ExecOp, c fusedCall, i int) error {
	if len(op.Scalars) < 4 {
		return fmt.Errorf("gpuexec: %s takes 4 scalars", op.Kind)
	}
	lr, momentum, dampening, wd := op.Scalars[0], op.Scalars[1], op.Scalars[2], op.Scalars[3]
	ge, err := e.fusedGrad(k, s, c, i)
	if err != nil {
		return err
	}
	p := c.lists[0][i]
	pf, err := e.f32View(k, s, p, true)
	if err != nil {
		return err
	}
	if wd != 0 {
		if err := e.mapOp64(k, "add", ge, []operand{ge, pf}, wd, 0); err != nil {
			return err
		}
	}
	pairs := [][2]operand{{p, pf}}
	if c.lists[2] != nil {
		buf := c.lists[2][i]
		bf, err := e.f32View(k, s, buf, !c.first)
		if err != nil {
			return err
		}
		if c.first {
			err = e.mapOp(k, "copy", bf, []operand{ge}, 0, 0)
		} else {
			// momentum·buf + (1 − dampening)·grad
			if err = e.mapOp64(k, "affine", bf, []operand{bf}, momentum, 0); err == nil {
				err = e.mapOp64(k, "add", bf, []operand{bf, ge}, 1-dampening, 0)
			}
		}
		if err != nil {
			return err
		}
		if c.nesterov {
			err = e.mapOp64(k, "add", ge, []operand{ge, bf}, momentum, 0)
		} else {
			err = e.mapOp(k, "copy", ge, []operand{bf}, 0, 0)
		}
		if err != nil {
			return err
		}
		pairs = append(pairs, [2]operand{buf, bf})
	}
	// param -= lr·grad
	if err := e.mapOp64(k, "add", pf, []operand{pf, ge}, -lr, 0); err != nil {
		return err
	}
	return e.storeBack(k, pairs...)
}
