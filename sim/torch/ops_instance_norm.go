package torch

// Instance normalisation as ATen's instance_norm (Normalization.cpp) runs
// it: the weight, bias and running statistics are repeated N times
// (repeat: one [N*C] copy each, in that order), the input is made
// contiguous and viewed as [1, N*C, *], batch_norm runs on it (cuDNN with
// affine parameters, the native kernels without: see BatchNorm), and, when
// the input's statistics are used, the running statistics get the mean over
// N of their repeated copies (mean(0) then copy_; in eval nothing). The
// result is a view of batch_norm's output with the input's shape
// (ViewBackward0). Measured in testdata/questions/q17_norm_act.*.

// InstanceNormArgs are F.instance_norm's tensors and flags.
type InstanceNormArgs struct {
	X, RunningMean, RunningVar, Weight, Bias *Tensor
	UseInputStats                            bool
	Momentum, Eps                            float64
}

// InstanceNorm is torch.instance_norm (F.instance_norm after its spatial
// size check).
func (rt *Runtime) InstanceNorm(a InstanceNormArgs) (*Tensor, error) {
	if !a.UseInputStats && (a.RunningMean == nil || a.RunningVar == nil) {
		return nil, Errorf(RuntimeError, "Expected running_mean and running_var to be defined when use_input_stats is false")
	}
	x := a.X
	if len(x.shape) < 2 {
		return nil, Errorf(IndexError, "Dimension out of range (expected to be in range of [%d, %d], but got 1)", -max(len(x.shape), 1), max(len(x.shape), 1)-1)
	}
	b, c := x.shape[0], x.shape[1]
	var reps []*Tensor
	defer func() {
		for i := len(reps) - 1; i >= 0; i-- {
			releaseAll(reps[i : i+1])
		}
	}()
	for _, t := range []*Tensor{a.Weight, a.Bias, a.RunningMean, a.RunningVar} {
		var r *Tensor
		if t != nil {
			var err error
			if r, err = rt.repeatVector(t, b); err != nil {
				return nil, err
			}
		}
		reps = append(reps, r)
	}
	xc, err := rt.Contiguous(x)
	if err != nil {
		return nil, err
	}
	defer xc.Release()
	shape := cloneShape(x.shape)
	shape[0], shape[1] = 1, b*c
	xr, err := rt.View(xc, shape)
	if err != nil {
		return nil, err
	}
	defer xr.Release()
	out, err := rt.BatchNorm(BatchNormArgs{X: xr, Weight: reps[0], Bias: reps[1], RunningMean: reps[2], RunningVar: reps[3],
		Training: a.UseInputStats, Momentum: a.Momentum, Eps: a.Eps})
	if err != nil {
		return nil, err
	}
	defer out.Release()
	for i, t := range []*Tensor{a.RunningMean, a.RunningVar} {
		if t == nil || !a.UseInputStats {
			continue
		}
		if err := rt.instanceNormStat(t, reps[2+i], b, c); err != nil {
			return nil, err
		}
	}
	return rt.View(out, x.shape)
}

// instanceNormStat is at::alias(running).copy_(repeated.view({b, c}).mean(0)).
func (rt *Runtime) instanceNormStat(running, rep *Tensor, b, c int64) error {
	v, err := rt.View(rep, []int64{b, c})
	if err != nil {
		return err
	}
	defer v.Release()
	m, err := rt.Mean(v, []int64{0}, false, nil)
	if err != nil {
		return err
	}
	defer m.Release()
	r, err := rt.CopyInplace(running, m)
	if err != nil {
		return err
	}
	r.Release()
	return nil
}

// repeatVector is t.repeat(n) for a 1-d t (repeat_if_defined): one [n*C]
// copy. RepeatBackward0 (repeat_backward) passes the gradient through when
// n is 1, else sums its [n, C] view over the first dimension.
func (rt *Runtime) repeatVector(t *Tensor, n int64) (*Tensor, error) {
	if len(t.shape) != 1 {
		return nil, Errorf(RuntimeError, "Number of dimensions of repeat dims can not be smaller than number of dimensions of tensor")
	}
	c := t.shape[0]
	out, err := rt.empty("repeat", []int64{n * c}, nil, t.dtype, t.device)
	if err != nil {
		return nil, err
	}
	if rt.exec != nil {
		rt.markNotComputed(out)
	}
	node := rt.record("RepeatBackward0", t)
	node.finish(func(_ *Node, g []*Tensor) ([]*Tensor, error) {
		if n == 1 {
			return []*Tensor{g[0].Retain()}, nil
		}
		v, err := rt.Reshape(g[0], []int64{n, c})
		if err != nil {
			return nil, err
		}
		defer v.Release()
		r, err := rt.Sum(v, []int64{0}, false, nil)
		return []*Tensor{r}, err
	}, out)
	return out, nil
}
