package torch

// Transposed convolutions (F.conv_transpose1d/2d/3d), as at::convolution
// runs them through cuDNN in PyTorch 2.11 (ConvBackend::CudnnTranspose):
//   - an unbatched input is unsqueezed to a batch of one (a view);
//   - conv_transpose1d runs as a 2-d op on input.contiguous() (a copy when
//     the input is strided), as conv1d;
//   - the forward (cudnn_convolution_transpose) allocates the output, then
//     cuDNN's backward-data workspace, freed at once; the bias is added in
//     place (output.add_(reshape_bias), no allocation);
//   - ConvolutionBackward0 saves input and weight; its backward
//     (cudnn_convolution_transpose_backward) takes grad_output.contiguous(),
//     allocates grad_input (a forward convolution of grad_output) and its
//     workspace, then grad_weight (cuDNN backward-filter) and its workspace,
//     and sums grad_output for grad_bias: the order convBackward models.
// The workspaces are measured (conv_transpose_workspace.go); the memory
// format follows cudnn_conv_suggest_memory_format as for convolutions.
// GPU values: ExecConvTranspose / ExecConvTransposeBack (1 to 3 spatial dims).

// ExecKinds of transposed convolutions (values only). ExecConvTranspose:
// Out = [y], In = [x, w, b?]; ExecConvTransposeBack: Out = [grad_x?,
// grad_w?], In = [grad, x, w] (grad_bias is the sum the model computes);
// Ints = stride, padding, dilation (one per spatial dim each), groups, then
// the operand masks (computeOpt). output_padding is in y's shape.
const (
	ExecConvTranspose     ExecKind = "conv_transpose"
	ExecConvTransposeBack ExecKind = "conv_transpose_backward"
)

// ConvTranspose is F.conv_transpose{1,2,3}d: the number of spatial dims is
// w.Dim()-2 (weight [C_in, C_out/groups, k...]); stride, padding,
// outputPadding and dilation hold one value per spatial dim.
func (rt *Runtime) ConvTranspose(x, w, b *Tensor, stride, padding, outputPadding, dilation []int64, groups int64) (*Tensor, error) {
	k := len(w.shape) - 2
	name := "conv_transpose" + itoa(int64(k)) + "d"
	if k < 1 || k > 3 {
		return nil, Errorf(RuntimeError, "weight should have at least three dimensions")
	}
	if len(x.shape) != k+1 && len(x.shape) != k+2 {
		return nil, Errorf(RuntimeError, "Expected %dD (unbatched) or %dD (batched) input to %s, but got input of size: %s", k+1, k+2, name, shapeList(x.shape))
	}
	if len(stride) != k || len(padding) != k || len(outputPadding) != k || len(dilation) != k {
		return nil, Errorf(RuntimeError, "expected stride, padding, output_padding and dilation to have %d elements for %s", k, name)
	}
	if groups <= 0 {
		return nil, Errorf(RuntimeError, "non-positive groups is not supported")
	}
	batched := len(x.shape) == k+2
	xs := cloneShape(x.shape)
	if !batched {
		xs = append([]int64{1}, xs...)
	}
	if xs[1] != w.shape[0] {
		return nil, Errorf(RuntimeError, "Given transposed=1, weight of size %s, expected input%s to have %d channels, but got %d channels instead", shapeList(w.shape), shapeList(xs), w.shape[0], xs[1])
	}
	cout := w.shape[1] * groups
	if b != nil && (len(b.shape) != 1 || b.shape[0] != cout) {
		return nil, Errorf(RuntimeError, "Given transposed=1, weight of size %s, expected bias to be 1-dimensional with %d elements, but got bias of size %s instead", shapeList(w.shape), cout, shapeList(b.shape))
	}
	for i := 0; i < k; i++ {
		if stride[i] <= 0 {
			return nil, Errorf(RuntimeError, "non-positive stride is not supported")
		}
		if padding[i] < 0 {
			return nil, Errorf(RuntimeError, "negative padding is not supported")
		}
		if outputPadding[i] >= stride[i] && outputPadding[i] >= dilation[i] {
			return nil, Errorf(RuntimeError, "output padding must be smaller than either stride or dilation, but got output_padding: %s, stride: %s, dilation: %s", shapeList(outputPadding), shapeList(stride), shapeList(dilation))
		}
	}
	x0, w0, b0, release, err := rt.autocastArgs("conv_transpose", x, w, b)
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
	out := []int64{xs[0], cout}
	for i := 0; i < k; i++ {
		o := (xs[2+i]-1)*stride[i] - 2*padding[i] + dilation[i]*(w.shape[2+i]-1) + outputPadding[i] + 1
		if o <= 0 {
			return nil, Errorf(RuntimeError, "Given input size per channel: (%s). Calculated output size per channel: (%s). Output size is too small", shapeX(xs[2:]), shapeX(convTransposeOut(xs[2:], w.shape[2:], stride, padding, outputPadding, dilation)))
		}
		out = append(out, o)
	}
	if k == 1 {
		if err := rt.contiguousTemp("convolution", x); err != nil {
			return nil, err
		}
	}
	xb := x
	if !batched {
		xb = &Tensor{shape: xs, strides: append([]int64{x.shape[0] * x.strides[0]}, x.strides...)}
	}
	mf := ContiguousFormat
	if x.device.IsCUDA() {
		mf = cudnnConvFormat(xb, w)
	}
	var tmps []*Tensor
	defer func() { releaseAll(tmps) }()
	if k > 1 && !xb.IsContiguousIn(mf) {
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
		c, err := rt.empty("convolution", w.shape, formatStridesOf(w.shape, mf), w.dtype, w.device)
		if err != nil {
			y.Release()
			return nil, err
		}
		tmps = append(tmps, c)
	}
	var fwdWS, dataWS, filterWS []int64
	if x.device.IsCUDA() {
		fwdWS, dataWS, filterWS = convTransposeWorkspaces(newConvTGeom(x.dtype, xs, w.shape, out, stride, padding, outputPadding, dilation, groups), convTWSTable, nil)
	}
	if err := rt.cudnnWorkspace("forward (backward-data)", fwdWS); err != nil {
		y.Release()
		return nil, err
	}
	ints := convInts(stride, padding, dilation, groups)
	if rt.exec != nil {
		rt.computeOpt(ExecConvTranspose, []*Tensor{y}, []*Tensor{x, w, b}, nil, ints)
	}
	rt.recordConv(x, w, b, y, k, batched, mf, [2][]int64{dataWS, filterWS}, func(n *Node, g *Tensor, res []*Tensor) {
		rt.convTransposeBackValues(n, g, res, ints)
	})
	return y, nil
}

// convTransposeOut is the output spatial size of a transposed convolution
// (may be non-positive: the error message shows it).
func convTransposeOut(in, kernel, stride, padding, outputPadding, dilation []int64) []int64 {
	out := make([]int64, len(in))
	for i := range in {
		out[i] = (in[i]-1)*stride[i] - 2*padding[i] + dilation[i]*(kernel[i]-1) + outputPadding[i] + 1
	}
	return out
}

// convTransposeBackValues computes grad_input and grad_weight of a
// transposed convolution from the saved input and weight.
func (rt *Runtime) convTransposeBackValues(n *Node, g *Tensor, res []*Tensor, ints []int64) {
	if len(res) < 2 || res[0] == nil && res[1] == nil {
		return
	}
	ts, release, ok := rt.savedForValues(n, 0, 1)
	if !ok {
		return
	}
	defer release()
	rt.computeOpt(ExecConvTransposeBack, res[:2], []*Tensor{g, ts[0], ts[1]}, nil, append([]int64{}, ints...))
}
