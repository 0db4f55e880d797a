package torch

// poolOut is pooling_output_shape (div_rtn: the division rounds toward
// negative infinity, so a window larger than the padded input gives 0).
// A non-positive stride gives 0 (the callers' checks report it).
func poolOut(in, k, s, p, d int64, ceil bool) int64 {
	if s <= 0 {
		return 0
	}
	num := in + 2*p - d*(k-1) - 1
	if ceil {
		num += s - 1
	}
	q := num / s
	if num%s != 0 && (num < 0) != (s < 0) {
		q--
	}
	o := q + 1
	if ceil && (o-1)*s >= in+p {
		o--
	}
	return o
}

// suggestsChannelsLast reports suggest_memory_format() == channels_last.
func suggestsChannelsLast(t *Tensor) bool { return suggestMemoryFormat(t) == ChannelsLast }

// contiguousIn reports whether t is contiguous in the memory format (cl:
// channels-last) so that t.contiguous(format) makes no copy.
func contiguousIn(t *Tensor, cl bool) bool {
	if cl {
		return isChannelsLastContiguous(t.shape, t.strides)
	}
	return t.IsContiguous()
}

// contiguousGradIn is gradOutput_.contiguous(memory format) of the CUDA
// pooling backwards: g itself (a new reference) when it is already
// contiguous in the input's format (cl: channels_last), else a copy (a
// strided gradient such as sum()'s expanded one; q026, q028).
func (rt *Runtime) contiguousGradIn(g *Tensor, cl bool) (*Tensor, error) {
	if contiguousIn(g, cl) {
		return g.Retain(), nil
	}
	return rt.cloneContiguous(g)
}

// MaxPool2d is F.max_pool2d: on CUDA it runs max_pool2d_with_indices (the
// int64 indices are allocated; kept by the node when recording, a
// temporary otherwise).
func (rt *Runtime) MaxPool2d(x *Tensor, k, s, p, d [2]int64, ceil bool) (*Tensor, error) {
	out, idx, err := rt.MaxPool2dWithIndices(x, k, s, p, d, ceil)
	if err != nil {
		return nil, err
	}
	idx.Release()
	return out, nil
}

// MaxPool2dWithIndices is max_pool2d_with_indices (F.max_pool2d with
// return_indices=True): the output and its int64 indices (h·W + w in each
// input plane), both new references; the backward node saves x and the
// indices as MaxPool2d's does.
func (rt *Runtime) MaxPool2dWithIndices(x *Tensor, k, s, p, d [2]int64, ceil bool) (*Tensor, *Tensor, error) {
	nd := len(x.shape)
	if nd != 3 && nd != 4 {
		return nil, nil, Errorf(RuntimeError, "non-empty 3D or 4D (batch mode) tensor expected for input")
	}
	shape := cloneShape(x.shape)
	for i := 0; i < 2; i++ {
		shape[nd-2+i] = poolOut(x.shape[nd-2+i], k[i], s[i], p[i], d[i], ceil)
	}
	if err := pool2dCheck(x, k, s, p, d, shape); err != nil {
		return nil, nil, err
	}
	// output and indices follow the input's suggested memory format
	st := formatStridesOf(shape, suggestMemoryFormat(x))
	out, err := rt.empty("max_pool2d", shape, st, x.dtype, x.device)
	if err != nil {
		return nil, nil, err
	}
	idx, err := rt.empty("max_pool2d", shape, st, Int64, x.device)
	if err != nil {
		out.Release()
		return nil, nil, err
	}
	if rt.exec != nil {
		rt.compute(ExecMaxPool, []*Tensor{out, idx}, []*Tensor{x}, nil,
			[]int64{k[0], k[1], s[0], s[1], p[0], p[1], d[0], d[1]})
	}
	n := rt.record("MaxPool2DWithIndicesBackward0", x)
	if n != nil {
		n.save(x, false)
		n.save(idx, true)
		xs, cl := cloneShape(x.shape), suggestsChannelsLast(x)
		xf := suggestMemoryFormat(x)
		n.fn = func(n *Node, g []*Tensor) ([]*Tensor, error) {
			r, err := rt.empty("max_pool2d_with_indices_backward", xs, formatStridesOf(xs, xf), g[0].dtype, g[0].device)
			if err != nil {
				return nil, err
			}
			gc, err := rt.contiguousGradIn(g[0], cl)
			if err != nil {
				r.Release()
				return nil, err
			}
			if rt.exec != nil {
				if ts, release, ok := rt.savedForValues(n, 1); ok {
					rt.compute1(ExecMaxPoolBack, r, []*Tensor{gc, ts[0]})
					release()
				}
			}
			gc.Release()
			return []*Tensor{r}, nil
		}
		n.setHistory(out, nil)
	}
	return out, idx, nil
}

