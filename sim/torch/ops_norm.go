package torch

import "math"

// Batch normalisation as PyTorch 2.11 runs it on CUDA: at::batch_norm ->
// _batch_norm_impl_index picks cuDNN (_select_batch_norm_backend) or the
// native kernels (aten/src/ATen/native/cuda/Normalization.cu/.cuh), and
// the two allocate differently.

// BatchNormArgs are F.batch_norm's tensors and flags.
type BatchNormArgs struct {
	X, RunningMean, RunningVar, Weight, Bias *Tensor
	Training                                 bool
	Eps                                      float64
	// Momentum is the running statistics' update factor (GPU values only:
	// running = (1−m)·running + m·batch statistic, the variance unbiased).
	Momentum float64
}

// accType is at::toAccumulateType(t, is_cuda=true) for floating types.
func accType(d DType) DType {
	if d == Float16 || d == BFloat16 {
		return Float32
	}
	return d
}

// BatchNorm is F.batch_norm (torch.batch_norm with cudnn enabled).
func (rt *Runtime) BatchNorm(a BatchNormArgs) (*Tensor, error) {
	x := a.X
	if len(x.shape) < 2 {
		return nil, Errorf(IndexError, "Dimension out of range (expected to be in range of [-1, 0], but got 1)")
	}
	c := x.shape[1]
	check := func(name string, t *Tensor) error {
		if t != nil && t.Numel() != c {
			return Errorf(RuntimeError, "%s should contain %d elements not %d", name, c, t.Numel())
		}
		return nil
	}
	if a.RunningMean == nil && !a.Training {
		return nil, Errorf(RuntimeError, "running_mean must be defined in evaluation mode")
	}
	if a.RunningVar == nil && !a.Training {
		return nil, Errorf(RuntimeError, "running_var must be defined in evaluation mode")
	}
	for _, p := range []struct {
		n string
		t *Tensor
	}{{"running_mean", a.RunningMean}, {"running_var", a.RunningVar}, {"weight", a.Weight}, {"bias", a.Bias}} {
		if err := check(p.n, p.t); err != nil {
			return nil, err
		}
	}
	if _, err := commonDevice("batch_norm", x, a.RunningMean, a.RunningVar, a.Weight, a.Bias); err != nil {
		return nil, err
	}
	if x.Numel() == 0 {
		return nil, Errorf(NotImplementedError, "batch_norm of an empty input is not simulated")
	}
	if rt.useCudnnBatchNorm(a) {
		return rt.cudnnBatchNorm(a)
	}
	return rt.nativeBatchNorm(a)
}

// useCudnnBatchNorm is _select_batch_norm_backend == Cudnn (cuDNN 9's
// CUDNN_BN_MIN_EPSILON is 0).
func (rt *Runtime) useCudnnBatchNorm(a BatchNormArgs) bool {
	x, w, b := a.X, a.Weight, a.Bias
	if !x.device.IsCUDA() || w == nil || b == nil || x.dtype == BFloat16 || w.dtype == BFloat16 {
		return false
	}
	if x.dtype == Float16 && w.dtype != Float32 {
		return false
	}
	stats := a.RunningMean != nil && a.RunningVar != nil
	if !stats && !(a.RunningMean == nil && a.RunningVar == nil && a.Training) {
		return false
	}
	if len(x.shape) < 3 || a.Eps < 0 || x.Numel() >= math.MaxInt32 {
		return false
	}
	return (a.Training && x.shape[0] <= 880801) || (!a.Training && x.shape[0] <= 65535)
}

