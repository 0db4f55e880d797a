package torch

// 3-d pooling as PyTorch 2.11 runs it on CUDA (DilatedMaxPool3d.cu,
// AveragePool3d.cu, AdaptiveAveragePooling3d.cu, AdaptiveMaxPooling3d.cu),
// measured on an H200 (testdata/questions/q15_conv3d_pool3d.out, oracle
// case q047): the output (and for max pooling the int64 indices, flat in
// each input plane) in the input's shape with the pooled sizes; a
// non-contiguous input is made contiguous for the kernel (a temporary);
// the backward allocates grad_input of the input's shape, then a
// contiguous copy of a strided incoming gradient. adaptive_avg_pool3d to
// (1, 1, 1) is x.mean((-1, -2, -3), keepdim=True), as PyTorch computes it.
// Input [N, C, D, H, W] or unbatched [C, D, H, W].

// ExecAdaptiveMaxPool is adaptive max pooling (values only): Out = [y,
// int64 indices (flat in each input plane)], In = [x], Ints = [number of
// spatial dims]; its backward is ExecMaxPoolBack with the same Ints.
const ExecAdaptiveMaxPool ExecKind = "adaptive_max_pool"

// Pool3dWindow is max_pool3d's and avg_pool3d's window: kernel, stride,
// padding and dilation per spatial dim (depth, height, width), ceil_mode,
// and for average pooling count_include_pad and divisor_override (0: none).
type Pool3dWindow struct {
	Kernel, Stride, Padding, Dilation [3]int64
	Ceil, CountIncludePad             bool
	Divisor                           int64
}

// maxInts and avgInts are the window as ExecMaxPool's and ExecAvgPool's
// Ints (12 each for three spatial dims).
func (w Pool3dWindow) maxInts() []int64 {
	ints := make([]int64, 0, 12)
	for _, a := range [][3]int64{w.Kernel, w.Stride, w.Padding, w.Dilation} {
		ints = append(ints, a[:]...)
	}
	return ints
}

func (w Pool3dWindow) avgInts() []int64 {
	ints := make([]int64, 0, 12)
	for _, a := range [][3]int64{w.Kernel, w.Stride, w.Padding} {
		ints = append(ints, a[:]...)
	}
	return append(ints, boolInt(w.Ceil), boolInt(w.CountIncludePad), w.Divisor)
}

// pool3dShape checks a 3-d pooling input and returns the output shape.
func pool3dShape(op string, x *Tensor, out func(i int, in int64) int64) ([]int64, error) {
	nd := len(x.shape)
	if nd != 4 && nd != 5 {
		return nil, Errorf(RuntimeError, "%s: Expected 4D or 5D tensor for input, but got: %s", op, shapeList(x.shape))
	}
	shape := cloneShape(x.shape)
	bad := false
	for i := 0; i < 3; i++ {
		shape[nd-3+i] = out(i, x.shape[nd-3+i])
		if shape[nd-3+i] < 1 {
			bad = true
		}
	}
	if bad {
		c := x.shape[nd-4]
		return nil, Errorf(RuntimeError, "Given input size: (%dx%dx%dx%d). Calculated output size: (%dx%dx%dx%d). Output size is too small",
			c, x.shape[nd-3], x.shape[nd-2], x.shape[nd-1], c, shape[nd-3], shape[nd-2], shape[nd-1])
	}
	return shape, nil
}

