package torch

import "math"

// SDPA is F.scaled_dot_product_attention(q, k, v, attn_mask, dropout_p,
// is_causal) on CUDA for 4-d [B, H, L, E] inputs, as PyTorch 2.11 picks a
// fused kernel on an H100:
//   - fp16/bf16 without a mask: FlashAttention — the output is allocated
//     in [B, L, H, Ev] layout (returned as the [B, H, L, Ev] transpose, so
//     out.transpose(1, 2) is contiguous) and softmax_lse [B, H, L] float32
//     is always computed (kept for the backward, else freed);
//   - otherwise (fp32, or a mask): memory-efficient attention — the same
//     output layout, and logsumexp [B, H, ceil(L/32)*32] float32 only when
//     a gradient is needed.
//
// The backward allocates grad_query/grad_key/grad_value; the kernels'
// internal scratch (delta, workspace) is not modelled. Inputs that are not
// 4-d (the math fallback) are not simulated. scale 0 is 1/sqrt(E).
//
// On a backend with values the result is softmax(Q·Kᵀ·scale + mask)·V
// (ExecSDPA) and the backward recomputes the probabilities; with dropout
// neither is computed.
func (rt *Runtime) SDPA(q, k, v, mask *Tensor, dropout float64, causal bool, scale float64) (*Tensor, error) {
	if len(q.shape) != 4 || len(k.shape) != 4 || len(v.shape) != 4 {
		return nil, Errorf(NotImplementedError, "scaled_dot_product_attention with %d-d inputs (the math fallback) is not simulated", len(q.shape))
	}
	if !q.device.IsCUDA() {
		return nil, Errorf(NotImplementedError, "scaled_dot_product_attention on the CPU is not simulated")
	}
	if q.dtype != k.dtype || q.dtype != v.dtype {
		return nil, Errorf(RuntimeError, "Expected query, key, and value to have the same dtype, but got query.dtype: %s key.dtype: %s and value.dtype: %s instead.", q.dtype.Name(), k.dtype.Name(), v.dtype.Name())
	}
	if q.shape[3] != k.shape[3] || k.shape[2] != v.shape[2] {
		return nil, Errorf(RuntimeError, "scaled_dot_product_attention: query %s, key %s and value %s have incompatible shapes", shapeList(q.shape), shapeList(k.shape), shapeList(v.shape))
	}
	if _, err := commonDevice("scaled_dot_product_attention", q, k, v, mask); err != nil {
		return nil, err
	}
	x0, x1, x2, release, err := rt.autocastArgs("scaled_dot_product_attention", q, k, v)
	if err != nil {
		return nil, err
	}
	if release != nil {
		defer release()
		q, k, v = x0, x1, x2
	}
	b, h, l, ev := q.shape[0], q.shape[1], q.shape[2], v.shape[3]
	flash := (q.dtype == Float16 || q.dtype == BFloat16) && mask == nil
	grad := rt.needsGrad(q, k, v)
	op, name := "_efficient_attention_forward", "ScaledDotProductEfficientAttentionBackward0"
	if flash {
		op, name = "_flash_attention_forward", "ScaledDotProductFlashAttentionBackward0"
	}
	// [B, L, H, Ev] storage seen as [B, H, L, Ev]
	out, err := rt.empty(op, []int64{b, h, l, ev}, []int64{l * h * ev, ev, h * ev, 1}, q.dtype, q.device)
	if err != nil {
		return nil, err
	}
	if scale == 0 {
		scale = 1 / math.Sqrt(float64(q.shape[3]))
	}
	isCausal := int64(0)
	if causal {
		isCausal = 1
	}
	if rt.exec != nil && dropout == 0 {
		rt.computeOpt(ExecSDPA, []*Tensor{out}, []*Tensor{q, k, v, mask}, []float64{scale}, []int64{isCausal})
	}
	var lse *Tensor
	switch {
	case flash:
		lse, err = rt.empty(op, []int64{b, h, l}, nil, Float32, q.device)
	case grad:
		lse, err = rt.empty(op, []int64{b, h, divUp(l, 32) * 32}, nil, Float32, q.device)
	}
	if err != nil {
		out.Release()
		return nil, err
	}
	n := rt.record(name, q, k, v, mask)
	if n != nil {
		n.save(q, false)
		n.save(k, false)
		n.save(v, false)
		n.save(out, true)
		n.save(lse, true)
	}
	n.finish(func(n *Node, g []*Tensor) ([]*Tensor, error) {
		res := make(gradSlot, 4)
		for i := 0; i < 3; i++ {
			if !n.needsInput(i) {
				continue
			}
			t, err := n.unpack(i)
			if err != nil {
				return res.fail(err)
			}
			r, err := rt.empty(op+"_backward", t.shape, nil, t.dtype, t.device)
			t.Release()
			if err != nil {
				return res.fail(err)
			}
			res[i] = r
		}
		if rt.exec != nil && dropout == 0 && mask == nil {
			if sv, release, ok := rt.savedForValues(n, 0, 1, 2); ok {
				rt.computeOpt(ExecSDPABack, res[:3], []*Tensor{g[0], sv[0], sv[1], sv[2]}, []float64{scale}, []int64{isCausal})
				release()
			}
		}
		return res, nil
	}, out)
	lse.Release()
	return out, nil
}