// cudnnBatchNorm is cudnn_batch_norm on input.contiguous(its suggested
// memory format), a copy when it is not: the output (in that format),
// and when training save_mean/save_var [C] in the weight's dtype (the
// NCHW spatial mode needs no workspace and no reserve space). The node
// CudnnBatchNormBackward0 saves input, weight, running stats, save_mean
// and save_var.
func (rt *Runtime) cudnnBatchNorm(a BatchNormArgs) (*Tensor, error) {
	x := a.X
	mf := suggestMemoryFormat(x)
	if !x.IsContiguousIn(mf) {
		// input.contiguous(input.suggest_memory_format())
		cx, err := rt.empty("batch_norm", x.shape, formatStridesOf(x.shape, mf), x.dtype, x.device)
		if err != nil {
			return nil, err
		}
		defer cx.Release()
		if rt.exec != nil {
			rt.compute1(ExecCopy, cx, []*Tensor{x})
		}
		x = cx
	}
	out, err := rt.empty("cudnn_batch_norm", x.shape, formatStridesOf(x.shape, mf), x.dtype, x.device)
	if err != nil {
		return nil, err
	}
	var saveMean, saveVar *Tensor
	if a.Training {
		c := x.shape[1]
		if saveMean, err = rt.empty("cudnn_batch_norm", []int64{c}, nil, a.Weight.dtype, x.device); err == nil {
			saveVar, err = rt.empty("cudnn_batch_norm", []int64{c}, nil, a.Weight.dtype, x.device)
		}
		if err != nil {
			releaseAll([]*Tensor{out, saveMean})
			return nil, err
		}
	}
	if rt.exec != nil {
		rt.batchNormValues(a, out, saveMean, saveVar)
	}
	n := rt.record("CudnnBatchNormBackward0", a.X, a.Weight, a.Bias)
	if n != nil {
		n.save(x, false)
		n.save(a.Weight, false)
		n.save(a.RunningMean, false)
		n.save(a.RunningVar, false)
		n.save(saveMean, true)
		n.save(saveVar, true)
	}
	training, eps := a.Training, a.Eps
	n.finish(func(n *Node, g []*Tensor) ([]*Tensor, error) {
		var res []*Tensor
		var err error
		if !training {
			// cuDNN has no inference backward: native_batch_norm_backward
			res, err = rt.nativeBatchNormBackward(n, g[0], false)
		} else {
			res, err = rt.cudnnBatchNormBackward(n, g[0])
		}
		if err == nil && rt.exec != nil {
			rt.batchNormBackValues(n, g[0], res, training, eps)
		}
		return res, err
	}, out)
	releaseAll([]*Tensor{saveMean, saveVar})
	return out, nil
}

// cudnnBatchNormBackward is cudnn_batch_norm_backward: grad_output made
// contiguous, then grad_input, grad_weight and grad_bias are always
// allocated (the ones autograd does not need are dropped afterwards).
func (rt *Runtime) cudnnBatchNormBackward(n *Node, g *Tensor) ([]*Tensor, error) {
	res := make(gradSlot, 3)
	x, err := n.unpack(0)
	if err != nil {
		return nil, err
	}
	defer x.Release()
	w, err := n.unpack(1)
	if err != nil {
		return nil, err
	}
	defer w.Release()
	// grad_output.contiguous(input.suggest_memory_format()); grad_input
	// is allocated in that format
	mf := suggestMemoryFormat(x)
	var gc *Tensor
	if !g.IsContiguousIn(mf) {
		if gc, err = rt.empty("cudnn_batch_norm_backward", g.shape, formatStridesOf(g.shape, mf), g.dtype, g.device); err != nil {
			return nil, err
		}
	}
	shapes := [][]int64{x.shape, w.shape, w.shape}
	dts := []DType{x.dtype, w.dtype, w.dtype}
	for i := range res {
		r, err := rt.empty("cudnn_batch_norm_backward", shapes[i], formatStridesOf(shapes[i], mf), dts[i], g.device)
		if err != nil {
			releaseAll([]*Tensor{gc})
			return res.fail(err)
		}
		res[i] = r
	}
	releaseAll([]*Tensor{gc})
	for i := range res {
		if !n.needsInput(i) {
			res[i].Release()
			res[i] = nil
		}
	}
	return res, nil
}

// bnImpl is batch_norm_choose_impl's answer.
type bnImpl uint8

const (
	bnContiguous bnImpl = iota
	bnChannelsLast
	bnGeneral
)

// isChannelsLastContiguous is is_contiguous(ChannelsLast / ChannelsLast3d)
// for 4-d / 5-d tensors (size-1 dims are ignored).
func isChannelsLastContiguous(shape, strides []int64) bool {
	var order []int
	switch len(shape) {
	case 4:
		order = []int{1, 3, 2, 0}
	case 5:
		order = []int{1, 4, 3, 2, 0}
	default:
		return false
	}
	expected := int64(1)
	for _, d := range order {
		if shape[d] != 1 {
			if strides[d] != expected {
				return false
			}
			expected *= shape[d]
		}
	}
	return true
}

// bnChannelsLastKernels is batch_norm_use_channels_last_kernels.
func bnChannelsLastKernels(t *Tensor) bool {
	return isChannelsLastContiguous(t.shape, t.strides) || (t.IsContiguous() && t.strides[1] == 1)
}

// bnChooseImpl is batch_norm_choose_impl(self) (32-bit indexing assumed:
// the General path for huge tensors is not distinguished).
func bnChooseImpl(t *Tensor) bnImpl {
	if t.IsContiguous() {
		if t.strides[1] == 1 {
			return bnChannelsLast
		}
		return bnContiguous
	}
	if isChannelsLastContiguous(t.shape, t.strides) {
		return bnChannelsLast
	}
	return bnGeneral
}

