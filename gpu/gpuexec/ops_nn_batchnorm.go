package gpuexec

import (
	"fmt"

	"github.com/gpumem/playground/gpu"
	"github.com/gpumem/playground/gpu/kernels"
	"github.com/gpumem/playground/sim/torch"
)

// Batch normalisation over dim 1 in f32 (float64 in float64: scratch.acc,
// the scalars in double through sc64): the input is copied channel-major
// into [C, M] (M = N·spatial) so that the per-channel statistics are row
// reductions, as layer_norm's; results are copied back through the
// permuted view of the (contiguous) output.

// channelView is a contiguous [N, C, *S] operand seen as [C, N, S].
func channelView(x operand) (operand, error) {
	if len(x.shape) < 2 || !contiguous(x.shape, x.strides) {
		return operand{}, errUnsupported("batch_norm of a %d-d or strided operand", len(x.shape))
	}
	n, c, sp := x.shape[0], x.shape[1], numel(x.shape[2:])
	x.shape, x.strides = []int64{c, n, sp}, []int64{sp, c * sp, 1}
	return x, nil
}

// channelRows copies x ([N, C, *S], any layout) into f32 [C, M].
func (e *Executor) channelRows(k gpu.Kernels, s *scratch, x operand) (operand, error) {
	xf, err := s.asF32(k, x)
	if err != nil {
		return operand{}, err
	}
	v, err := channelView(xf)
	if err != nil {
		return operand{}, err
	}
	t, err := s.f32(v.shape)
	if err != nil {
		return operand{}, err
	}
	if err := e.mapOp(k, "copy", t, []operand{v}, 0, 0); err != nil {
		return operand{}, err
	}
	return reshaped(t, []int64{v.shape[0], v.shape[1] * v.shape[2]}), nil
}

// storeRows copies f32 [C, M] rows into the contiguous [N, C, *S] out.
func (e *Executor) storeRows(k gpu.Kernels, out, rows operand) error {
	v, err := channelView(out)
	if err != nil {
		return err
	}
	return e.mapOp(k, "copy", v, []operand{reshaped(rows, v.shape)}, 0, 0)
}

// column is an optional [C] operand in f32 as [C, 1] (nil stays nil).
func column(k gpu.Kernels, s *scratch, p *operand) (*operand, error) {
	if p == nil {
		return nil, nil
	}
	f, err := s.asF32(k, *p)
	if err != nil {
		return nil, err
	}
	f = reshaped(f, []int64{numel(p.shape), 1})
	return &f, nil
}