// check validates the window as pool3d_shape_check (ATen/native/Pool.h)
// does, with its messages, and returns the output shape (dilation false:
// avg_pool3d, dilation 1).
func (w Pool3dWindow) check(fn string, x *Tensor, dilation bool) ([]int64, error) {
	k, s, p, d := w.Kernel, w.Stride, w.Padding, w.Dilation
	if !dilation {
		d = [3]int64{1, 1, 1}
	}
	switch {
	case k[0] <= 0 || k[1] <= 0 || k[2] <= 0:
		return nil, Errorf(RuntimeError, "kernel size should be greater than zero, but got kT: %d kH: %d kW: %d", k[0], k[1], k[2])
	case s[0] <= 0 || s[1] <= 0 || s[2] <= 0:
		return nil, Errorf(RuntimeError, "stride should be greater than zero, but got dT: %d dH: %d dW: %d", s[0], s[1], s[2])
	case d[0] <= 0 || d[1] <= 0 || d[2] <= 0:
		return nil, Errorf(RuntimeError, "dilation should be greater than zero, but got dilationT: %d dilationH: %d dilationW: %d", d[0], d[1], d[2])
	}
	if nd := len(x.shape); nd != 4 && nd != 5 {
		return nil, Errorf(RuntimeError, "%s: Expected 4D or 5D tensor for input, but got: %s", fn, shapeList(x.shape))
	}
	if k[0]/2 < p[0] || k[2]/2 < p[2] || k[1]/2 < p[1] || p[0] < 0 || p[1] < 0 || p[2] < 0 {
		eff := func(i int) int64 { return (k[i]-1)*d[i] + 1 }
		return nil, Errorf(RuntimeError, "pad should be smaller than or equal to half of effective kernel size, but got padT: %d padW: %d padH: %d effectiveKT: %d effectiveKW: %d effectiveKH: %d",
			p[0], p[2], p[1], eff(0), eff(2), eff(1))
	}
	if nd := len(x.shape); !dilation && (x.shape[nd-3] < k[0] || x.shape[nd-2] < k[1] || x.shape[nd-1] < k[2]) {
		return nil, Errorf(RuntimeError, "input image (T: %d H: %d W: %d) smaller than kernel size (kT: %d kH: %d kW: %d)",
			x.shape[nd-3], x.shape[nd-2], x.shape[nd-1], k[0], k[1], k[2])
	}
	return pool3dShape(fn, x, func(i int, in int64) int64 {
		return poolOut(in, k[i], s[i], p[i], d[i], w.Ceil)
	})
}

// contiguousInput is the kernel's input: x itself (a new reference) or a
// contiguous copy.
func (rt *Runtime) contiguousInput(x *Tensor) (*Tensor, error) {
	if x.IsContiguous() {
		return x.Retain(), nil
	}
	return rt.cloneContiguous(x)
}

// pool3d allocates a pooling op's results (the output, and int64 indices
// when withIdx), then the kernel's contiguous input, and computes kind.
func (rt *Runtime) pool3d(op string, kind ExecKind, x *Tensor, shape []int64, withIdx bool, ints []int64) (out, idx *Tensor, err error) {
	out, err = rt.empty(op, shape, nil, x.dtype, x.device)
	if err != nil {
		return nil, nil, err
	}
	if withIdx {
		if idx, err = rt.empty(op, shape, nil, Int64, x.device); err != nil {
			out.Release()
			return nil, nil, err
		}
	}
	src, err := rt.contiguousInput(x)
	if err != nil {
		out.Release()
		if idx != nil {
			idx.Release()
		}
		return nil, nil, err
	}
	if rt.exec != nil {
		outs := []*Tensor{out}
		if idx != nil {
			outs = append(outs, idx)
		}
		rt.compute(kind, outs, []*Tensor{src}, nil, ints)
	}
	src.Release()
	return out, idx, nil
}

// pool3dNode records a 3-d pooling op's node: it saves x (and the indices,
// an output), and its backward allocates grad_input, copies a strided
// gradient, and computes backKind with backInts.
func (rt *Runtime) pool3dNode(name, op string, x, out, idx *Tensor, backKind ExecKind, backInts []int64) {
	n := rt.record(name, x)
	if n == nil {
		return
	}
	n.save(x, false)
	if idx != nil {
		n.save(idx, true)
	}
	xs := cloneShape(x.shape)
	n.finish(func(n *Node, g []*Tensor) ([]*Tensor, error) {
		r, err := rt.empty(op+"_backward", xs, nil, g[0].dtype, g[0].device)
		if err != nil {
			return nil, err
		}
		gc, err := rt.contiguousGradIn(g[0], false)
		if err != nil {
			r.Release()
			return nil, err
		}
		if rt.exec != nil {
			if idx == nil {
				rt.compute(backKind, []*Tensor{r}, []*Tensor{gc}, nil, backInts)
			} else if ts, release, ok := rt.savedForValues(n, 1); ok {
				rt.compute(backKind, []*Tensor{r}, []*Tensor{gc, ts[0]}, nil, backInts)
				release()
			}
		}
		gc.Release()
		return []*Tensor{r}, nil
	}, out)
}

