package gpuexec

import (
	"fmt"
	"math"

	"github.com/gpumem/playground/gpu"
	"github.com/gpumem/playground/gpu/kernels"
	"github.com/gpumem/playground/sim/torch"
)

// Pooling (max and average pooling over 1 to 3 spatial axes, adaptive
// max and average pooling, and their backwards) over the window tables of
// ops_nn_window.go, in f32: the windows are gathered into [planes, L, K]
// (padding reads −inf for max, 0 for average), then reduced; the
// backwards scatter-add the gradient into a zeroed f32 plane. Float16
// and bfloat16 operands go through f32 copies; float64 ones compute in
// float64 scratch (scratch.acc = redAcc: PyTorch's accscalar for double).

// maxPool is ExecMaxPool and ExecAdaptiveMaxPool: the running maximum
// over the K window elements takes an element when it is greater or NaN
// (PyTorch's test in DilatedMaxPool2d/3d.cu and AdaptiveMaxPooling*.cu),
// and its flat index in the input plane with it; an all −inf window keeps
// the first valid element's index.
func (e *Executor) maxPool(k gpu.Kernels, op *torch.ExecOp, out operand, ins []operand) error {
	outs, err := e.resolveOuts(op, out)
	if err != nil {
		return err
	}
	if len(outs) != 2 || len(ins) != 1 {
		return fmt.Errorf("gpuexec: %s takes y, indices and x", op.Kind)
	}
	x, y, idx := ins[0], outs[0], outs[1]
	if idx.kt != kernels.I64 || !sameShape(y.shape, idx.shape) {
		return fmt.Errorf("gpuexec: %s indices must be int64 of y's shape", op.Kind)
	}
	g, err := maxPoolGeom(op.Kind, op.Ints, x.shape, y.shape)
	if err != nil {
		return err
	}
	vals, l, kk := g.table()
	np := g.np
	if np*l == 0 {
		return nil
	}
	first := firstIndices(vals, l, kk, g.plane())
	return e.withScratch(out.cuda(), func(s *scratch) error {
		s.acc = redAcc(x.kt)
		xf, err := s.asF32(k, x)
		if err != nil {
			return err
		}
		xf = reshaped(xf, []int64{np, g.plane()})
		tbl, err := s.table(kernels.I64, []int64{l, kk}, vals)
		if err != nil {
			return err
		}
		tblF, err := s.table(redAcc(x.kt), []int64{l, kk}, vals)
		if err != nil {
			return err
		}
		firstF, err := s.table(redAcc(x.kt), []int64{l}, first)
		if err != nil {
			return err
		}
		win, err := s.f32([]int64{np, l, kk})
		if err != nil {
			return err
		}
		if err := e.gatherWindows(k, win, xf, tbl, float32(math.Inf(-1))); err != nil {
			return err
		}
		cur, err := s.f32([]int64{np, l})
		if err != nil {
			return err
		}
		at, err := s.f32([]int64{np, l})
		if err != nil {
			return err
		}
		take, err := s.typed(kernels.B8, []int64{np, l})
		if err != nil {
			return err
		}
		nan, err := s.typed(kernels.B8, []int64{np, l})
		if err != nil {
			return err
		}
		if err := e.mapOp(k, "fill", cur, nil, float32(math.Inf(-1)), 0); err != nil {
			return err
		}
		if err := e.mapOp(k, "copy", at, []operand{firstF}, 0, 0); err != nil {
			return err
		}
		for j := int64(0); j < kk; j++ {
			col := win
			col.shape, col.strides, col.addr = []int64{np, l}, []int64{l * kk, kk}, win.addr+uint64(win.kt.Size()*j)
			ij := tblF
			ij.shape, ij.strides, ij.addr = []int64{l}, []int64{kk}, tblF.addr+uint64(tblF.kt.Size()*j)
			if err := run([]func() error{
				func() error { return e.mapOp(k, "gt", take, []operand{col, cur}, 0, 0) },
				func() error { return e.mapOp(k, "isnan", nan, []operand{col}, 0, 0) },
				func() error { return e.mapOp(k, "logical_or", take, []operand{take, nan}, 0, 0) },
				func() error { return e.mapOp(k, "where", at, []operand{take, ij, at}, 0, 0) },
				func() error { return e.mapOp(k, "where", cur, []operand{take, col, cur}, 0, 0) },
			}); err != nil {
				return err
			}
		}
		if err := e.mapOp(k, "copy", y, []operand{reshaped(cur, y.shape)}, 0, 0); err != nil {
			return err
		}
		return e.mapOp(k, "copy", idx, []operand{reshaped(at, idx.shape)}, 0, 0)
	})
}

// maxPoolBack is ExecMaxPoolBack (Ints nil for 2-d, [dims] otherwise):
// grad_x[plane, index] += grad into a zeroed f32 plane.
func (e *Executor) maxPoolBack(k gpu.Kernels, op *torch.ExecOp, out operand, ins []operand) error {
	if len(ins) != 2 || ins[1].kt != kernels.I64 || !sameShape(ins[0].shape, ins[1].shape) {
		return fmt.Errorf("gpuexec: max_pool backward takes grad and int64 indices")
	}
	sd, err := backDims(op.Ints)
	if err != nil {
		return err
	}
	n, in, err := poolSpatial(out.shape, sd)
	if err != nil {
		return err
	}
	ni, os, err := poolSpatial(ins[1].shape, sd)
	if err != nil {
		return err
	}
	if n != ni || len(out.shape) != len(ins[1].shape) {
		return errUnsupported("max_pool backward of %v into %v", ins[1].shape, out.shape)
	}
	hw, l := numel(in), numel(os)
	if n*hw == 0 {
		return nil
	}
	return e.withScratch(out.cuda(), func(s *scratch) error {
		s.acc = redAcc(out.kt)
		gf, err := s.asF32(k, ins[0])
		if err != nil {
			return err
		}
		ip := ins[1]
		if !contiguous(ip.shape, ip.strides) { // channels_last indices
			if ip, err = s.typed(kernels.I64, ins[1].shape); err != nil {
				return err
			}
			if err := e.mapOp(k, "copy", ip, []operand{ins[1]}, 0, 0); err != nil {
				return err
			}
		}
		ip = reshaped(ip, []int64{n, l})
		acc, err := s.f32([]int64{n, hw})
		if err != nil {
			return err
		}
		if err := e.mapOp(k, "fill", acc, nil, 0, 0); err != nil {
			return err
		}
		if err := e.indexLaunch(k, kernels.IndexScatterAdd, acc.kt, []int64{n, l}, acc, reshaped(gf, []int64{n, l}), ip,
			[3][]int64{{hw, 0}, {l, 1}, {l, 1}}, 1, hw, torch.NoSkipIndex); err != nil {
			return err
		}
		return e.mapOp(k, "copy", out, []operand{reshaped(acc, out.shape)}, 0, 0)
	})
}