// batchNorm is ExecBatchNorm.
func (e *Executor) batchNorm(k gpu.Kernels, op *torch.ExecOp, out operand, ins []operand) error {
	outs, err := e.resolveOuts(op, out)
	if err != nil {
		return err
	}
	o, in, ints, err := optional(op, outs, ins, 5, 5)
	if err != nil {
		return err
	}
	if o[0] == nil || in[0] == nil || len(ints) < 1 || len(op.Scalars) < 2 {
		return fmt.Errorf("gpuexec: batch_norm takes y, x, training, eps and momentum")
	}
	train, eps, mom := ints[0] != 0, float32(op.Scalars[0]), float32(op.Scalars[1])
	if !train && (in[3] == nil || in[4] == nil) {
		return fmt.Errorf("gpuexec: batch_norm in evaluation takes the running statistics")
	}
	acc := redAcc(in[0].kt)
	sc := sc64(acc)
	return e.withScratch(out.cuda(), func(s *scratch) error {
		s.acc = acc
		x, err := e.channelRows(k, s, *in[0])
		if err != nil {
			return err
		}
		c, m := x.shape[0], x.shape[1]
		var cols [4]*operand // weight, bias, running mean, running var
		for i := range cols {
			if cols[i], err = column(k, s, in[1+i]); err != nil {
				return err
			}
		}
		mean, inv := cols[2], cols[3]
		if train {
			mb, err := s.f32([]int64{c, 1})
			if err != nil {
				return err
			}
			vb, err := s.f32([]int64{c, 1})
			if err != nil {
				return err
			}
			sq, err := s.f32([]int64{c, m})
			if err != nil {
				return err
			}
			tmp, err := s.f32([]int64{c, 1})
			if err != nil {
				return err
			}
			if err := run([]func() error{
				func() error { return e.reduceInto(k, mb, x, true, 1) },
				func() error { return e.mapOp(k, "sub", x, []operand{x, mb}, 1, 0) },
				func() error { return e.mapOp(k, "square", sq, []operand{x}, 0, 0) },
				func() error { return e.reduceInto(k, vb, sq, true, 1) },
			}); err != nil {
				return err
			}
			// running statistics: (1−m)·running + m·stat, the variance unbiased
			unbias, unbias64 := float32(1), 1.0
			if m > 1 {
				unbias, unbias64 = float32(float64(m)/float64(m-1)), float64(m)/float64(m-1)
			}
			for i, st := range []operand{mb, vb} {
				run := o[3+i]
				if run == nil || cols[2+i] == nil {
					continue
				}
				r := *cols[2+i]
				scale, scale64 := mom, op.Scalars[1]
				if i == 1 {
					scale, scale64 = mom*unbias, op.Scalars[1]*unbias64
				}
				if err := e.mapOp64(k, "affine", tmp, []operand{st}, sc(scale, scale64), 0); err != nil {
					return err
				}
				if err := e.mapOp64(k, "add", r, []operand{tmp, r}, sc(1-mom, 1-op.Scalars[1]), 0); err != nil {
					return err
				}
				if err := e.mapOp(k, "copy", *run, []operand{reshaped(r, run.shape)}, 0, 0); err != nil {
					return err
				}
			}
			if err := e.mapOp64(k, "affine", vb, []operand{vb}, 1, sc(eps, op.Scalars[0])); err != nil {
				return err
			}
			if err := e.mapOp(k, "rsqrt", vb, []operand{vb}, 0, 0); err != nil {
				return err
			}
			mean, inv = &mb, &vb
			for i, st := range []operand{mb, vb} {
				if p := o[1+i]; p != nil {
					if err := e.mapOp(k, "copy", *p, []operand{reshaped(st, p.shape)}, 0, 0); err != nil {
						return err
					}
				}
			}
		} else {
			iv, err := s.f32([]int64{c, 1})
			if err != nil {
				return err
			}
			if err := e.mapOp64(k, "affine", iv, []operand{*inv}, 1, sc(eps, op.Scalars[0])); err != nil {
				return err
			}
			if err := e.mapOp(k, "rsqrt", iv, []operand{iv}, 0, 0); err != nil {
				return err
			}
			inv = &iv
			if err := e.mapOp(k, "sub", x, []operand{x, *mean}, 1, 0); err != nil {
				return err
			}
		}
		if err := e.mapOp(k, "mul", x, []operand{x, *inv}, 0, 0); err != nil {
			return err
		}
		if w := cols[0]; w != nil {
			if err := e.mapOp(k, "mul", x, []operand{x, *w}, 0, 0); err != nil {
				return err
			}
		}
		if b := cols[1]; b != nil {
			if err := e.mapOp(k, "add", x, []operand{x, *b}, 1, 0); err != nil {
				return err
			}
		}
		return e.storeRows(k, *o[0], x)
	})
}