// pool2dCheck is pool2d_shape_check (ATen/native/Pool.h) after the
// ops' own dims check: positive kernel, stride and dilation, padding at
// most half the effective kernel, an output of at least one element per
// plane (shape: the output's).
func pool2dCheck(x *Tensor, k, s, p, d [2]int64, shape []int64) error {
	switch {
	case k[0] <= 0 || k[1] <= 0:
		return Errorf(RuntimeError, "kernel size should be greater than zero, but got kH: %d kW: %d", k[0], k[1])
	case s[0] <= 0 || s[1] <= 0:
		return Errorf(RuntimeError, "stride should be greater than zero, but got dH: %d dW: %d", s[0], s[1])
	case d[0] <= 0 || d[1] <= 0:
		return Errorf(RuntimeError, "dilation should be greater than zero, but got dilationH: %d dilationW: %d", d[0], d[1])
	}
	effH, effW := (k[0]-1)*d[0]+1, (k[1]-1)*d[1]+1
	if effW/2 < p[1] || effH/2 < p[0] {
		return Errorf(RuntimeError, "pad should be smaller than or equal to half of effective kernel size, but got padW = %d, padH = %d, effectiveKW = %d, effectiveKH = %d",
			p[1], p[0], effW, effH)
	}
	nd := len(x.shape)
	if shape[nd-1] < 1 || shape[nd-2] < 1 {
		c := x.shape[nd-3]
		return Errorf(RuntimeError, "Given input size: (%dx%dx%d). Calculated output size: (%dx%dx%d). Output size is too small",
			c, x.shape[nd-2], x.shape[nd-1], c, shape[nd-2], shape[nd-1])
	}
	return nil
}

// PoolWindow is avg_pool2d's window: kernel, stride and padding per
// spatial dim, ceil_mode, count_include_pad and divisor_override (0: none).
type PoolWindow struct {
	Kernel, Stride, Padding [2]int64
	Ceil, CountIncludePad   bool
	Divisor                 int64
}

// ints is the window as ExecAvgPool's Ints (nil: adaptive pooling).
func (w *PoolWindow) ints() []int64 {
	if w == nil {
		return nil
	}
	b := func(v bool) int64 {
		if v {
			return 1
		}
		return 0
	}
	return []int64{w.Kernel[0], w.Kernel[1], w.Stride[0], w.Stride[1], w.Padding[0], w.Padding[1],
		b(w.Ceil), b(w.CountIncludePad), w.Divisor}
}

// AvgPool2d is F.avg_pool2d (win its window) or adaptive_avg_pool2d (win
// nil) with a given output shape (AvgPool2DBackward0 saves self).
func (rt *Runtime) AvgPool2d(op string, x *Tensor, outHW [2]int64, win *PoolWindow) (*Tensor, error) {
	nd := len(x.shape)
	if nd != 3 && nd != 4 {
		return nil, Errorf(RuntimeError, "non-empty 3D or 4D (batch mode) tensor expected for input")
	}
	shape := cloneShape(x.shape)
	shape[nd-2], shape[nd-1] = outHW[0], outHW[1]
	if win != nil {
		if err := pool2dCheck(x, win.Kernel, win.Stride, win.Padding, [2]int64{1, 1}, shape); err != nil {
			return nil, err
		}
	}
	xf := suggestMemoryFormat(x) // the output and grad_input follow it
	out, err := rt.empty(op, shape, formatStridesOf(shape, xf), x.dtype, x.device)
	if err != nil {
		return nil, err
	}
	ints := win.ints()
	if rt.exec != nil {
		rt.compute(ExecAvgPool, []*Tensor{out}, []*Tensor{x}, nil, ints)
	}
	name := "AvgPool2DBackward0"
	if op == "adaptive_avg_pool2d" {
		name = "AdaptiveAvgPool2DBackward0"
	}
	n := rt.record(name, x)
	if n != nil {
		n.save(x, false)
	}
	xs, cl := cloneShape(x.shape), suggestsChannelsLast(x)
	n.finish(func(n *Node, g []*Tensor) ([]*Tensor, error) {
		r, err := rt.empty(op+"_backward", xs, formatStridesOf(xs, xf), g[0].dtype, g[0].device)
		if err != nil {
			return nil, err
		}
		gc, err := rt.contiguousGradIn(g[0], cl)
		if err != nil {
			r.Release()
			return nil, err
		}
		if rt.exec != nil {
			rt.compute(ExecAvgPoolBack, []*Tensor{r}, []*Tensor{gc}, nil, ints)
		}
		gc.Release()
		return []*Tensor{r}, nil
	}, out)
	return out, nil
}