// flexibleGridY is flexible_launch_configs(reduction, stride, coop=true)'s
// (grid.x, grid.y) (Normalization.cuh: OPTIMAL_TILE_W 32, MAX_BLOCK_SIZE
// 512, ELEMENTS_PER_THREAD 16, MAX_H_BLOCK 128).
func flexibleGrid(reduction, stride int64) (int64, int64) {
	const tileW, maxBlock, perThread, maxH = 32, 512, 16, 128
	bx := min(lastPow2(stride), tileW)
	by := min(lastPow2(divUp(reduction, perThread)), maxBlock/bx)
	if bx*by != maxBlock {
		bx = min(lastPow2(stride), maxBlock/by)
	}
	gx := divUp(stride, bx)
	gy := min(divUp(reduction, by*perThread), maxH)
	if gy < 8 {
		gy = 1
	}
	return gx, gy
}

// bnStaging allocates and frees the channels-last kernels' cross-block
// staging buffer (per*stride*grid.y accumulators) and semaphores
// (grid.x ints, zeroed), when the reduction is split across blocks.
func (rt *Runtime) bnStaging(op string, x *Tensor, per int64) error {
	c := x.shape[1]
	gx, gy := flexibleGrid(x.Numel()/c, c)
	if gy <= 1 {
		return nil
	}
	st, err := rt.empty(op, []int64{per * c * gy}, nil, accType(x.dtype), x.device)
	if err != nil {
		return err
	}
	sem, err := rt.empty(op, []int64{gx}, nil, Int32, x.device)
	if err != nil {
		st.Release()
		return err
	}
	sem.Release()
	st.Release()
	return nil
}

// nativeBatchNorm is native_batch_norm (batch_norm_cuda): the contiguous
// output and save_mean/save_invstd [C] in the accumulation dtype; the
// training statistics of a channels-last-shaped input (e.g. [N, C]) may
// stage partial sums across blocks; the General elementwise path wraps a
// missing weight/bias in scalar tensors. NativeBatchNormBackward0 saves
// input, weight, running stats, save_mean and save_invstd.
func (rt *Runtime) nativeBatchNorm(a BatchNormArgs) (*Tensor, error) {
	x := a.X
	c := x.shape[1]
	out, err := rt.empty("native_batch_norm", x.shape, nil, x.dtype, x.device)
	if err != nil {
		return nil, err
	}
	var saveMean, saveInvstd *Tensor
	fail := func(err error) (*Tensor, error) {
		releaseAll([]*Tensor{out, saveMean, saveInvstd})
		return nil, err
	}
	if saveMean, err = rt.empty("native_batch_norm", []int64{c}, nil, accType(x.dtype), x.device); err != nil {
		return fail(err)
	}
	if saveInvstd, err = rt.empty("native_batch_norm", []int64{c}, nil, accType(x.dtype), x.device); err != nil {
		return fail(err)
	}
	impl := bnChooseImpl(x)
	if a.Training && impl == bnChannelsLast {
		if err := rt.bnStaging("batch_norm_stats", x, 4); err != nil {
			return fail(err)
		}
	}
	if impl == bnGeneral {
		var scalars []*Tensor
		for _, p := range []*Tensor{a.Weight, a.Bias} {
			if p == nil {
				s, err := rt.empty("batch_norm_elementwise", nil, nil, accType(x.dtype), x.device)
				if err != nil {
					releaseAll(scalars)
					return fail(err)
				}
				scalars = append([]*Tensor{s}, scalars...)
			}
		}
		releaseAll(scalars)
	}
	if rt.exec != nil {
		rt.batchNormValues(a, out, saveMean, saveInvstd)
	}
	n := rt.record("NativeBatchNormBackward0", a.X, a.Weight, a.Bias)
	if n != nil {
		n.save(x, false)
		n.save(a.Weight, false)
		n.save(a.RunningMean, false)
		n.save(a.RunningVar, false)
		n.save(saveMean, true)
		n.save(saveInvstd, true)
	}
	training, eps := a.Training, a.Eps
	n.finish(func(n *Node, g []*Tensor) ([]*Tensor, error) {
		res, err := rt.nativeBatchNormBackward(n, g[0], training)
		if err == nil && rt.exec != nil {
			rt.batchNormBackValues(n, g[0], res, training, eps)
		}
		return res, err
	}, out)
	releaseAll([]*Tensor{saveMean, saveInvstd})
	return out, nil
}

