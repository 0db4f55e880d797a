package gpuexec

import (
	"fmt"

	"github.com/gpumem/playground/gpu"
	"github.com/gpumem/playground/gpu/kernels"
	"github.com/gpumem/playground/sim/torch"
)

// The losses and dropout of the pointwise family, composed of map
// kernels (mapops_loss.go) and a row reduction for mean/sum.

// optIns splits the inputs of a kind with optional operands (see
// torch.ExecLayerNorm): ins by position, nil where absent, and the
// reduction (Ints[0]).
func optIns(op *torch.ExecOp, ins []operand, n int) ([]*operand, int64, error) {
	if len(op.Ints) < 3 {
		return nil, 0, fmt.Errorf("gpuexec: %s without its reduction and masks", op.Kind)
	}
	im := op.Ints[len(op.Ints)-1]
	out := make([]*operand, n)
	j := 0
	for i := 0; i < n; i++ {
		if im&(1<<i) == 0 {
			continue
		}
		if j >= len(ins) {
			return nil, 0, fmt.Errorf("gpuexec: %s: mask %b names more inputs than %d", op.Kind, im, len(ins))
		}
		out[i] = &ins[j]
		j++
	}
	return out, op.Ints[0], nil
}

// lossForward computes an elementwise loss (f with its inputs), times the
// weight, into out or reduced into out (mean or sum).
func (e *Executor) lossForward(k gpu.Kernels, out operand, x operand, f kernels.MapOp, fins []operand, weight *operand, red int64) error {
	return e.withTemps(func(temps *[]temp) error {
		l := out
		if red != 0 {
			s, err := e.scratch(out.cuda(), out.kt, x.shape, temps)
			if err != nil {
				return err
			}
			l = s
		}
		if err := e.mapPromoted(k, f, l, fins, 0, 0); err != nil {
			return err
		}
		if weight != nil {
			if err := e.mapPromoted(k, "mul", l, []operand{l, *weight}, 0, 0); err != nil {
				return err
			}
		}
		if red == 0 {
			return nil
		}
		n := numel(x.shape)
		scale := 1.0
		if red == 1 {
			scale = opScale(out.kt, 1/float64(n))
		}
		return k.ReduceRows(out.kt, out.addr, l.addr, scale, gpu.Rows{Outer: [3]int64{1, 1, 1}, Inner: n, InnerStride: 1})
	})
}

// lossBackward finishes a loss's grad_input already holding the
// elementwise derivative: times grad (unless done), the weight, ÷ n for
// the mean.
func (e *Executor) lossBackward(k gpu.Kernels, out operand, grad *operand, weight *operand, red int64) error {
	if grad != nil {
		if err := e.mapPromoted(k, "mul", out, []operand{out, *grad}, 0, 0); err != nil {
			return err
		}
	}
	if weight != nil {
		if err := e.mapPromoted(k, "mul", out, []operand{out, *weight}, 0, 0); err != nil {
			return err
		}
	}
	if red == 1 {
		return e.mapOp64(k, "affine", out, []operand{out}, opScale(out.kt, 1/float64(numel(out.shape))), 0)
	}
	return nil
}

