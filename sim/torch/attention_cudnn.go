package torch

// cudnnSDPAForwardWorkspace is the workspace cuDNN 9.19's SDPA forward graph
// asked for in every shape measured on an H200 (allocated after the
// outputs, freed when the op returns).
const cudnnSDPAForwardWorkspace = 256

// cudnnSDPABackwardWorkspace is the backward graph's workspace, measured on
// an H200 for B·H ∈ {8, 32}, L ∈ {100, 256}, S ∈ {36, 256}, E ∈ {8..128}:
// a float dQ accumulator [B, H, L, E], one float per query row and 256
// bytes.
func cudnnSDPABackwardWorkspace(b, h, l, e int64) int64 {
	return 4*b*h*l*(e+1) + 256
}

// sdpaCudnn is _scaled_dot_product_cudnn_attention: the philox seed and
// offset (int64 scalars, allocated even without dropout), the output in
// q's layout, the logsumexp [B, H, L, 1] float32 when a gradient is needed,
// and the forward workspace. The backward (ScaledDotProductCudnnAttention-
// Backward0) allocates dq, dk, dv in the inputs' layouts, then its
// workspace. The mask is saved for the backward.
func (rt *Runtime) sdpaCudnn(a sdpaArgs) (*Tensor, error) {
	const op = "_scaled_dot_product_cudnn_attention"
	q, k, v := a.q, a.k, a.v
	b, h, l := q.shape[0], q.shape[1], q.shape[2]
	seed, err := rt.empty(op, nil, nil, Int64, q.device)
	if err != nil {
		return nil, err
	}
	offset, err := rt.empty(op, nil, nil, Int64, q.device)
	if err != nil {
		seed.Release()
		return nil, err
	}
	outShape := []int64{b, h, l, v.shape[3]}
	out, err := rt.likeLayout(op, q, outShape, q.dtype)
	if err != nil {
		releaseAllOf(seed, offset)
		return nil, err
	}
	grad := rt.needsGrad(q, k, v)
	var lse *Tensor
	if grad {
		if lse, err = rt.empty(op, []int64{b, h, l, 1}, nil, Float32, q.device); err != nil {
			releaseAllOf(out, seed, offset)
			return nil, err
		}
	}
	ws, err := rt.empty(op, []int64{cudnnSDPAForwardWorkspace}, nil, Uint8, q.device)
	if err != nil {
		releaseAllOf(out, lse, seed, offset)
		return nil, err
	}
	ws.Release()
	rt.sdpaValues(a, out, q, k, v)
	n := rt.record("ScaledDotProductCudnnAttentionBackward0", q, k, v)
	if n != nil {
		n.save(k, false)
		n.save(q, false)
		n.save(v, false)
		n.save(a.mask, false)
		n.save(out, true)
		n.save(lse, true)
		n.save(seed, true)
		n.save(offset, true)
	}
	e := q.shape[3]
	n.finish(func(n *Node, g []*Tensor) ([]*Tensor, error) {
		const bop = op + "_backward"
		res := make(gradSlot, 3)
		for i, slot := range []int{1, 0, 2} { // q, k, v
			t, err := n.unpack(slot)
			if err != nil {
				return res.fail(err)
			}
			r, err := rt.likeLayout(bop, t, nil, t.dtype)
			t.Release()
			if err != nil {
				return res.fail(err)
			}
			res[i] = r
		}
		w, err := rt.empty(bop, []int64{cudnnSDPABackwardWorkspace(b, h, l, e)}, nil, Uint8, q.device)
		if err != nil {
			return res.fail(err)
		}
		w.Release()
		rt.sdpaBackValues(a, n, g[0], res, 1, 0, 2)
		for i := range res {
			if !n.needsInput(i) {
				res[i].Release()
				res[i] = nil
			}
		}
		return res, nil
	}, out)
	releaseAllOf(lse, seed, offset)
	return out, nil
}