// nativeBatchNormBackward is batch_norm_backward_cuda: the fused kernel
// (grad_input, grad_weight, grad_bias as needed) for NCHW-like inputs,
// otherwise the reduce kernel (sum_dy/sum_dy_xmu and the parameter
// gradients; the channels-last variant always allocates all four and may
// stage across blocks) followed by the elementwise grad_input.
func (rt *Runtime) nativeBatchNormBackward(n *Node, g *Tensor, train bool) ([]*Tensor, error) {
	res := make(gradSlot, 3)
	x, err := n.unpack(0)
	if err != nil {
		return nil, err
	}
	defer x.Release()
	w, err := n.unpack(1)
	if err != nil {
		return nil, err
	}
	if w != nil {
		defer w.Release()
	}
	m0, m1, m2 := n.needsInput(0), n.needsInput(1), n.needsInput(2)
	c := x.shape[1]
	param := func(op string) (*Tensor, error) {
		dt := accType(x.dtype)
		if w != nil {
			dt = w.dtype
		}
		return rt.empty(op, []int64{c}, nil, dt, x.device)
	}
	needsReduction := train || m1 || m2
	if needsReduction && m0 && !bnChannelsLastKernels(x) {
		if res[0], err = rt.empty("native_batch_norm_backward", x.shape, nil, x.dtype, x.device); err != nil {
			return res.fail(err)
		}
		for i, m := range []bool{m1, m2} {
			if m {
				if res[1+i], err = param("native_batch_norm_backward"); err != nil {
					return res.fail(err)
				}
			}
		}
		return res, nil
	}
	var tmps []*Tensor
	defer func() { releaseAll(tmps) }()
	if needsReduction {
		if bnChannelsLastKernels(g) && bnChannelsLastKernels(x) {
			for i := 0; i < 2; i++ {
				t, err := rt.empty("batch_norm_backward_reduce", []int64{c}, nil, accType(x.dtype), x.device)
				if err != nil {
					return res.fail(err)
				}
				tmps = append([]*Tensor{t}, tmps...)
			}
			if w != nil {
				for i := 1; i < 3; i++ {
					if res[i], err = param("batch_norm_backward_reduce"); err != nil {
						return res.fail(err)
					}
				}
			}
			if err := rt.bnStaging("batch_norm_backward_reduce", x, 2); err != nil {
				return res.fail(err)
			}
		} else {
			if m0 {
				for i := 0; i < 2; i++ {
					t, err := rt.empty("batch_norm_backward_reduce", []int64{c}, nil, accType(x.dtype), x.device)
					if err != nil {
						return res.fail(err)
					}
					tmps = append([]*Tensor{t}, tmps...)
				}
			}
			for i, m := range []bool{m1, m2} {
				if m {
					if res[1+i], err = param("batch_norm_backward_reduce"); err != nil {
						return res.fail(err)
					}
				}
			}
		}
	}
	if m0 {
		if res[0], err = rt.empty("batch_norm_backward_elemt", x.shape, nil, g.dtype, x.device); err != nil {
			return res.fail(err)
		}
	}
	for i := 1; i < 3; i++ {
		if res[i] != nil && !n.needsInput(i) {
			res[i].Release()
			res[i] = nil
		}
	}
	return res, nil
}

// batchNormValues computes batch_norm's output and, when training, the
// saved statistics and the running statistics' update.
func (rt *Runtime) batchNormValues(a BatchNormArgs, y, saveMean, saveInvstd *Tensor) {
	var rm, rv *Tensor
	tr := int64(0)
	if a.Training {
		rm, rv, tr = a.RunningMean, a.RunningVar, 1
	} else {
		saveMean, saveInvstd = nil, nil
	}
	rt.computeOpt(ExecBatchNorm, []*Tensor{y, saveMean, saveInvstd, rm, rv},
		[]*Tensor{a.X, a.Weight, a.Bias, a.RunningMean, a.RunningVar}, []float64{a.Eps, a.Momentum}, []int64{tr})
}

// batchNormBackValues computes the gradients a batch-norm backward
// allocated, from the saved input, weight, running and saved statistics.
func (rt *Runtime) batchNormBackValues(n *Node, g *Tensor, res []*Tensor, train bool, eps float64) {
	ts, release, ok := rt.savedForValues(n, 0, 1, 2, 3, 4, 5)
	if !ok {
		return
	}
	defer release()
	tr := int64(0)
	if train {
		tr = 1
	}
	rt.computeOpt(ExecBatchNormBack, res, append([]*Tensor{g}, ts...), []float64{eps}, []int64{tr})
}
