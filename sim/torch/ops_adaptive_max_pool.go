package torch

// F.adaptive_max_pool2d / adaptive_max_pool1d on CUDA (PyTorch 2.11,
// AdaptiveMaxPooling2d.cu). The structured meta allocates the output and
// int64 indices in the input's suggested memory format; the kernel works
// on contiguous tensors, so a channels_last input costs contiguous
// copies of the output and indices (in that order), then of the input,
// all freed after the kernel (input, indices, output). The backward
// (AdaptiveMaxPool2DBackward0, saving self and the indices) allocates
// grad_input in the input's format; for channels_last it copies grad_output
// and the indices contiguous and uses a contiguous grad_input temporary.
// adaptive_max_pool1d is composite: unsqueeze(-2), adaptive_max_pool2d,
// squeeze(-2) of both results. Measured in q22 (AdaptiveMaxPool items).

// AdaptiveMaxPool2d is adaptive_max_pool2d(x, size): output and indices.
func (rt *Runtime) AdaptiveMaxPool2d(x *Tensor, size [2]int64) (*Tensor, *Tensor, error) {
	nd := x.Dim()
	if nd != 3 && nd != 4 {
		return nil, nil, Errorf(RuntimeError, "adaptive_max_pool2d(): Expected 3D or 4D tensor, but got: %s", shapeList(x.shape))
	}
	for i := 1; i < nd; i++ {
		if x.shape[i] <= 0 {
			return nil, nil, Errorf(RuntimeError, "adaptive_max_pool2d(): Expected input to have non-zero size for non-batch dimensions, but input has sizes %s with dimension %d being empty", shapeList(x.shape), i)
		}
	}
	for _, s := range size {
		if s < 0 {
			return nil, nil, Errorf(RuntimeError, "adaptive_max_pool2d: elements of output_size must be greater than or equal to 0 but received {%d, %d}", size[0], size[1])
		}
	}
	shape := cloneShape(x.shape)
	shape[nd-2], shape[nd-1] = size[0], size[1]
	cl := nd == 4 && suggestMemoryFormat(x) == ChannelsLast
	var strides []int64
	if cl {
		strides = channelsLastStrides(shape)
	}
	const op = "adaptive_max_pool2d"
	out, err := rt.empty(op, shape, strides, x.dtype, x.device)
	if err != nil {
		return nil, nil, err
	}
	idx, err := rt.empty(op, shape, strides, Int64, x.device)
	if err != nil {
		out.Release()
		return nil, nil, err
	}
	if cl {
		// output_.contiguous(), indices_.contiguous(), input_.contiguous()
		var tmp []*Tensor
		for _, t := range []*Tensor{out, idx, x} {
			c, err := rt.cloneContiguous(t)
			if err != nil {
				releaseAll(tmp)
				out.Release()
				idx.Release()
				return nil, nil, err
			}
			tmp = append(tmp, c)
		}
		for i := len(tmp) - 1; i >= 0; i-- {
			tmp[i].Release()
		}
	}
	n := rt.record("AdaptiveMaxPool2DBackward0", x)
	if n != nil {
		n.save(x, false)
		n.save(idx, true)
	}
	xs, xst := cloneShape(x.shape), stridesLike(x.shape, x.strides)
	n.finish(func(n *Node, g []*Tensor) ([]*Tensor, error) {
		gi, err := rt.empty(op+"_backward", xs, xst, g[0].dtype, g[0].device)
		if err != nil {
			return nil, err
		}
		if cl {
			ix, err := n.unpack(1)
			if err != nil {
				gi.Release()
				return nil, err
			}
			defer ix.Release()
			var tmp []*Tensor
			for _, t := range []*Tensor{g[0], ix, gi} {
				var c *Tensor
				if t.IsContiguous() {
					c = t.Retain()
				} else if c, err = rt.cloneContiguous(t); err != nil {
					releaseAll(tmp)
					gi.Release()
					return nil, err
				}
				tmp = append(tmp, c)
			}
			for i := len(tmp) - 1; i >= 0; i-- {
				tmp[i].Release()
			}
		}
		return []*Tensor{gi}, nil
	}, out)
	return out, idx, nil
}

// AdaptiveMaxPool1d is adaptive_max_pool1d(x, size): output and indices.
func (rt *Runtime) AdaptiveMaxPool1d(x *Tensor, size int64) (*Tensor, *Tensor, error) {
	nd := x.Dim()
	if nd < 2 || nd > 3 {
		return nil, nil, Errorf(RuntimeError, "Expected 2 to 3 dimensions, but got %d-dimensional tensor for argument #1 'self' (while checking arguments for adaptive_max_pool1d)", nd)
	}
	for i := 1; i < nd; i++ {
		if x.shape[i] <= 0 {
			return nil, nil, Errorf(RuntimeError, "adaptive_max_pool1d(): Expected input to have non-zero size for non-batch dimensions, but input has sizes %s with dimension %d being empty", shapeList(x.shape), i)
		}
	}
	u, err := rt.Unsqueeze(x, -2)
	if err != nil {
		return nil, nil, err
	}
	defer u.Release()
	o, i, err := rt.AdaptiveMaxPool2d(u, [2]int64{1, size})
	if err != nil {
		return nil, nil, err
	}
	defer o.Release()
	defer i.Release()
	so, err := rt.Squeeze(o, []int64{-2})
	if err != nil {
		return nil, nil, err
	}
	si, err := rt.Squeeze(i, []int64{-2})
	if err != nil {
		so.Release()
		return nil, nil, err
	}
	return so, si, nil
}
