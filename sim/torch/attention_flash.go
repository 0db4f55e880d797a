package torch

// sdpaFlash is the flash-attention branch of scaled_dot_product_attention
// on CUDA: q, k and v are padded to a head dim that is a multiple of 8
// (pad_last_dim: constant_pad_nd copies, recorded by autograd), then
// _scaled_dot_product_flash_attention allocates the output in the padded
// q's layout (empty_like of its [B, L, H, E] transpose), softmax_lse [B, H,
// L] float32 (always) and the RNG state (two int64 tensors, 16 and 8
// bytes). The result is the output sliced back to the original head dim
// (a SliceBackward0 view that keeps the padded output alive).
func (rt *Runtime) sdpaFlash(a sdpaArgs) (*Tensor, error) {
	const op = "_scaled_dot_product_flash_attention"
	pads := make([]*Tensor, 3)
	for i, t := range []*Tensor{a.q, a.k, a.v} {
		p, err := rt.padLastDim8(t)
		if err != nil {
			releaseAllOf(pads...)
			return nil, err
		}
		pads[i] = p
	}
	q, k, v := pads[0], pads[1], pads[2]
	defer releaseAllOf(v, k, q)
	b, h, l := q.shape[0], q.shape[1], q.shape[2]
	out, err := rt.likeLayout(op, q, nil, q.dtype)
	if err != nil {
		return nil, err
	}
	var lse, rng, off *Tensor
	if lse, err = rt.empty(op, []int64{b, h, l}, nil, Float32, q.device); err == nil {
		if rng, err = rt.empty(op, []int64{2}, nil, Int64, q.device); err == nil {
			off, err = rt.empty(op, nil, nil, Int64, q.device)
		}
	}
	if err != nil {
		releaseAllOf(out, lse, rng)
		return nil, err
	}
	if a.dropout > 0 {
		// measured (q037): with dropout one more small device block (512 B)
		// lives during the kernel and is freed before the op returns; its
		// source is not identified, modelled as an int64[2] temporary
		tmp, err := rt.empty(op, []int64{2}, nil, Int64, q.device)
		if err != nil {
			releaseAllOf(out, lse, rng, off)
			return nil, err
		}
		tmp.Release()
	}
	rt.sdpaValues(a, out, q, k, v)
	n := rt.record("ScaledDotProductFlashAttentionBackward0", q, k, v)
	if n != nil {
		n.save(k, false)
		n.save(q, false)
		n.save(v, false)
		n.save(out, true)
		n.save(lse, true)
		n.save(rng, true)
		n.save(off, true)
	}
	n.finish(func(n *Node, g []*Tensor) ([]*Tensor, error) {
		return rt.flashBackward(a, n, g[0])
	}, out)
	releaseAllOf(lse, rng, off)
	e := a.q.shape[3]
	if e == q.shape[3] {
		return out, nil
	}
	res, err := rt.Slice(out, 3, 0, e, 1, true, true)
	out.Release()
	return res, err
}

// flashBackward is _scaled_dot_product_flash_attention_backward: the
// kernel takes grad_out and out as [B, L, H, E] transposes, made contiguous
// (copies unless they already are), allocates dq, dk, dv like q, k, v, then
// softmax_d [B, H, round128(L)] and the dq accumulator [B, round128(L), H,
// round32(E)] (float32, freed when it returns).
func (rt *Runtime) flashBackward(a sdpaArgs, n *Node, g *Tensor) ([]*Tensor, error) {
	const op = "_scaled_dot_product_flash_attention_backward"
	res := make(gradSlot, 3)
	out, err := n.unpack(3)
	if err != nil {
		return nil, err
	}
	var temps []*Tensor
	defer func() {
		for i := len(temps) - 1; i >= 0; i-- {
			temps[i].Release()
		}
	}()
	for _, t := range []*Tensor{g, out} {
		if tr := transposedStrides(t); !isContiguous([]int64{t.shape[0], t.shape[2], t.shape[1], t.shape[3]}, tr) {
			c, err := rt.empty(op, []int64{t.shape[0], t.shape[2], t.shape[1], t.shape[3]}, nil, t.dtype, t.device)
			if err != nil {
				out.Release()
				return nil, err
			}
			temps = append(temps, c)
		}
	}
	out.Release()
	for i, slot := range []int{1, 0, 2} { // q, k, v
		t, err := n.unpack(slot)
		if err != nil {
			return res.fail(err)
		}
		r, err := rt.likeLayout(op, t, nil, t.dtype)
		t.Release()
		if err != nil {
			return res.fail(err)
		}
		res[i] = r
	}
	b, h, l, e := g.shape[0], g.shape[1], g.shape[2], g.shape[3]
	lr := divUp(l, 128) * 128
	er := int64(256)
	if e <= 192 {
		er = divUp(e, 32) * 32
	}
	sd, err := rt.empty(op, []int64{b, h, lr}, nil, Float32, g.device)
	if err != nil {
		return res.fail(err)
	}
	acc, err := rt.empty(op, []int64{b, lr, h, er}, nil, Float32, g.device)
	if err != nil {
		sd.Release()
		return res.fail(err)
	}
	acc.Release()
	sd.Release()
	rt.sdpaBackValues(a, n, g, res, 1, 0, 2)
	for i := range res {
		if !n.needsInput(i) {
			res[i].Release()
			res[i] = nil
		}
	}
	return res, nil
}

// transposedStrides are t's strides with dims 1 and 2 swapped (the [B, L,
// H, E] view of a [B, H, L, E] tensor).
func transposedStrides(t *Tensor) []int64 {
	return []int64{t.strides[0], t.strides[2], t.strides[1], t.strides[3]}
}

// padLastDim8 is pad_last_dim<8>: a copy padded with zeros to a multiple of
// 8 in the last dim (constant_pad_nd, ConstantPadNdBackward0), or t itself.
// The result is owned.
func (rt *Runtime) padLastDim8(t *Tensor) (*Tensor, error) {
	e := t.shape[len(t.shape)-1]
	if e%8 == 0 {
		return t.Retain(), nil
	}
	return rt.padExtra(t, []int64{8 - e%8})
}
