package gpuexec

import (
	"fmt"
	"math"

	"github.com/gpumem/playground/gpu"
	"github.com/gpumem/playground/gpu/kernels"
	"github.com/gpumem/playground/sim/torch"
)

// The pointwise family (issue 7): kinds whose operands need more than the
// generic map dispatch (lerp with a tensor weight), type promotion of
// mixed-dtype operands, 0-dim CPU scalars in CUDA ops, and sums into
// another dtype.

// pointwise computes the kinds that need their own mapping; done is false
// for the others.
func (e *Executor) pointwise(k gpu.Kernels, op *torch.ExecOp, out operand, ins []operand) (done bool, err error) {
	s := func(i int, def float64) float32 {
		if i < len(op.Scalars) {
			return float32(op.Scalars[i])
		}
		return float32(def)
	}
	switch op.Kind {
	case "lerp":
		if len(ins) == 3 {
			return true, e.mapPromoted(k, "lerp_tensor", out, ins, 0, 0)
		}
		return true, e.mapPromoted(k, "lerp", out, ins, float64(s(0, 0)), 0)
	case torch.ExecMaxAll, torch.ExecMinAll, torch.ExecMaxDim, torch.ExecMinDim, torch.ExecArgmax, torch.ExecArgmin:
		return true, e.pick(k, op, out, ins)
	case torch.ExecBCE, torch.ExecBCEBack, torch.ExecBCELogits, torch.ExecBCELogitsBack, torch.ExecDropout, torch.ExecDropoutBack:
		return e.loss(k, op, out, ins)
	case torch.ExecAll, torch.ExecAny:
		return true, e.allAny(k, op, out, ins)
	case torch.ExecVar, torch.ExecStd:
		return true, e.moments(k, op, out, ins)
	case torch.ExecNorm:
		return true, e.norm(k, op, out, ins)
	case torch.ExecSelectBack, torch.ExecEvenlyBack, torch.ExecVarBack, torch.ExecStdBack, torch.ExecNormBack:
		return e.reduceBackward(k, op, out, ins)
	case "clamp", "clamp_backward":
		// The bounds as given (an integer clamp compares in int64; the
		// float kernels round them to float32 themselves).
		lo, hi := math.Inf(-1), math.Inf(1)
		if len(op.Scalars) > 0 {
			lo = op.Scalars[0]
		}
		if len(op.Scalars) > 1 {
			hi = op.Scalars[1]
		}
		return true, e.mapPromoted(k, kernels.MapOp(op.Kind), out, ins, lo, hi)
	}
	return false, nil
}

// mapPromoted is mapOp after PyTorch's type promotion: inputs of another
// type than the computation's (out's for arithmetic, the inputs' common
// type for comparisons) are converted into scratch copies first.
func (e *Executor) mapPromoted(k gpu.Kernels, op kernels.MapOp, out operand, ins []operand, s0, s1 float64) (err error) {
	info, ok := kernels.MapOpByName(op)
	if !ok || op == "copy" || op == "fill" {
		return e.mapOp64(k, op, out, ins, s0, s1)
	}
	want := out.kt
	if info.Out != "" {
		want = commonType(info, ins)
	}
	var temps []temp
	defer func() {
		if ferr := e.freeTemps(temps); err == nil {
			err = ferr
		}
	}()
	conv := append([]operand(nil), ins...)
	for i, x := range conv {
		if _, fixed := info.Fixed[i]; fixed || x.kt == want {
			continue
		}
		t, err := e.tempAlloc(x.cuda(), numel(x.shape)*want.Size())
		if err != nil {
			return err
		}
		temps = append(temps, t)
		c := tempOperand(t, want, x.shape)
		if err := e.mapOp(k, "copy", c, []operand{x}, 0, 0); err != nil {
			return err
		}
		conv[i] = c
	}
	return e.mapOp64(k, op, out, conv, s0, s1)
}

// commonType is the type a comparison's inputs are compared in: theirs if
// they agree; else the floating type among them (f32 if several), else
// int64 (bool with int64).
func commonType(info kernels.MapOpInfo, ins []operand) kernels.DType {
	var float, first kernels.DType
	same, ints := true, false
	for i, x := range ins {
		if _, fixed := info.Fixed[i]; fixed {
			continue
		}
		switch {
		case first == "":
			first = x.kt
		case x.kt != first:
			same = false
		}
		switch x.kt {
		case kernels.F32, kernels.F16, kernels.BF16:
			if float != "" && float != x.kt {
				float = kernels.F32
			} else {
				float = x.kt
			}
		case kernels.I64, kernels.I32, kernels.U8, kernels.I8, kernels.I16:
			ints = true
		}
	}
	switch {
	case same:
		return first
	case float != "":
		return float
	case ints:
		return kernels.I64
	}
	return first
}

// liftScalars replaces the 0-dim CPU inputs of a CUDA op by device copies
// (PyTorch passes a CPU scalar to the kernel as an argument); the caller
// frees the returned scratch with freeTemps.
func (e *Executor) liftScalars(out operand, ins []operand) ([]temp, error) {
	if !out.cuda() {
		return nil, nil
	}
	var temps []temp
	for i, x := range ins {
		if x.cuda() || len(x.shape) != 0 {
			continue
		}
		b, err := e.host.Bytes(x.addr, x.kt.Size())
		if err != nil {
			return temps, err
		}
		t, err := e.tempAlloc(true, x.kt.Size())
		if err != nil {
			return temps, err
		}
		temps = append(temps, t)
		if err := e.dev.CopyToDevice(t.addr, b); err != nil {
			return temps, fmt.Errorf("gpuexec: a CPU scalar to the device: %w", err)
		}
		ins[i] = tempOperand(t, x.kt, nil)
	}
	return temps, nil
}

// freeTemps waits for the kernels that use device scratch, then frees it.
func (e *Executor) freeTemps(ts []temp) error {
	var first error
	synced := false
	for _, t := range ts {
		if t.cuda && !synced {
			synced = true
			if err := e.dev.Synchronize(); err != nil && first == nil {
				first = err
			}
		}
		if err := e.tempFree(t); err != nil && first == nil {
			first = err
		}
	}
	return first
}
