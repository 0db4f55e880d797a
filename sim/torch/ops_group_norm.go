package torch

// Group normalisation as PyTorch 2.11 runs it on CUDA (aten/src/ATen/native/
// group_norm.cpp, cuda/group_norm_kernel.cu; every allocation below measured
// in testdata/questions/q17_norm_act.*). group_norm makes the input
// contiguous (input.contiguous(): a recorded copy, CloneBackward0, that the
// node then saves) and calls native_group_norm, which allocates Y, mean and
// rstd [N, G] in the input's dtype, and, with a weight or bias and HxW > 1,
// the fused per-channel scale/shift a, b [N, C] in the accumulation dtype
// (freed at once). The backward (native_group_norm_backward on
// grad.contiguous(), e.g. a copy of sum()'s expanded gradient, and
// input.contiguous()) allocates dX, dgamma, dbeta as requested, then ds, db
// [N, C], and for dX c2, c3 [N, G] and, with a weight and HxW > 1, c1
// [N, C] (accumulation dtype); freed c3, c2, c1, db, ds. A half/bfloat16
// input with float32 parameters is refused on CUDA.

// GroupNorm is F.group_norm(x, groups, weight, bias, eps).
func (rt *Runtime) GroupNorm(x *Tensor, groups int64, w, b *Tensor, eps float64) (*Tensor, error) {
	if len(x.shape) < 2 {
		return nil, Errorf(RuntimeError, "Expected at least 2 dimensions for input tensor but received %d", len(x.shape))
	}
	// group_norm is on autocast's fp32 list
	ins, release, err := rt.autocastFP32(x, w, b)
	if err != nil {
		return nil, err
	}
	if release != nil {
		defer release()
		x, w, b = ins[0], ins[1], ins[2]
	}
	n, c := x.shape[0], x.shape[1]
	if err := groupNormCheck(x, w, b, c, groups); err != nil {
		return nil, err
	}
	if _, err := commonDevice("group_norm", x, w, b); err != nil {
		return nil, err
	}
	hw := numel(x.shape[2:])
	if groupNormMixed(x, w, b) {
		return nil, Errorf(RuntimeError, "expected scalar type %s but found Float", x.dtype.cppName())
	}
	statDT := x.dtype
	xc, err := rt.Contiguous(x)
	if err != nil {
		return nil, err
	}
	defer xc.Release()
	out, err := rt.empty("native_group_norm", xc.shape, nil, xc.dtype, xc.device)
	if err != nil {
		return nil, err
	}
	var mean, rstd *Tensor
	fail := func(err error) (*Tensor, error) {
		releaseAll([]*Tensor{out, mean, rstd})
		return nil, err
	}
	if mean, err = rt.empty("native_group_norm", []int64{n, groups}, nil, statDT, x.device); err != nil {
		return fail(err)
	}
	if rstd, err = rt.empty("native_group_norm", []int64{n, groups}, nil, statDT, x.device); err != nil {
		return fail(err)
	}
	if !x.dtype.IsFloating() {
		return fail(Errorf(NotImplementedError, "\"GroupNormKernelImpl\" not implemented for '%s'", x.dtype.cppName()))
	}
	if n > 0 {
		if err := rt.groupNormKernelTemps(x.dtype, x.device, n, c, groups, hw, w != nil || b != nil); err != nil {
			return fail(err)
		}
	}
	node := rt.record("NativeGroupNormBackward0", xc, w, b)
	if node != nil {
		node.save(xc, false)
		node.save(w, false)
		node.save(mean, true)
		node.save(rstd, true)
	}
	node.finish(func(nd *Node, g []*Tensor) ([]*Tensor, error) {
		return rt.groupNormBackward(nd, g[0], n, c, groups, hw)
	}, out, nil, nil)
	mean.Release()
	rstd.Release()
	return out, nil
}

// groupNormCheck is check_group_norm_inputs (its bias message prints the
// weight's shape, as PyTorch's does).
func groupNormCheck(x, w, b *Tensor, c, groups int64) error {
	if groups <= 0 {
		return Errorf(RuntimeError, "Expected num groups to be greater than 0, got %d", groups)
	}
	if c%groups != 0 {
		return Errorf(RuntimeError, "Expected number of channels in input to be divisible by num_groups, but got input of shape %s and num_groups=%d", shapeList(x.shape), groups)
	}
	if w != nil && (len(w.shape) != 1 || w.Numel() != c) {
		return Errorf(RuntimeError, "Expected weight to be a vector of size equal to the number of channels in input, but got weight of shape %s and input of shape %s", shapeList(w.shape), shapeList(x.shape))
	}
	if b != nil && (len(b.shape) != 1 || b.Numel() != c) {
		ws := "[0]" // an undefined weight's sizes
		if w != nil {
			ws = shapeList(w.shape)
		}
		return Errorf(RuntimeError, "Expected bias to be a vector of size equal to the number of channels in input, but got bias of shape %s and input of shape %s", ws, shapeList(x.shape))
	}
	return nil
}

