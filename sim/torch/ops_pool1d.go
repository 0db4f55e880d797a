package torch

// 1-d pooling as PyTorch 2.11 runs it (Pooling.cpp, AdaptiveAveragePooling.cpp):
// the 2-d op on x.unsqueeze(-2) with a window of height 1, then
// output.squeeze(-2). The autograd graph is the 2-d op's node between
// UnsqueezeBackward0 and a squeeze's node.

// pool1d runs f on x.unsqueeze(-2) and squeezes dim -2 of its results.
func (rt *Runtime) pool1d(x *Tensor, f func(u *Tensor) ([]*Tensor, error)) ([]*Tensor, error) {
	if nd := len(x.shape); nd != 2 && nd != 3 {
		return nil, Errorf(RuntimeError, "Expected 2D or 3D (batch mode) tensor for input, but got %s", shapeList(x.shape))
	}
	u, err := rt.Unsqueeze(x, -2)
	if err != nil {
		return nil, err
	}
	outs, err := f(u)
	u.Release()
	if err != nil {
		return nil, err
	}
	res := make([]*Tensor, len(outs))
	for i, o := range outs {
		s, err := rt.Squeeze(o, []int64{-2})
		og := o.gradFn
		o.Release()
		if err != nil {
			releaseAll(res)
			releaseAll(outs[i+1:])
			return nil, err
		}
		if s.gradFn != nil && s.gradFn != og {
			s.gradFn.name = "SqueezeBackward1" // squeeze.dim
		}
		res[i] = s
	}
	return res, nil
}

// MaxPool1d is F.max_pool1d (max_pool1d_with_indices on CUDA): the output
// and, when withIndices, its int64 indices (nil otherwise).
func (rt *Runtime) MaxPool1d(x *Tensor, k, s, p, d int64, ceil, withIndices bool) (*Tensor, *Tensor, error) {
	if err := checkMaxPool1d(x, k, s, p, d, ceil); err != nil {
		return nil, nil, err
	}
	res, err := rt.pool1d(x, func(u *Tensor) ([]*Tensor, error) {
		o, i, err := rt.MaxPool2dWithIndices(u, [2]int64{1, k}, [2]int64{1, s}, [2]int64{0, p}, [2]int64{1, d}, ceil)
		if err != nil {
			return nil, err
		}
		return []*Tensor{o, i}, nil
	})
	if err != nil {
		return nil, nil, err
	}
	if !withIndices {
		res[1].Release()
		return res[0], nil, nil
	}
	return res[0], res[1], nil
}

// checkMaxPool1d is check_max_pool1d (MaxPooling.cpp), which max_pool1d
// and max_pool1d_with_indices run first, with its messages.
func checkMaxPool1d(x *Tensor, k, s, p, d int64, ceil bool) error {
	if nd := len(x.shape); nd != 2 && nd != 3 {
		return Errorf(RuntimeError, "max_pool1d() Expected 2D or 3D input tensor, but got %s", shapeList(x.shape))
	}
	switch {
	case k <= 0:
		return Errorf(RuntimeError, "max_pool1d() kernel_size must be greater than zero, but got %d", k)
	case s <= 0:
		return Errorf(RuntimeError, "max_pool1d() stride must be greater than zero, but got %d", s)
	case p < 0:
		return Errorf(RuntimeError, "max_pool1d() padding must be non-negative, but got %d", p)
	case p > k/2:
		return Errorf(RuntimeError, "max_pool1d() padding should be at most half of kernel size, but got padding=%d and kernel_size=%d", p, k)
	case d <= 0:
		return Errorf(RuntimeError, "max_pool1d() dilation must be greater than zero, but got %d", d)
	}
	if ow := poolOut(x.shape[len(x.shape)-1], k, s, p, d, ceil); ow <= 0 {
		return Errorf(RuntimeError, "max_pool1d() Invalid computed output size: %d", ow)
	}
	return nil
}

// AvgPool1d is F.avg_pool1d(x, k, s, p, ceil_mode, count_include_pad).
func (rt *Runtime) AvgPool1d(x *Tensor, k, s, p int64, ceil, countIncludePad bool) (*Tensor, error) {
	res, err := rt.pool1d(x, func(u *Tensor) ([]*Tensor, error) {
		l := u.shape[len(u.shape)-1]
		out := [2]int64{1, poolOut(l, k, s, p, 1, ceil)}
		win := &PoolWindow{Kernel: [2]int64{1, k}, Stride: [2]int64{1, s}, Padding: [2]int64{0, p}, Ceil: ceil, CountIncludePad: countIncludePad}
		o, err := rt.AvgPool2d("avg_pool2d", u, out, win)
		return []*Tensor{o}, err
	})
	if err != nil {
		return nil, err
	}
	return res[0], nil
}

// AdaptiveAvgPool1d is F.adaptive_avg_pool1d(x, size): adaptive_avg_pool2d
// to (1, size), which is mean over the last two dims (keepdim) when size
// is 1.
func (rt *Runtime) AdaptiveAvgPool1d(x *Tensor, size int64) (*Tensor, error) {
	res, err := rt.pool1d(x, func(u *Tensor) ([]*Tensor, error) {
		var o *Tensor
		var err error
		if size == 1 {
			o, err = rt.Mean(u, []int64{-1, -2}, true, nil)
		} else {
			o, err = rt.AvgPool2d("adaptive_avg_pool2d", u, [2]int64{1, size}, nil)
		}
		return []*Tensor{o}, err
	})
	if err != nil {
		return nil, err
	}
	return res[0], nil
}
