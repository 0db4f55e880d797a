package torch

import "math"

// sdpaMath is _scaled_dot_product_attention_math, composed of the ops it
// calls so that memory and autograd follow them: fp16/bf16 inputs are
// copied to float32 first (allowFP16BF16ReductionMathSDP is off by
// default), q and kᵀ are each scaled by sqrt(scale), is_causal builds
// ones(L, S).tril() and converts it to an additive mask, attn = q·kᵀ (+
// mask, out of place) goes through _safe_softmax, then at::dropout when
// dropout_p > 0 (native_dropout), and the result is attn·v
// (copied back to the input dtype). For fp16/bf16 attn is also copied to
// the input dtype first (the discarded second result). Locals are freed in
// C++ destruction order.
func (rt *Runtime) sdpaMath(a sdpaArgs) (*Tensor, error) {
	orig := a.q.dtype
	upcast := orig == Float16 || orig == BFloat16
	var held []*Tensor // released in reverse order at the end
	defer func() {
		for i := len(held) - 1; i >= 0; i-- {
			held[i].Release()
		}
	}()
	acc := make([]*Tensor, 3)
	for i, t := range []*Tensor{a.q, a.k, a.v} {
		if !upcast {
			acc[i] = t.Retain()
		} else {
			c, err := rt.To(t, Float32, t.device, false)
			if err != nil {
				return nil, err
			}
			acc[i] = c
		}
		held = append(held, acc[i])
	}
	sf := Float(math.Sqrt(a.scale))
	qs, err := rt.MulScalar(acc[0], sf)
	if err != nil {
		return nil, err
	}
	mask := a.mask
	var causal *Tensor
	if a.causal {
		if causal, err = rt.causalMask(a.q.shape[2], a.k.shape[2], qs.dtype, qs.device); err != nil {
			qs.Release()
			return nil, err
		}
		mask = causal
	}
	ks, err := rt.scaledTranspose(acc[1], sf)
	if err != nil {
		releaseAllOf(causal, qs)
		return nil, err
	}
	attn, err := rt.Matmul(qs, ks)
	ks.Release()
	if err == nil && mask != nil {
		var s *Tensor
		s, err = rt.Add(attn, mask, 1)
		attn.Release()
		attn = s
	}
	if err == nil {
		var s *Tensor
		s, err = rt.safeSoftmax(attn)
		attn.Release()
		attn = s
		if err == nil && a.dropout > 0 {
			// at::dropout(attn, p, true): native_dropout's output and bool
			// mask (kept by NativeDropoutBackward0 with grad, else freed)
			s, err = rt.Dropout(attn, a.dropout, true)
			attn.Release()
			attn = s
		}
	}
	if err != nil {
		releaseAllOf(causal, qs)
		return nil, err
	}
	var attnLow *Tensor
	if upcast { // make_tuple's second argument is evaluated first
		if attnLow, err = rt.To(attn, orig, attn.device, false); err != nil {
			releaseAllOf(attn, causal, qs)
			return nil, err
		}
		held = append([]*Tensor{attnLow}, held...)
	}
	out, err := rt.Matmul(attn, acc[2])
	if err == nil && upcast {
		var c *Tensor
		c, err = rt.To(out, orig, out.device, false)
		out.Release()
		out = c
	}
	if upcast {
		attn.Release() // the float32 probabilities: attnLow is returned instead
		releaseAllOf(qs, causal)
	} else {
		releaseAllOf(qs, causal, attn) // attn itself is the discarded result
	}
	if err != nil {
		return nil, err
	}
	// the composed ops computed the output (the causal mask's tril
	// included); without dropout the output is recomputed by the fused
	// formula. With dropout the composed ops (native_dropout's keep mask
	// from the CUDA generator) computed the output and, through their
	// nodes, the gradients.
	if a.dropout == 0 {
		rt.sdpaValues(a, out, a.q, a.k, a.v)
	}
	return out, nil
}

// scaledTranspose is key.transpose(-2, -1) * s (the product keeps the
// transposed layout).
func (rt *Runtime) scaledTranspose(k *Tensor, s Scalar) (*Tensor, error) {
	kt, err := rt.Transpose(k, -2, -1)
	if err != nil {
		return nil, err
	}
	defer kt.Release()
	return rt.MulScalar(kt, s)
}

// causalMask is the math path's is_causal mask: ones(L, S, bool).tril()
// converted to an additive mask of dt. Owned.
func (rt *Runtime) causalMask(l, s int64, dt DType, dev Device) (*Tensor, error) {
	ones, err := rt.empty("ones", []int64{l, s}, nil, Bool, dev)
	if err != nil {
		return nil, err
	}
	rt.Init(ones, ExecFill, 1)
	tril, err := rt.empty("tril", []int64{l, s}, nil, Bool, dev)
	if err == nil && rt.exec != nil {
		rt.computeTri(tril, ones, false, 0)
	}
	ones.Release()
	if err != nil {
		return nil, err
	}
	defer tril.Release()
	return rt.boolMaskToAdditive(tril, dt)
}

// safeSoftmax is _safe_softmax(x, -1): softmax whose fully masked rows are
// 0. The CUDA op allocates the result, then a bool x == -inf, its all()
// over the last dim and a scalar zero (freed at once). The backward
// (SafeSoftmaxBackward0) is _softmax_backward_data on the saved result:
// grad_input and one temporary of the same size.
func (rt *Runtime) safeSoftmax(x *Tensor) (*Tensor, error) {
	const op = "_safe_softmax"
	out, err := rt.empty(op, x.shape, nil, x.dtype, x.device)
	if err != nil {
		return nil, err
	}
	rows := cloneShape(x.shape)
	rows[len(rows)-1] = 1
	var temps []*Tensor
	for _, sh := range [][]int64{x.shape, rows} {
		t, err := rt.empty(op, sh, nil, Bool, x.device)
		if err != nil {
			releaseAllOf(temps...)
			out.Release()
			return nil, err
		}
		temps = append(temps, t)
	}
	zero, err := rt.empty(op, nil, nil, x.dtype, x.device)
	if err != nil {
		releaseAllOf(temps...)
		out.Release()
		return nil, err
	}
	releaseAllOf(zero, temps[1], temps[0])
	dim := int64(len(x.shape) - 1)
	if rt.exec != nil {
		rt.compute(ExecSoftmax, []*Tensor{out}, []*Tensor{x}, nil, []int64{dim})
	}
	n := rt.record("SafeSoftmaxBackward0", x)
	if n != nil {
		n.save(out, true)
	}
	n.finish(func(n *Node, g []*Tensor) ([]*Tensor, error) {
		const bop = "_softmax_backward_data"
		r, err := n.unpack(0)
		if err != nil {
			return nil, err
		}
		defer r.Release()
		gi, err := rt.empty(bop, g[0].shape, nil, g[0].dtype, g[0].device)
		if err != nil {
			return nil, err
		}
		tmp, err := rt.empty(bop, g[0].shape, nil, g[0].dtype, g[0].device)
		if err != nil {
			gi.Release()
			return nil, err
		}
		tmp.Release()
		if rt.exec != nil {
			rt.compute(ExecSoftmaxBack, []*Tensor{gi}, []*Tensor{g[0], r}, nil, []int64{dim})
		}
		return []*Tensor{gi}, nil
	}, out)
	return out, nil
}
