package torch

// Convolutions (F.conv1d/2d/3d) through cuDNN, as at::convolution runs
// them in PyTorch 2.11:
//   - an unbatched input is unsqueezed to a batch of one (a view) and the
//     output squeezed back;
//   - conv1d is run as a 2-d convolution on input.contiguous() viewed as
//     [N, C, 1, L] (view1d_as_2d), so a strided input costs a copy;
//   - padding="same" with an odd total padding pads the input first
//     (constant_pad_nd, a new tensor recorded by autograd);
//   - the forward allocates the contiguous output;
//   - ConvolutionBackward0 saves input and weight; its backward takes
//     grad_output.contiguous() (a temporary copy when the incoming
//     gradient is strided, e.g. expanded by sum()), allocates grad_input
//     and grad_weight, frees the copy, then sums grad_output over the
//     batch and spatial dims for grad_bias.
// The cuDNN workspaces (allocated and freed after the output, grad_input
// and grad_weight) come from the measured model in cudnn_workspace.go.
// Memory format (cudnn_conv_suggest_memory_format): a 4-d (5-d) convolution
// whose input or weight suggests channels_last (channels_last_3d) runs in
// that format: input and weight are made contiguous in it (copies when they
// are not: the input's before the output, the weight's after it), and the
// output, grad_output's copy, grad_input and grad_weight are allocated in it.
// Not modelled: the backward's input/weight .contiguous(format) copies when
// input and weight formats differ.

// ConvPadMode is how a convolution's padding was given.
type ConvPadMode uint8

const (
	// PadExplicit: the padding list is used as given.
	PadExplicit ConvPadMode = iota
	// PadValid: padding="valid" (no padding).
	PadValid
	// PadSame: padding="same" (output spatial size = input's; stride 1).
	PadSame
)

// Conv2d is F.conv2d with explicit padding.
func (rt *Runtime) Conv2d(x, w, b *Tensor, stride, padding, dilation [2]int64, groups int64) (*Tensor, error) {
	return rt.Conv(x, w, b, stride[:], padding[:], dilation[:], groups, PadExplicit)
}