// Softmax is torch.softmax / log_softmax along dim (the node saves the
// result; the backward allocates like the gradient).
func (rt *Runtime) Softmax(x *Tensor, dim int64, log bool, dt *DType) (*Tensor, error) {
	if _, err := wrapDim(dim, len(x.shape)); err != nil {
		return nil, err
	}
	// autocast's fp32_set_opt_dtype policy: without a dtype argument the op
	// runs with dtype float32; with one (cross_entropy passes the input's)
	// as asked.
	dt = rt.AutocastOptDType(x, dt)
	// softmax(input, dim, dtype): a CUDA half input asked for float32 runs
	// _softmax(input, dim, half_to_float=true), no converted copy; other
	// dtypes are converted first (input_.toType(dtype)).
	halfToFloat := dt != nil && *dt == Float32 && x.dtype == Float16 && x.device.IsCUDA()
	src := x.Retain()
	if dt != nil && *dt != x.dtype && !halfToFloat {
		c, err := rt.To(x, *dt, x.device, false)
		src.Release()
		if err != nil {
			return nil, err
		}
		src = c
	}
	defer src.Release()
	op, name := "softmax", "SoftmaxBackward0"
	if log {
		op, name = "log_softmax", "LogSoftmaxBackward0"
	}
	// the structured output is contiguous; the CUDA kernel (host_softmax)
	// then runs on input.contiguous(), a temporary copy for strided inputs
	outDT := src.dtype
	if halfToFloat {
		outDT = Float32
	}
	out, err := rt.empty(op, src.shape, nil, outDT, src.device)
	if err != nil {
		return nil, err
	}
	if err := rt.contiguousTemp(op, src); err != nil {
		out.Release()
		return nil, err
	}
	if err := intKernelErr("host_softmax", src.dtype, src.device); err != nil {
		out.Release()
		return nil, err
	}
	if rt.exec != nil {
		kind := ExecSoftmax
		if log {
			kind = ExecLogSoftm
		}
		rt.compute(kind, []*Tensor{out}, []*Tensor{src}, nil, []int64{dim})
	}
	n := rt.record(name, src)
	if n != nil {
		n.save(out, true)
	}
	n.finish(func(n *Node, g []*Tensor) ([]*Tensor, error) {
		r, err := n.unpack(0)
		if err != nil {
			return nil, err
		}
		defer r.Release()
		// _softmax_backward_data: grad_input (contiguous, structured), then
		// host_softmax_backward's grad.contiguous() / output.contiguous()
		// grad_input has the input's dtype (half after half_to_float)
		giDT := g[0].dtype
		if halfToFloat {
			giDT = Float16
		}
		gi, err := rt.empty("_"+op+"_backward_data", g[0].shape, nil, giDT, g[0].device)
		if err != nil {
			return nil, err
		}
		if log {
			// log_softmax_backward_cuda_out: host_softmax_backward on
			// grad.contiguous() and output.contiguous()
			if err := rt.contiguousTemps("_"+op+"_backward_data", g[0], r); err != nil {
				gi.Release()
				return nil, err
			}
		} else {
			// softmax_backward_cuda_out: tmp = grad * output (a
			// TensorIterator result, dense), then host_softmax_backward
			// on tmp and output.contiguous(); tmp dies with the call
			// (measured: oracle case q043)
			tmp, err := rt.empty("_softmax_backward_data", g[0].shape, nil, PromoteTypes(g[0].dtype, r.dtype), g[0].device)
			if err != nil {
				gi.Release()
				return nil, err
			}
			err = rt.contiguousTemps("_"+op+"_backward_data", r)
			tmp.Release()
			if err != nil {
				gi.Release()
				return nil, err
			}
		}
		if rt.exec != nil {
			kind := ExecSoftmaxBack
			if log {
				kind = ExecLogSoftmaxBack
			}
			rt.compute(kind, []*Tensor{gi}, []*Tensor{g[0], r}, nil, []int64{dim})
		}
		return []*Tensor{gi}, nil
	}, out)
	return out, nil
}

