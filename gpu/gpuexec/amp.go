package gpuexec

import (
	"fmt"
	"math"

	"github.com/gpumem/playground/gpu"
	"github.com/gpumem/playground/gpu/kernels"
	"github.com/gpumem/playground/sim/torch"
)

// amp computes GradScaler's kinds; done is false for the others.
func (e *Executor) amp(k gpu.Kernels, op *torch.ExecOp, out operand, ins []operand) (done bool, err error) {
	switch op.Kind {
	case torch.ExecAmpUnscale:
		return true, e.ampUnscale(k, out, ins)
	case torch.ExecAmpUpdateScale:
		return true, e.ampUpdateScale(k, op)
	}
	return false, nil
}

// ampUnscale is one grad of _amp_foreach_non_finite_check_and_unscale_
// (In = [grad, found_inf, inv_scale]): found_inf = max(found_inf, 1 −
// min(isfinite(grad))) on the device (pick's min over an f32 copy of the
// isfinite mask), then grad ·= inv_scale in f32 (inf and NaN stay).
func (e *Executor) ampUnscale(k gpu.Kernels, g operand, ins []operand) error {
	if len(ins) != 3 {
		return fmt.Errorf("gpuexec: amp_unscale takes 3 inputs, got %d", len(ins))
	}
	found, inv := ins[1], ins[2]
	if found.kt != kernels.F32 || inv.kt != kernels.F32 {
		return errUnsupported("amp_unscale with %s found_inf, %s inv_scale", found.kt, inv.kt)
	}
	n := numel(g.shape)
	if n == 0 {
		return nil
	}
	return e.withTemps(func(temps *[]temp) error {
		mask, err := e.scratch(g.cuda(), kernels.B8, g.shape, temps)
		if err != nil {
			return err
		}
		if err := e.mapOp(k, "isfinite", mask, []operand{g}, 0, 0); err != nil {
			return err
		}
		f, err := e.scratch(g.cuda(), kernels.F32, g.shape, temps)
		if err != nil {
			return err
		}
		if err := e.mapOp(k, "copy", f, []operand{mask}, 0, 0); err != nil {
			return err
		}
		r, err := e.scratch(g.cuda(), kernels.F32, nil, temps)
		if err != nil {
			return err
		}
		if err := e.pick(k, &torch.ExecOp{Kind: torch.ExecMinAll, Out: []torch.ExecTensor{r.t}}, r, []operand{f}); err != nil {
			return err
		}
		if err := e.mapOp(k, "affine", r, []operand{r}, -1, 1); err != nil { // 1 if any is not finite
			return err
		}
		fo := found
		fo.shape, fo.strides = nil, nil
		if err := e.mapOp(k, "maximum", fo, []operand{fo, r}, 0, 0); err != nil {
			return err
		}
		return e.mapPromoted(k, "mul", g, []operand{g, inv}, 0, 0)
	})
}

// ampUpdateScale is _amp_update_scale_ (ATen's amp_update_scale_cuda_kernel)
// computed on the host: the three scalars are read (a synchronisation that
// PyTorch's one-thread kernel does not make) and the new scale and
// tracker written with fill.
func (e *Executor) ampUpdateScale(k gpu.Kernels, op *torch.ExecOp) error {
	if len(op.In) != 3 || len(op.Out) != 2 || len(op.Scalars) != 2 || len(op.Ints) != 1 {
		return fmt.Errorf("gpuexec: amp_update_scale operands")
	}
	var v [3]float64
	for i, t := range op.In {
		x, err := e.Read(t)
		if err != nil {
			return err
		}
		if len(x) != 1 {
			return fmt.Errorf("gpuexec: amp_update_scale operand of %d elements", len(x))
		}
		v[i] = x[0]
	}
	scale, tracker := float32(v[0]), int64(v[1])
	growth, backoff, interval := op.Scalars[0], op.Scalars[1], op.Ints[0]
	if v[2] != 0 {
		scale, tracker = float32(float64(scale)*backoff), 0
	} else if tracker+1 == interval {
		if s := float32(float64(scale) * growth); !math.IsInf(float64(s), 0) && !math.IsNaN(float64(s)) {
			scale = s
		}
		tracker = 0
	} else {
		tracker++
	}
	outs := make([]operand, 2)
	for i, t := range op.Out {
		o, err := e.resolve(t)
		if err != nil {
			return err
		}
		outs[i] = o
	}
	if err := e.mapOp(k, "fill", outs[0], nil, scale, 0); err != nil {
		return err
	}
	return e.mapOp(k, "fill", outs[1], nil, float32(tracker), 0)
}