// Conv is F.conv{1,2,3}d: the number of spatial dims is w.Dim()-2; stride,
// padding and dilation hold one value per spatial dim (padding is ignored
// unless mode is PadExplicit).
func (rt *Runtime) Conv(x, w, b *Tensor, stride, padding, dilation []int64, groups int64, mode ConvPadMode) (*Tensor, error) {
	k := len(w.shape) - 2
	name := "conv" + itoa(int64(k)) + "d"
	if k < 1 || k > 3 {
		return nil, Errorf(RuntimeError, "weight should have at least three dimensions")
	}
	if len(x.shape) != k+1 && len(x.shape) != k+2 {
		return nil, Errorf(RuntimeError, "Expected %dD (unbatched) or %dD (batched) input to %s, but got input of size: %s", k+1, k+2, name, shapeList(x.shape))
	}
	if len(stride) != k || len(dilation) != k || (mode == PadExplicit && len(padding) != k) {
		return nil, Errorf(RuntimeError, "expected stride, padding and dilation to have %d elements for %s", k, name)
	}
	if groups <= 0 {
		return nil, Errorf(RuntimeError, "non-positive groups is not supported")
	}
	if err := checkConvParams(padding, stride, dilation); err != nil {
		return nil, err
	}
	batched := len(x.shape) == k+2
	xs := cloneShape(x.shape)
	if !batched {
		xs = append([]int64{1}, xs...)
	}
	if xs[1] != w.shape[1]*groups {
		return nil, Errorf(RuntimeError, "Given groups=%d, weight of size %s, expected input%s to have %d channels, but got %d channels instead", groups, shapeList(w.shape), shapeList(xs), w.shape[1]*groups, xs[1])
	}
	if b != nil && (len(b.shape) != 1 || b.shape[0] != w.shape[0]) {
		return nil, Errorf(RuntimeError, "Given weight of size %s, expected bias to be 1-dimensional with %d elements, but got bias of size %s instead", shapeList(w.shape), w.shape[0], shapeList(b.shape))
	}
	x0, w0, b0, release, err := rt.autocastArgs("conv", x, w, b)
	if err != nil {
		return nil, err
	}
	if release != nil {
		defer release()
		x, w, b = x0, w0, b0
	}
	if x.dtype != w.dtype {
		return nil, Errorf(RuntimeError, "Input type (%s) and weight type (%s) should be the same", x.typeString(), w.typeString())
	}
	if b != nil && b.dtype != x.dtype {
		return nil, Errorf(RuntimeError, "Input type (%s) and bias type (%s) should be the same", x.typeString(), b.typeString())
	}
	pad := make([]int64, k)
	switch mode {
	case PadExplicit:
		copy(pad, padding)
	case PadSame:
		for _, s := range stride {
			if s != 1 {
				return nil, Errorf(RuntimeError, "padding='same' is not supported for strided convolutions")
			}
		}
		var extra []int64 // constant_pad_nd's extra element per odd dim
		odd := false
		for i := 0; i < k; i++ {
			total := dilation[i] * (w.shape[2+i] - 1)
			pad[i] = total / 2
			extra = append(extra, total%2)
			odd = odd || total%2 == 1
		}
		if odd {
			px, err := rt.padExtra(x, extra)
			if err != nil {
				return nil, err
			}
			defer px.Release()
			x = px
			xs = cloneShape(x.shape)
			if !batched {
				xs = append([]int64{1}, xs...)
			}
		}
	}
	out := []int64{xs[0], w.shape[0]}
	for i := 0; i < k; i++ {
		kk := dilation[i]*(w.shape[2+i]-1) + 1
		if xs[2+i]+2*pad[i] < kk {
			return nil, Errorf(RuntimeError, "Calculated padded input size per channel: (%s). Kernel size: (%s). Kernel size can't be greater than actual input size", shapeX(padded(xs[2:], pad)), shapeX(w.shape[2:]))
		}
		out = append(out, (xs[2+i]+2*pad[i]-kk)/stride[i]+1)
	}
	if k == 1 {
		// view1d_as_2d runs on input.contiguous()
		if err := rt.contiguousTemp("convolution", x); err != nil {
			return nil, err
		}
	}
	xb := x // the batched input (unbatched: unsqueezed, as conv{2,3}d's batchify)
	if !batched {
		xb = &Tensor{shape: xs, strides: append([]int64{x.shape[0] * x.strides[0]}, x.strides...)}
	}
	mf := ContiguousFormat
	if x.device.IsCUDA() {
		mf = cudnnConvFormat(xb, w)
	}
	var tmps []*Tensor // input.contiguous(fmt), weight.contiguous(fmt) copies
	defer func() { releaseAll(tmps) }()
	if k > 1 && !xb.IsContiguousIn(mf) {
		// _convolution hands cuDNN input.contiguous(backend_memory_format)
		c, err := rt.empty("convolution", x.shape, formatStridesOf(x.shape, mf), x.dtype, x.device)
		if err != nil {
			return nil, err
		}
		tmps = append(tmps, c)
	}
	strides := formatStridesOf(out, mf)
	shape := out
	if !batched {
		shape, strides = out[1:], strides[1:]
	}
	y, err := rt.empty("convolution", shape, strides, x.dtype, x.device)
	if err != nil {
		return nil, err
	}
	if !w.IsContiguousIn(mf) {
		// cudnn_convolution: weight->contiguous(memory_format), after the output
		c, err := rt.empty("convolution", w.shape, formatStridesOf(w.shape, mf), w.dtype, w.device)
		if err != nil {
			y.Release()
			return nil, err
		}
		tmps = append(tmps, c)
	}
	var fwdWS, dataWS, filterWS []int64 // cuDNN workspaces (cudnn_workspace.go)
	if x.device.IsCUDA() {
		fwdWS, dataWS, filterWS = cudnnWorkspacesIn(newConvGeom(x.dtype, xs, w.shape, out[2:], stride, pad, dilation, groups), mf)
	}
	if err := rt.cudnnWorkspace("forward", fwdWS); err != nil {
		y.Release()
		return nil, err
	}
	ints := convInts(stride, pad, dilation, groups)
	if rt.exec != nil {
		rt.computeOpt(ExecConv, []*Tensor{y}, []*Tensor{x, w, b}, nil, ints)
	}
	rt.recordConv(x, w, b, y, k, batched, mf, [2][]int64{dataWS, filterWS}, func(n *Node, g *Tensor, res []*Tensor) {
		rt.convBackValues(n, g, res, ints)
	})
	return y, nil
}

// recordConv records ConvolutionBackward0 of a convolution or transposed
// convolution with k spatial dims: input and weight saved; the backward is
// convBackward (bias gradient summed over the batch and spatial dims) with
// the measured data/filter workspaces, then values when computing.
func (rt *Runtime) recordConv(x, w, b, y *Tensor, k int, batched bool, mf MemoryFormat, ws [2][]int64, values func(n *Node, g *Tensor, res []*Tensor)) {
	n := rt.record("ConvolutionBackward0", x, w, b)
	if n != nil {
		n.save(x, false)
		n.save(w, false)
	}
	bdims := []int64{0}
	for i := 0; i < k; i++ {
		bdims = append(bdims, int64(2+i))
	}
	if !batched {
		bdims = bdims[1:]
		for i := range bdims {
			bdims[i]--
		}
	}
	n.finish(func(n *Node, g []*Tensor) ([]*Tensor, error) {
		res, err := rt.convBackward(n, g[0], bdims, mf, ws)
		if err == nil && rt.exec != nil {
			values(n, g[0], res)
		}
		return res, err
	}, y)
}