// contiguousTemps models kernels that run on t.contiguous() for each t in
// order: a non-contiguous t costs a temporary copy, all of them freed
// together (newest first) when the kernel has been queued.
func (rt *Runtime) contiguousTemps(op string, ts ...*Tensor) error {
	var tmps []*Tensor
	defer func() {
		for i := len(tmps) - 1; i >= 0; i-- {
			tmps[i].Release()
		}
	}()
	for _, t := range ts {
		if t == nil || t.IsContiguous() {
			continue
		}
		c, err := rt.empty(op, t.shape, nil, t.dtype, t.device)
		if err != nil {
			return err
		}
		tmps = append(tmps, c)
	}
	return nil
}

// contiguousTemp is contiguousTemps for one tensor.
func (rt *Runtime) contiguousTemp(op string, t *Tensor) error { return rt.contiguousTemps(op, t) }

// NllLoss is F.nll_loss(input [N, C], target [N]) with mean/sum reduction
// (two zero-dim outputs: the loss and total_weight) or none.
func (rt *Runtime) NllLoss(x, target *Tensor, reduction string) (*Tensor, error) {
	if len(x.shape) < 1 || len(x.shape) > 2 {
		return nil, Errorf(ValueError, "Expected 2 or more dimensions (got %d)", len(x.shape))
	}
	if target.dtype != Int64 {
		return nil, Errorf(RuntimeError, "expected scalar type Long but found %s", target.dtype.cppName())
	}
	if len(x.shape) != 1 && len(target.shape) >= 1 && x.shape[0] != target.shape[0] {
		// nll_loss_nd's check (question q12)
		return nil, Errorf(ValueError, "Expected input batch_size (%d) to match target batch_size (%d).", x.shape[0], target.shape[0])
	}
	ins, release, err := rt.autocastFP32(x) // nll_loss is on autocast's fp32 list
	if err != nil {
		return nil, err
	}
	if release != nil {
		defer release()
		x = ins[0]
	}
	var shape []int64
	if reduction == "none" && len(x.shape) == 2 {
		shape = []int64{x.shape[0]}
	}
	out, err := rt.empty("nll_loss", shape, nil, x.dtype, x.device)
	if err != nil {
		return nil, err
	}
	tw, err := rt.empty("nll_loss", nil, nil, x.dtype, x.device)
	if err != nil {
		out.Release()
		return nil, err
	}
	// nll_loss_forward_out_cuda_template: input and target expect_contiguous
	// (a strided target such as tgt[:, t] is copied for the kernel)
	if err := rt.contiguousTemps("nll_loss", x, target); err != nil {
		out.Release()
		tw.Release()
		return nil, err
	}
	if rt.exec != nil {
		rt.compute(ExecNLLLoss, []*Tensor{out}, []*Tensor{x, target}, nil, []int64{reductionCode(reduction), -100})
	}
	n := rt.record("NllLossBackward0", x)
	if n != nil {
		n.save(x, false)
		n.save(target, false)
		n.save(tw, true)
		xs, dt := cloneShape(x.shape), x.dtype
		n.fn = func(n *Node, g []*Tensor) ([]*Tensor, error) {
			r, err := rt.empty("nll_loss_backward", xs, nil, dt, g[0].device)
			if err == nil && rt.exec != nil {
				if tgt, uerr := n.unpack(1); uerr == nil {
					rt.compute(ExecNLLLossBack, []*Tensor{r}, []*Tensor{g[0], tgt}, nil, []int64{reductionCode(reduction), -100})
					tgt.Release()
				}
			}
			return []*Tensor{r}, err
		}
		n.setHistory(out, nil)
	}
	tw.Release()
	return out, nil
}