// MaxPool3dWithIndices is max_pool3d_with_indices (F.max_pool3d; with
// return_indices=True the caller keeps the indices): output and indices,
// new references.
func (rt *Runtime) MaxPool3dWithIndices(x *Tensor, w Pool3dWindow) (*Tensor, *Tensor, error) {
	shape, err := w.check("max_pool3d_with_indices_out_cuda_template()", x, true)
	if err != nil {
		return nil, nil, err
	}
	out, idx, err := rt.pool3d("max_pool3d_with_indices", ExecMaxPool, x, shape, true, w.maxInts())
	if err != nil {
		return nil, nil, err
	}
	rt.pool3dNode("MaxPool3DWithIndicesBackward0", "max_pool3d_with_indices", x, out, idx, ExecMaxPoolBack, []int64{3})
	return out, idx, nil
}

// AvgPool3d is F.avg_pool3d.
func (rt *Runtime) AvgPool3d(x *Tensor, w Pool3dWindow) (*Tensor, error) {
	shape, err := w.check("avg_pool3d()", x, false)
	if err != nil {
		return nil, err
	}
	ints := w.avgInts()
	out, _, err := rt.pool3d("avg_pool3d", ExecAvgPool, x, shape, false, ints)
	if err != nil {
		return nil, err
	}
	rt.pool3dNode("AvgPool3DBackward0", "avg_pool3d", x, out, nil, ExecAvgPoolBack, ints)
	return out, nil
}

// adaptiveShape checks adaptive pooling's input and output size (each ≥ 0:
// an empty output is allowed) and returns the output shape.
func adaptiveShape(op string, x *Tensor, size [3]int64) ([]int64, error) {
	for _, s := range size {
		if s < 0 {
			return nil, Errorf(RuntimeError, "%s: elements of output_size must be greater than or equal to 0 but received {%d, %d, %d}", op, size[0], size[1], size[2])
		}
	}
	nd := len(x.shape)
	if nd != 4 && nd != 5 {
		return nil, Errorf(RuntimeError, "%s(): Expected 4D or 5D tensor, but got %s", op, shapeList(x.shape))
	}
	shape := cloneShape(x.shape)
	copy(shape[nd-3:], size[:])
	return shape, nil
}

// AdaptiveAvgPool3d is F.adaptive_avg_pool3d (size: the output's depth,
// height and width).
func (rt *Runtime) AdaptiveAvgPool3d(x *Tensor, size [3]int64) (*Tensor, error) {
	shape, err := adaptiveShape("adaptive_avg_pool3d", x, size)
	if err != nil {
		return nil, err
	}
	if size == [3]int64{1, 1, 1} {
		return rt.Mean(x, []int64{-1, -2, -3}, true, nil)
	}
	out, _, err := rt.pool3d("adaptive_avg_pool3d", ExecAvgPool, x, shape, false, []int64{3})
	if err != nil {
		return nil, err
	}
	rt.pool3dNode("AdaptiveAvgPool3DBackward0", "adaptive_avg_pool3d", x, out, nil, ExecAvgPoolBack, []int64{3})
	return out, nil
}

// AdaptiveMaxPool3d is F.adaptive_max_pool3d: output and int64 indices.
func (rt *Runtime) AdaptiveMaxPool3d(x *Tensor, size [3]int64) (*Tensor, *Tensor, error) {
	shape, err := adaptiveShape("adaptive_max_pool3d", x, size)
	if err != nil {
		return nil, nil, err
	}
	out, idx, err := rt.pool3d("adaptive_max_pool3d", ExecAdaptiveMaxPool, x, shape, true, []int64{3})
	if err != nil {
		return nil, nil, err
	}
	rt.pool3dNode("AdaptiveMaxPool3DBackward0", "adaptive_max_pool3d", x, out, idx, ExecMaxPoolBack, []int64{3})
	return out, idx, nil
}
