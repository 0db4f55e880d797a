package torch

// sdpaEfficient is the memory-efficient branch: the additive mask is made
// 8-aligned (preprocess_mask: a constant_pad_nd copy padded to a multiple
// of 8 and sliced back when its strides are not, then expanded to [B, H,
// L, S]), and _scaled_dot_product_efficient_attention allocates the output
// in [B, L, H, Ev] layout (returned as the [B, H, L, Ev] transpose) and,
// when a gradient is needed, logsumexp [B, H, round32(L)] float32.
func (rt *Runtime) sdpaEfficient(a sdpaArgs) (*Tensor, error) {
	const op = "_scaled_dot_product_efficient_attention"
	q, k, v := a.q, a.k, a.v
	b, h, l, s, ev := q.shape[0], q.shape[1], q.shape[2], k.shape[2], v.shape[3]
	var bias *Tensor
	if a.mask != nil {
		m, err := rt.alignMask8(a.mask, []int64{b, h, l, s})
		if err != nil {
			return nil, err
		}
		defer m.Release()
		bias = m
	}
	// [B, L, H, Ev] storage seen as [B, H, L, Ev]
	out, err := rt.empty(op, []int64{b, h, l, ev}, []int64{l * h * ev, ev, h * ev, 1}, q.dtype, q.device)
	if err != nil {
		return nil, err
	}
	var lse *Tensor
	if rt.needsGrad(q, k, v) {
		if lse, err = rt.empty(op, []int64{b, h, divUp(l, 32) * 32}, nil, Float32, q.device); err != nil {
			out.Release()
			return nil, err
		}
	}
	rt.sdpaValues(a, out, q, k, v)
	n := rt.record("ScaledDotProductEfficientAttentionBackward0", q, k, v)
	if n != nil {
		n.save(k, false)
		n.save(q, false)
		n.save(v, false)
		n.save(bias, false)
		n.save(out, true)
		n.save(lse, true)
	}
	n.finish(func(n *Node, g []*Tensor) ([]*Tensor, error) {
		return rt.efficientBackward(a, n, g[0])
	}, out)
	lse.Release()
	return out, nil
}

// alignMask8 is preprocess_mask: a mask whose strides (but the last) are
// not multiples of 8 is copied into a buffer padded to a multiple of 8 and
// sliced back; the result is expanded to shape. Owned.
func (rt *Runtime) alignMask8(m *Tensor, shape []int64) (*Tensor, error) {
	n := len(m.shape)
	aligned := m.strides[n-1] == 1
	for i := 0; i < n-1; i++ {
		aligned = aligned && m.strides[i]%8 == 0
	}
	src := m.Retain()
	if !aligned {
		s := m.shape[n-1]
		p, err := rt.padExtra(m, []int64{8 - s%8})
		src.Release()
		if err != nil {
			return nil, err
		}
		src, err = rt.Slice(p, -1, 0, s, 1, true, true)
		p.Release()
		if err != nil {
			return nil, err
		}
	}
	res, err := rt.Expand(src, shape)
	src.Release()
	return res, err
}

// efficientBackwardWorkspace is the CUTLASS backward kernel's float
// workspace for the dq accumulators: per (batch, head) ceil(L/64) blocks of
// 64 × round64(E) floats plus 4 (a lock), measured on an H200 for fp32, B·H
// = 8, L ∈ {100, 256}, E ∈ {4..128}.
func efficientBackwardWorkspace(b, h, l, e int64) int64 {
	return 4 * b * h * divUp(l, 64) * (64*divUp(e, 64)*64 + 4)
}

// efficientBackward is _scaled_dot_product_efficient_attention_backward:
// grad_out's [B, L, H, E] transpose made contiguous (a copy unless it is,
// e.g. for the expanded gradient of a sum; freed when the op returns),
// grad_q/k/v in [B, L, H, E] layout (transposes, so AccumulateGrad copies
// them for contiguous leaves), delta = (grad_out·out).sum(-1) as [B, H, L]
// float32 (through a float product and a [B, L, H] sum, freed at once),
// then the kernel's workspace; delta is freed before the workspace.
func (rt *Runtime) efficientBackward(a sdpaArgs, n *Node, g *Tensor) ([]*Tensor, error) {
	const op = "_scaled_dot_product_efficient_attention_backward"
	res := make(gradSlot, 3)
	if tr := transposedStrides(g); !isContiguous([]int64{g.shape[0], g.shape[2], g.shape[1], g.shape[3]}, tr) {
		c, err := rt.empty(op, g.shape, []int64{g.shape[2] * g.shape[1] * g.shape[3], g.shape[3], g.shape[1] * g.shape[3], 1}, g.dtype, g.device)
		if err != nil {
			return nil, err
		}
		defer c.Release()
	}
	for i, slot := range []int{1, 0, 2} { // q, k, v
		t, err := n.unpack(slot)
		if err != nil {
			return res.fail(err)
		}
		h, l, e := t.shape[1], t.shape[2], t.shape[3]
		r, err := rt.empty(op, t.shape, []int64{l * h * e, e, h * e, 1}, t.dtype, t.device)
		t.Release()
		if err != nil {
			return res.fail(err)
		}
		res[i] = r
	}
	b, h, l, ev := g.shape[0], g.shape[1], g.shape[2], g.shape[3]
	var temps []*Tensor
	fail := func(err error) ([]*Tensor, error) {
		for i := len(temps) - 1; i >= 0; i-- {
			temps[i].Release()
		}
		return res.fail(err)
	}
	blhe := []int64{l * h * ev, ev, h * ev, 1}
	if g.dtype != Float32 { // grad_out.to(float), out.to(float)
		for j := 0; j < 2; j++ {
			c, err := rt.empty(op, g.shape, blhe, Float32, g.device)
			if err != nil {
				return fail(err)
			}
			temps = append(temps, c)
		}
	}
	prod, err := rt.empty(op, g.shape, blhe, Float32, g.device)
	if err != nil {
		return fail(err)
	}
	temps = append(temps, prod)
	sum, err := rt.empty(op, []int64{b, l, h}, nil, Float32, g.device)
	if err != nil {
		return fail(err)
	}
	temps = append(temps, sum)
	delta, err := rt.empty(op, []int64{b, h, l}, nil, Float32, g.device)
	if err != nil {
		return fail(err)
	}
	for i := len(temps) - 1; i >= 0; i-- {
		temps[i].Release()
	}
	temps = nil
	ws, err := rt.empty(op, []int64{efficientBackwardWorkspace(b, h, l, res[0].shape[3])}, nil, Uint8, g.device)
	delta.Release()
	if err != nil {
		return res.fail(err)
	}
	ws.Release()
	rt.sdpaBackValues(a, n, g, res, 1, 0, 2)
	for i := range res {
		if !n.needsInput(i) {
			res[i].Release()
			res[i] = nil
		}
	}
	return res, nil
}