// CrossEntropy is F.cross_entropy with class-index targets: log_softmax
// over dim 1, then nll_loss.
func (rt *Runtime) CrossEntropy(x, target *Tensor, reduction string) (*Tensor, error) {
	dim := int64(1)
	if len(x.shape) == 1 {
		dim = 0
	}
	// cross_entropy_loss calls log_softmax(input, dim, input.scalar_type()):
	// under autocast it stays in the input's dtype; nll_loss then casts.
	dt := x.dtype
	ls, err := rt.Softmax(x, dim, true, &dt)
	if err != nil {
		return nil, err
	}
	defer ls.Release()
	return rt.NllLoss(ls, target, reduction)
}

// MseLoss is F.mse_loss. Model taken from the H100 traces (oracle cases
// s001_amp, s002_model): the forward peaks at two input-sized buffers (plus
// reduction scratch on large inputs, not modelled yet), and the returned
// loss keeps one input-sized buffer alive
// until the loss itself dies (backward does not free it). The backward
// allocates one input-sized gradient (mse_loss_backward: zeros_like).
func (rt *Runtime) MseLoss(x, target *Tensor, reduction string) (*Tensor, error) {
	ins, release, err := rt.autocastFP32(x, target)
	if err != nil {
		return nil, err
	}
	if release != nil {
		defer release()
		x, target = ins[0], ins[1]
	}
	unreduced, err := rt.pointwiseOut("mse_loss", ResultType([]*Tensor{x, target}, nil), x, target)
	if err != nil {
		return nil, err
	}
	if reduction == "none" {
		if rt.exec != nil {
			rt.compute(ExecMSELoss, []*Tensor{unreduced}, []*Tensor{x, target}, nil, []int64{0})
		}
		n := rt.record("MseLossBackward0", x, target)
		rt.mseNode(n, x, target, unreduced, reduction)
		return unreduced, nil
	}
	tmp, err := rt.unaryOut("mse_loss", unreduced, unreduced.dtype)
	if err != nil {
		unreduced.Release()
		return nil, err
	}
	if err := rt.reduceKernel(tmp, nil, accSize(tmp.dtype)); err != nil {
		tmp.Release()
		unreduced.Release()
		return nil, err
	}
	unreduced.Release()
	// the loss is a zero-dim tensor over the SECOND buffer: the first one is
	// freed (s001_amp's fp32 backward then fits the bias-gradient scratch in
	// freed blocks, with the H100's segment count)
	tmp.shape, tmp.strides = nil, nil
	if rt.exec != nil {
		rt.compute(ExecMSELoss, []*Tensor{tmp}, []*Tensor{x, target}, nil, []int64{reductionCode(reduction)})
	}
	n := rt.record("MseLossBackward0", x, target)
	rt.mseNode(n, x, target, tmp, reduction)
	return tmp, nil
}

func (rt *Runtime) mseNode(n *Node, x, target, out *Tensor, reduction string) {
	if n == nil {
		return
	}
	n.save(x, false)
	n.save(target, false)
	n.finish(func(n *Node, g []*Tensor) ([]*Tensor, error) {
		res := make(gradSlot, 2)
		for i := 0; i < 2; i++ {
			if !n.needsInput(i) {
				continue
			}
			self, err := n.unpack(i)
			if err != nil {
				return res.fail(err)
			}
			r, err := rt.empty("mse_loss_backward", self.shape, nil, self.dtype, self.device)
			if err == nil && rt.exec != nil {
				// d/dx = 2(x - t)·g (÷ n for mean); d/dt is its negative.
				if other, uerr := n.unpack(1 - i); uerr == nil {
					rt.compute(ExecMSELossBack, []*Tensor{r}, []*Tensor{g[0], self, other}, nil, []int64{reductionCode(reduction)})
					other.Release()
				}
			}
			self.Release()
			if err != nil {
				return res.fail(err)
			}
			res[i] = r
		}
		return res, nil
	}, out)
}