// groupNormMixed is is_mixed_type(input, weight, bias): a half/bfloat16
// input with float32 parameters.
func groupNormMixed(x, w, b *Tensor) bool {
	if x.dtype != Float16 && x.dtype != BFloat16 {
		return false
	}
	for _, p := range []*Tensor{w, b} {
		if p != nil && p.dtype == Float32 {
			return true
		}
	}
	return false
}

// groupNormKernelTemps allocates and frees GroupNormKernelImplInternal's
// temporaries: the fused a, b [N, C] when there are parameters and HxW > 1.
func (rt *Runtime) groupNormKernelTemps(dt DType, dev Device, n, c, groups, hw int64, affine bool) error {
	acc := accType(dt)
	var tmps []*Tensor
	defer func() {
		for i := len(tmps) - 1; i >= 0; i-- {
			tmps[i].Release()
		}
	}()
	alloc := func(shape ...int64) error {
		t, err := rt.empty("group_norm_kernel", shape, nil, acc, dev)
		if err == nil {
			tmps = append(tmps, t)
		}
		return err
	}
	if hw != 1 && affine {
		for i := 0; i < 2; i++ {
			if err := alloc(n, c); err != nil {
				return err
			}
		}
	}
	return nil
}

// groupNormBackward is NativeGroupNormBackward0 without grad mode:
// native_group_norm_backward(grad.contiguous(), input.contiguous(), mean,
// rstd, weight, ...) with the arguments made contiguous right to left.
func (rt *Runtime) groupNormBackward(nd *Node, g *Tensor, n, c, groups, hw int64) ([]*Tensor, error) {
	res := make(gradSlot, 3)
	x, err := nd.unpack(0)
	if err != nil {
		return nil, err
	}
	defer x.Release()
	w, err := nd.unpack(1)
	if err != nil {
		return nil, err
	}
	if w != nil {
		defer w.Release()
	}
	var tmps []*Tensor
	defer func() {
		for i := len(tmps) - 1; i >= 0; i-- {
			tmps[i].Release()
		}
	}()
	for _, t := range []*Tensor{x, g} {
		if !t.IsContiguous() {
			cp, err := rt.cloneContiguous(t)
			if err != nil {
				return nil, err
			}
			tmps = append(tmps, cp)
		}
	}
	pdt := x.dtype
	if w != nil {
		pdt = w.dtype
	}
	if nd.needsInput(0) {
		if res[0], err = rt.empty("native_group_norm_backward", x.shape, nil, x.dtype, x.device); err != nil {
			return res.fail(err)
		}
	}
	for i := 1; i < 3; i++ {
		if nd.needsInput(i) {
			if res[i], err = rt.empty("native_group_norm_backward", []int64{c}, nil, pdt, x.device); err != nil {
				return res.fail(err)
			}
		}
	}
	if n == 0 {
		return res, nil
	}
	acc := accType(x.dtype)
	var kt []*Tensor
	alloc := func(shape ...int64) error {
		t, err := rt.empty("group_norm_backward_kernel", shape, nil, acc, x.device)
		if err == nil {
			kt = append(kt, t)
		}
		return err
	}
	freeFrom := func(k int) {
		for len(kt) > k {
			kt[len(kt)-1].Release()
			kt = kt[:len(kt)-1]
		}
	}
	defer freeFrom(0)
	{
		// ds, db (also for HxW = 1)
		for i := 0; i < 2; i++ {
			if err := alloc(n, c); err != nil {
				return res.fail(err)
			}
		}
	}
	if res[0] != nil {
		k := len(kt)
		for i := 0; i < 2; i++ { // c2, c3
			if err := alloc(n, groups); err != nil {
				return res.fail(err)
			}
		}
		if hw != 1 && w != nil { // c1, resized by its TensorIterator
			if err := alloc(n, c); err != nil {
				return res.fail(err)
			}
			// destroyed c3, c2, then c1
			kt[k], kt[k+1], kt[k+2] = kt[k+2], kt[k], kt[k+1]
		}
		freeFrom(k)
	}
	return res, nil
}