// batchNormBack is ExecBatchNormBack: with x̂ = (x − mean)·invstd,
// grad_b = Σ g, grad_w = Σ g·x̂, and grad_x = w·invstd·(g − mean(g) −
// x̂·mean(g·x̂)) from the batch statistics, or w·invstd·g from the
// running ones.
func (e *Executor) batchNormBack(k gpu.Kernels, op *torch.ExecOp, out operand, ins []operand) error {
	outs, err := e.resolveOuts(op, out)
	if err != nil {
		return err
	}
	o, in, ints, err := optional(op, outs, ins, 3, 7)
	if err != nil {
		return err
	}
	if in[0] == nil || in[1] == nil || len(ints) < 1 || len(op.Scalars) < 1 {
		return fmt.Errorf("gpuexec: batch_norm_backward takes grad, x, training and eps")
	}
	train := ints[0] != 0
	st := [2]*operand{in[5], in[6]}
	if !train {
		st = [2]*operand{in[3], in[4]}
	}
	if st[0] == nil || st[1] == nil {
		return errUnsupported("batch_norm_backward without its statistics")
	}
	sc := sc64(redAcc(in[1].kt))
	return e.withScratch(out.cuda(), func(s *scratch) error {
		s.acc = redAcc(in[1].kt)
		g, err := e.channelRows(k, s, *in[0])
		if err != nil {
			return err
		}
		x, err := e.channelRows(k, s, *in[1])
		if err != nil {
			return err
		}
		c, m := x.shape[0], x.shape[1]
		mean, err := column(k, s, st[0])
		if err != nil {
			return err
		}
		inv, err := column(k, s, st[1])
		if err != nil {
			return err
		}
		if !train {
			if err := e.mapOp64(k, "affine", *inv, []operand{*inv}, 1, sc(float32(op.Scalars[0]), op.Scalars[0])); err != nil {
				return err
			}
			if err := e.mapOp(k, "rsqrt", *inv, []operand{*inv}, 0, 0); err != nil {
				return err
			}
		}
		w, err := column(k, s, in[2])
		if err != nil {
			return err
		}
		if err := run([]func() error{
			func() error { return e.mapOp(k, "sub", x, []operand{x, *mean}, 1, 0) },
			func() error { return e.mapOp(k, "mul", x, []operand{x, *inv}, 0, 0) },
		}); err != nil {
			return err
		}
		sg, err := s.f32([]int64{c, 1})
		if err != nil {
			return err
		}
		sgx, err := s.f32([]int64{c, 1})
		if err != nil {
			return err
		}
		t, err := s.f32([]int64{c, m})
		if err != nil {
			return err
		}
		if err := run([]func() error{
			func() error { return e.reduceInto(k, sg, g, false, 1) },
			func() error { return e.mapOp(k, "mul", t, []operand{g, x}, 0, 0) },
			func() error { return e.reduceInto(k, sgx, t, false, 1) },
		}); err != nil {
			return err
		}
		for i, v := range []operand{sgx, sg} {
			if p := o[1+i]; p != nil {
				if err := e.mapOp(k, "copy", *p, []operand{reshaped(v, p.shape)}, 0, 0); err != nil {
					return err
				}
			}
		}
		dx := o[0]
		if dx == nil {
			return nil
		}
		if train {
			n := sc(float32(1/float64(m)), 1/float64(m))
			if err := run([]func() error{
				func() error { return e.mapOp64(k, "affine", sg, []operand{sg}, n, 0) },
				func() error { return e.mapOp64(k, "affine", sgx, []operand{sgx}, n, 0) },
				func() error { return e.mapOp(k, "mul", t, []operand{x, sgx}, 0, 0) },
				func() error { return e.mapOp(k, "sub", g, []operand{g, sg}, 1, 0) },
				func() error { return e.mapOp(k, "sub", g, []operand{g, t}, 1, 0) },
			}); err != nil {
				return err
			}
		}
		if err := e.mapOp(k, "mul", g, []operand{g, *inv}, 0, 0); err != nil {
			return err
		}
		if w != nil {
			if err := e.mapOp(k, "mul", g, []operand{g, *w}, 0, 0); err != nil {
				return err
			}
		}
		return e.storeRows(k, *dx, g)
	})
}

// sc64 picks a scalar's form for scratch of type acc: the double for
// float64, else the float32 the f32 path has always computed.
func sc64(acc kernels.DType) func(v32 float32, v64 float64) float64 {
	return func(v32 float32, v64 float64) float64 {
		if acc == kernels.F64 {
			return v64
		}
		return float64(v32)
	}
}