// Dropout is F.dropout: identity (the same tensor) when not training or
// p is 0; on CUDA in training, native_dropout allocates a bool mask (kept
// by the node) and the output.
func (rt *Runtime) Dropout(x *Tensor, p float64, train bool) (*Tensor, error) {
	if p < 0 || p > 1 {
		return nil, Errorf(ValueError, "dropout probability has to be between 0 and 1, but got %v", p)
	}
	if !train || p == 0 || x.Numel() == 0 {
		return x.Retain(), nil
	}
	// dropout_cuda allocates the mask first, then the output (q055's trace)
	mask, err := rt.unaryOut("dropout", x, Bool)
	if err != nil {
		return nil, err
	}
	out, err := rt.unaryOut("dropout", x, x.dtype)
	if err != nil {
		mask.Release()
		return nil, err
	}
	n := rt.record("NativeDropoutBackward0", x)
	if n != nil {
		n.save(mask, true)
		n.fn = func(n *Node, g []*Tensor) ([]*Tensor, error) {
			m, err := n.unpack(0)
			if err != nil {
				return nil, err
			}
			defer m.Release()
			r, err := rt.gradLike("native_dropout_backward", g[0], m)
			if err == nil && rt.exec != nil {
				rt.compute1(ExecDropoutBack, r, []*Tensor{g[0], m}, 1/(1-p))
			}
			return []*Tensor{r}, err
		}
		n.setHistory(out, nil)
	}
	if rt.exec != nil {
		rt.compute(ExecDropout, []*Tensor{out, mask}, []*Tensor{x}, []float64{p}, nil)
	}
	mask.Release()
	return out, nil
}

// LayerNorm is F.layer_norm (native_layer_norm: output, mean and rstd of
// the normalised rows in float32 for half inputs; eps is added to the
// variance).
func (rt *Runtime) LayerNorm(x *Tensor, normShape []int64, w, b *Tensor, eps float64) (*Tensor, error) {
	k := len(normShape)
	if k > len(x.shape) || !sameShape(x.shape[len(x.shape)-k:], normShape) {
		return nil, Errorf(RuntimeError, "Given normalized_shape=%s, expected input with shape [*, %s], but got input of size%s", shapeList(normShape), shapeList(normShape)[1:len(shapeList(normShape))-1], shapeList(x.shape))
	}
	ins, release, err := rt.autocastFP32(x, w, b)
	if err != nil {
		return nil, err
	}
	if release != nil {
		defer release()
		x, w, b = ins[0], ins[1], ins[2]
	}
	out, err := rt.empty("layer_norm", x.shape, nil, x.dtype, x.device)
	if err != nil {
		return nil, err
	}
	stat := cloneShape(x.shape[:len(x.shape)-k])
	for i := 0; i < k; i++ {
		stat = append(stat, 1)
	}
	sdt := x.dtype
	if sdt == Float16 || sdt == BFloat16 {
		sdt = Float32
	}
	mean, err := rt.empty("layer_norm", stat, nil, sdt, x.device)
	if err != nil {
		out.Release()
		return nil, err
	}
	rstd, err := rt.empty("layer_norm", stat, nil, sdt, x.device)
	if err != nil {
		out.Release()
		mean.Release()
		return nil, err
	}
	if rt.exec != nil {
		rt.computeOpt(ExecLayerNorm, []*Tensor{out, mean, rstd}, []*Tensor{x, w, b}, []float64{eps}, []int64{int64(k)})
	}
	n := rt.record("NativeLayerNormBackward0", x, w, b)
	if n != nil {
		n.save(x, false)
		n.save(w, false)
		n.save(b, false)
		n.save(mean, true)
		n.save(rstd, true)
		xs, dt := cloneShape(x.shape), x.dtype
		var wsh []int64
		if w != nil {
			wsh = cloneShape(w.shape)
		}
		n.fn = func(n *Node, g []*Tensor) ([]*Tensor, error) {
			res := make(gradSlot, 3)
			if n.needsInput(0) {
				r, err := rt.empty("native_layer_norm_backward", xs, nil, dt, g[0].device)
				if err != nil {
					return res.fail(err)
				}
				res[0] = r
			}
			for i := 1; i < 3; i++ {
				if n.needsInput(i) {
					r, err := rt.empty("native_layer_norm_backward", wsh, nil, dt, g[0].device)
					if err != nil {
						return res.fail(err)
					}
					res[i] = r
				}
			}
			// layer_norm_backward_cuda runs on dY.contiguous(), made after
			// the outputs (a transposed gradient from batch_first
			// attention: q19_transformer_losses)
			if err := rt.contiguousTemp("native_layer_norm_backward", g[0]); err != nil {
				return res.fail(err)
			}
			if rt.exec != nil {
				if sv, release, ok := rt.savedForValues(n, 0, 3, 4, 1); ok {
					rt.computeOpt(ExecLayerNormBack, res, []*Tensor{g[0], sv[0], sv[1], sv[2], sv[3]}, nil, []int64{int64(k)})
					release()
				}
			}
			return res, nil
		}
		n.setHistory(out, nil, nil)
	}
	mean.Release()
	rstd.Release()
	return out, nil
}

