package gpuexec

import (
	"fmt"

	"github.com/gpumem/playground/gpu"
	"github.com/gpumem/playground/gpu/kernels"
	"github.com/gpumem/playground/sim/torch"
)

// Transposed convolution (conv_transpose1d/2d/3d: ExecConvTranspose and its
// backward ExecConvTransposeBack) on the convolution machinery of
// ops_nn_conv.go. A transposed convolution of x [N, Cin, *spatial] with w
// [Cin, Cout/groups, *kernel] is the input gradient of the convolution
// whose input is the output y [N, Cout, *out], whose weight is w and
// whose output is x: per group cols = Wᵀ·x, scattered back into y
// (col2im), then the bias. Its backward swaps the roles again: grad_input
// is that convolution's forward of grad_output, grad_weight its weight
// gradient with grad_output as the input and x as the output gradient
// (grad_bias is the model's sum of grad_output). f32 opmath (float64 in
// float64, scratch.acc); the
// scatter-add sums in arrival order (cuDNN in its own): agreement to f32
// rounding.

// convTranspose is ExecConvTranspose: Out = [y], In = [x, w, b?].
func (e *Executor) convTranspose(k gpu.Kernels, op *torch.ExecOp, out operand, ins []operand) error {
	o, in, ints, err := optional(op, []operand{out}, ins, 1, 3)
	if err != nil {
		return err
	}
	if o[0] == nil || in[0] == nil || in[1] == nil {
		return fmt.Errorf("gpuexec: conv_transpose takes x and w")
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
	// the convolution whose input gradient this is: input y, output x
	g, err := convGeometry(yb, wb, xb, spatial, ints)
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
		yf, err := e.col2im(k, s, g, wf, xf)
		if err != nil {
			return err
		}
		if b := in[2]; b != nil {
			bf, err := s.asF32(k, *b)
			if err != nil {
				return err
			}
			y3 := reshaped(yf, []int64{g.n, g.c, g.hw()})
			if err := e.mapOp(k, "add", y3, []operand{y3, reshaped(bf, []int64{g.c, 1})}, 1, 0); err != nil {
				return err
			}
		}
		return e.mapOp(k, "copy", yb, []operand{yf}, 0, 0)
	})
}

// col2im is the input gradient of convolution g: per group Wᵀ·grad
// ([N, groups, C/groups·K, L] f32) scatter-added into a zeroed f32 input
// [N, C, H, W] (wf: [Cout, C/groups, kh, kw] f32, gf: [N, Cout, OH, OW]
// f32).
func (e *Executor) col2im(k gpu.Kernels, s *scratch, g convGeom, wf, gf operand) (operand, error) {
	l, kk := g.l(), g.kk()
	gk, cpg := g.cg*kk, g.cout/g.groups
	dcols, err := s.f32([]int64{g.n, g.groups, gk, l})
	if err != nil {
		return operand{}, err
	}
	wv := reshaped(wf, []int64{g.groups, cpg, gk})
	if err := e.matmul(k, dcols, []operand{transposed(wv), reshaped(gf, []int64{g.n, g.groups, cpg, l})}); err != nil {
		return operand{}, err
	}
	tbl, err := e.windows(s, g)
	if err != nil {
		return operand{}, err
	}
	dxf, err := s.f32(append([]int64{g.n, g.c}, g.in...))
	if err != nil {
		return operand{}, err
	}
	if err := e.mapOp(k, "fill", dxf, nil, 0, 0); err != nil {
		return operand{}, err
	}
	hw := g.hw()
	return dxf, e.indexLaunch(k, kernels.IndexScatterAdd, dxf.kt, []int64{g.n, g.c, kk, l}, dxf, dcols, tbl,
		[3][]int64{{g.c * hw, hw, 0, 0}, contiguousStrides([]int64{g.n, g.c, kk, l}), {0, 0, 1, kk}}, 1, hw, torch.NoSkipIndex)
}

// convTransposeBack is ExecConvTransposeBack: Out = [grad_x?, grad_w?],
// In = [grad, x, w], Ints as ExecConvTranspose.
func (e *Executor) convTransposeBack(k gpu.Kernels, op *torch.ExecOp, out operand, ins []operand) error {
	outs, err := e.resolveOuts(op, out)
	if err != nil {
		return err
	}
	o, in, ints, err := optional(op, outs, ins, 2, 3)
	if err != nil {
		return err
	}
	if in[0] == nil || in[1] == nil || in[2] == nil {
		return fmt.Errorf("gpuexec: conv_transpose_backward takes grad, x and w")
	}
	grad, x, w := *in[0], *in[1], *in[2]
	if dx := o[0]; dx != nil {
		conv := &torch.ExecOp{Kind: torch.ExecConv, Ints: append(append([]int64{}, ints...), 1, 3)}
		if err := e.conv(k, conv, *dx, []operand{grad, w}); err != nil {
			return err
		}
	}
	if dw := o[1]; dw != nil {
		// one output (dw, passed resolved): resolveOuts reads op.Out[1:]
		back := &torch.ExecOp{Kind: torch.ExecConvBack, Out: []torch.ExecTensor{dw.t}, Ints: append(append([]int64{}, ints...), 2, 7)}
		if err := e.convBack(k, back, *dw, []operand{x, grad, w}); err != nil {
			return err
		}
	}
	return nil
}