// loss dispatches the loss and dropout kinds; done is false for others.
func (e *Executor) loss(k gpu.Kernels, op *torch.ExecOp, out operand, ins []operand) (done bool, err error) {
	switch op.Kind {
	case torch.ExecBCE:
		o, red, err := optIns(op, ins, 3)
		if err != nil || o[0] == nil || o[1] == nil {
			return true, errOr(err, op.Kind)
		}
		return true, e.lossForward(k, out, *o[0], "bce", []operand{*o[0], *o[1]}, o[2], red)
	case torch.ExecBCEBack:
		o, red, err := optIns(op, ins, 4)
		if err != nil || o[0] == nil || o[1] == nil || o[2] == nil {
			return true, errOr(err, op.Kind)
		}
		if err := e.mapPromoted(k, "bce_backward", out, []operand{*o[0], *o[1], *o[2]}, 0, 0); err != nil {
			return true, err
		}
		return true, e.lossBackward(k, out, nil, o[3], red)
	case torch.ExecBCELogits:
		o, red, err := optIns(op, ins, 4)
		if err != nil || o[0] == nil || o[1] == nil {
			return true, errOr(err, op.Kind)
		}
		f, fins := kernels.MapOp("bce_logits"), []operand{*o[0], *o[1]}
		if o[3] != nil {
			f, fins = "bce_logits_pw", append(fins, *o[3])
		}
		return true, e.lossForward(k, out, *o[0], f, fins, o[2], red)
	case torch.ExecBCELogitsBack:
		o, red, err := optIns(op, ins, 5)
		if err != nil || o[0] == nil || o[1] == nil || o[2] == nil {
			return true, errOr(err, op.Kind)
		}
		f, fins := kernels.MapOp("bce_logits_backward"), []operand{*o[1], *o[2]}
		if o[4] != nil {
			f, fins = "bce_logits_backward_pw", append(fins, *o[4])
		}
		if err := e.mapPromoted(k, f, out, fins, 0, 0); err != nil {
			return true, err
		}
		return true, e.lossBackward(k, out, o[0], o[3], red)
	case torch.ExecDropout:
		return true, e.dropout(k, op, out, ins)
	case torch.ExecDropoutBack:
		if len(ins) != 2 || len(op.Scalars) < 1 {
			return true, fmt.Errorf("gpuexec: %s takes grad, mask and a scale", op.Kind)
		}
		return true, e.mapOp64(k, "masked_scale", out, ins, opScale(out.kt, op.Scalars[0]), 0)
	}
	return false, nil
}

// errOr is err, or "not computed" for a loss without its operands.
func errOr(err error, kind torch.ExecKind) error {
	if err != nil {
		return err
	}
	return errUnsupported("%s without its input or target", kind)
}

// dropout is native_dropout: CUDA tensors draw Dropout.cu's uniforms from
// the CUDA generator (its launch, vector size and offset increment) into
// an f32 scratch, keep the elements whose uniform is below 1 − p scaled by
// 1/(1 − p), and write the bool mask; CPU tensors use the CPU generator.
func (e *Executor) dropout(k gpu.Kernels, op *torch.ExecOp, out operand, ins []operand) error {
	if !out.cuda() {
		return e.generateHost(op, out)
	}
	if len(ins) != 1 || len(op.Out) != 2 || len(op.Scalars) < 1 {
		return fmt.Errorf("gpuexec: dropout takes an input, output and mask, and p")
	}
	mask, err := e.resolve(op.Out[1])
	if err != nil {
		return err
	}
	x, p := ins[0], op.Scalars[0]
	n := numel(x.shape)
	if n == 0 {
		return nil
	}
	if p >= 1 { // PyTorch's short-cut: zeros, no draw
		if err := e.mapOp(k, "fill", out, nil, 0, 0); err != nil {
			return err
		}
		return e.mapOp(k, "fill", mask, nil, 0, 0)
	}
	keep, scale, maskKeep := dropoutScale64(out.kt, p)
	return e.withTemps(func(temps *[]temp) error {
		u, err := e.scratch(x.cuda(), kernels.F32, x.shape, temps)
		if err != nil {
			return err
		}
		if !contiguous(x.shape, x.strides) {
			// Dropout.cu's layouts: dropout_strided.go.
			if u, err = e.dropoutStrided(k, u, x); err != nil {
				return err
			}
		} else if _, err := e.dropoutDraw(k, u.addr, x.kt, x.addr, n); err != nil {
			return err
		}
		if err := e.mapOp64(k, "dropout", out, []operand{x, u}, keep, scale); err != nil {
			return err
		}
		return e.mapOp64(k, "lt_scalar", mask, []operand{u}, maskKeep, 0)
	})
}