// Embedding is F.embedding: weight rows gathered (EmbeddingBackward0 saves
// the indices; the backward allocates a weight-sized gradient). Rows of
// index paddingIdx (-1: none) get no gradient.
func (rt *Runtime) Embedding(idx, w *Tensor, paddingIdx int64) (*Tensor, error) {
	if idx.dtype != Int64 && idx.dtype != Int32 {
		return nil, Errorf(RuntimeError, "Expected tensor for argument #1 'indices' to have one of the following scalar types: Long, Int; but got %s instead (while checking arguments for embedding)", idx.typeString())
	}
	shape := append(cloneShape(idx.shape), w.shape[1])
	// at::embedding runs weight.index_select(0, indices.reshape(-1)) for
	// indices of more than one dimension: a non-contiguous index (x[:, :-1])
	// is copied first, and the copy dies after the op (oracle q055)
	if len(idx.shape) > 1 && !idx.IsContiguous() {
		flat, err := rt.empty("embedding", idx.shape, nil, idx.dtype, idx.device)
		if err != nil {
			return nil, err
		}
		defer flat.Release()
	}
	out, err := rt.empty("embedding", shape, nil, w.dtype, w.device)
	if err != nil {
		return nil, err
	}
	if rt.exec != nil {
		rt.compute(ExecIndex, []*Tensor{out}, []*Tensor{w, idx}, nil, []int64{0})
	}
	n := rt.record("EmbeddingBackward0", w)
	if n != nil {
		n.save(idx, false)
	}
	ws, dt := cloneShape(w.shape), w.dtype
	skip := int64(NoSkipIndex)
	if paddingIdx >= 0 {
		skip = paddingIdx
	}
	n.finish(func(n *Node, g []*Tensor) ([]*Tensor, error) {
		return rt.embeddingBackward(n, g[0], ws, dt, skip)
	}, out)
	return out, nil
}

// embeddingBackward is embedding_dense_backward_cuda: indices.contiguous()
// and grad.contiguous() (a copy of a strided gradient, e.g. one expanded by
// sum()), then for at most 3072 indices the zeroed weight-sized gradient;
// on a GPU, larger index counts sort the indices and go through
// embedding_backward_cuda_kernel's segment buffers (embeddingSortedBackward).
func (rt *Runtime) embeddingBackward(n *Node, g *Tensor, ws []int64, dt DType, skip int64) ([]*Tensor, error) {
	idx, err := n.unpack(0)
	if err != nil {
		return nil, err
	}
	defer idx.Release()
	var tmps []*Tensor
	defer func() {
		for i := len(tmps) - 1; i >= 0; i-- {
			tmps[i].Release()
		}
	}()
	for _, t := range []*Tensor{idx, g} {
		if t.IsContiguous() {
			continue
		}
		c, err := rt.empty("embedding_dense_backward", t.shape, nil, t.dtype, t.device)
		if err != nil {
			return nil, err
		}
		tmps = append(tmps, c)
	}
	var r *Tensor
	if idx.Numel() > embeddingSortThreshold && g.device.IsCUDA() {
		r, err = rt.embeddingSortedBackward(idx, ws, dt, g)
	} else {
		r, err = rt.empty("embedding_dense_backward", ws, nil, dt, g.device)
	}
	if err == nil && rt.exec != nil {
		rt.compute(ExecIndexBack, []*Tensor{r}, []*Tensor{g, idx}, nil, []int64{0, skip})
	}
	return []*Tensor{r}, err
}