// convBackward is convolution_backward for cuDNN (see the file comment);
// mf is the backend memory format (grad_output is made contiguous in it,
// the gradients are allocated in it); ws holds the cuDNN workspaces of the
// backward-data and backward-filter passes, each allocated and freed right
// after its gradient.
func (rt *Runtime) convBackward(n *Node, g *Tensor, biasDims []int64, mf MemoryFormat, ws [2][]int64) ([]*Tensor, error) {
	res := make(gradSlot, 3)
	if n.anyNeeded(0, 1) {
		var gc *Tensor
		if !g.IsContiguousIn(mf) {
			c, err := rt.empty("convolution_backward", g.shape, formatStridesOf(g.shape, mf), g.dtype, g.device)
			if err != nil {
				return nil, err
			}
			gc = c
		}
		for i := 0; i < 2; i++ {
			if !n.needsInput(i) {
				continue
			}
			t, err := n.unpack(i)
			if err != nil {
				if gc != nil {
					gc.Release()
				}
				return res.fail(err)
			}
			r, err := rt.empty("convolution_backward", t.shape, formatStridesOf(t.shape, mf), g.dtype, g.device)
			t.Release()
			if err != nil {
				if gc != nil {
					gc.Release()
				}
				return res.fail(err)
			}
			res[i] = r
			if err := rt.cudnnWorkspace([2]string{"backward-data", "backward-filter"}[i], ws[i]); err != nil {
				if gc != nil {
					gc.Release()
				}
				return res.fail(err)
			}
		}
		if gc != nil {
			gc.Release()
		}
	}
	if n.needsInput(2) {
		r, err := rt.Sum(g, biasDims, false, nil)
		if err != nil {
			return res.fail(err)
		}
		res[2] = r
	}
	return res, nil
}

// convBackValues computes the gradients convBackward allocated (grad_bias
// again, whatever the sum computed) from the saved input and weight.
func (rt *Runtime) convBackValues(n *Node, g *Tensor, res []*Tensor, ints []int64) {
	ts, release, ok := rt.savedForValues(n, 0, 1)
	if !ok {
		return
	}
	defer release()
	rt.computeOpt(ExecConvBack, res, []*Tensor{g, ts[0], ts[1]}, nil, append([]int64{}, ints...))
}

// padded is shape with 2*pad added to each element.
func padded(shape, pad []int64) []int64 {
	out := cloneShape(shape)
	for i := range out {
		out[i] += 2 * pad[i]
	}
	return out
}

// padExtra is the constant_pad_nd that padding="same" applies when a
// dim's total padding is odd: the last len(extra) dims grow by extra
// (ConstantPadNdBackward0 narrows the gradient back, a view).
func (rt *Runtime) padExtra(x *Tensor, extra []int64) (*Tensor, error) {
	shape := cloneShape(x.shape)
	off := len(shape) - len(extra)
	for i, e := range extra {
		shape[off+i] += e
	}
	out, err := rt.empty("constant_pad_nd", shape, nil, x.dtype, x.device)
	if err != nil {
		return nil, err
	}
	if rt.exec != nil {
		rt.zeroAndCopyInto(out, out.strides, 0, x)
	}
	n := rt.record("ConstantPadNdBackward0", x)
	xs := cloneShape(x.shape)
	n.finish(func(n *Node, g []*Tensor) ([]*Tensor, error) {
		// constant_pad_nd_backward: grad.constant_pad_nd(-pad), a copy
		r, err := rt.empty("constant_pad_nd", xs, nil, g[0].dtype, g[0].device)
		if err == nil && rt.exec != nil {
			rt.copyWindowFrom(r, g[0])
		}
		return []*Tensor{r}, err
	}, out)
	return out, nil
}

// cudnnConvFormat is cudnn_conv_suggest_memory_format(input, weight):
// channels_last (3d) when either suggests it for a 4-d (5-d) weight;
// float64 always runs contiguous.
func cudnnConvFormat(x, w *Tensor) MemoryFormat {
	if x.dtype == Float64 || w.dtype == Float64 {
		return ContiguousFormat
	}
	xf, wf := suggestMemoryFormat(x), suggestMemoryFormat(w)
	switch {
	case len(w.shape) == 4 && (xf == ChannelsLast || wf == ChannelsLast):
		return ChannelsLast
	case len(w.shape) == 5 && (xf == ChannelsLast3d || wf == ChannelsLast3d):
		return ChannelsLast3d
	}
	return ContiguousFormat
}

// checkConvParams is check_shape_forward's first checks (Convolution.cpp),
// in its order: padding, stride, dilation (nil padding: a padding string).
func checkConvParams(padding, stride, dilation []int64) error {
	for _, p := range padding {
		if p < 0 {
			return Errorf(RuntimeError, "negative padding is not supported")
		}
	}
	for _, s := range stride {
		if s <= 0 {
			return Errorf(RuntimeError, "non-positive stride is not supported")
		}
	}
	for _, d := range dilation {
		if d < 1 {
			return Errorf(RuntimeError, "dilation should be greater than zero")
		}
	}
	return nil
}
