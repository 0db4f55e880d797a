package torch

import "math"

// SDPA is F.scaled_dot_product_attention(q, k, v, attn_mask, dropout_p,
// is_causal) on CUDA for 4-d [B, H, L, E] inputs, as PyTorch 2.11 runs it on
// an sm90 device (H100/H200, cuDNN 9.19). sdpaChoose picks the backend:
//   - cuDNN attention (fp16/bf16, head dims multiples of 8, ≤ 128, with or
//     without a mask): attention_cudnn.go;
//   - flash attention (fp16/bf16, no mask, other head dims ≤ 256): q/k/v
//     padded to a multiple of 8 and the output sliced back:
//     attention_flash.go;
//   - memory-efficient attention (fp32 head dims multiples of 4, or
//     whatever the two above refuse): attention_efficient.go;
//   - the math fallback, composed of matmul/softmax ops: attention_math.go.
//
// A bool mask becomes an additive mask first (where(mask, 0, -inf)). scale
// 0 is 1/sqrt(E).
//
// On a backend with values the fused results are dropout(softmax(Q·Kᵀ·
// scale + mask))·V (ExecSDPA) and the backward recomputes the
// probabilities; dropout's keep mask comes from the executor's generator
// (not PyTorch's Philox numbers), its seed and offset are kept for the
// backward, which regenerates the same mask. The math path with dropout
// runs native_dropout on the probabilities (values and gradients through
// the composed ops; with is_causal, not computed past the tril).
func (rt *Runtime) SDPA(q, k, v, mask *Tensor, dropout float64, causal bool, scale float64) (*Tensor, error) {
	if len(q.shape) != 4 || len(k.shape) != 4 || len(v.shape) != 4 {
		return nil, Errorf(NotImplementedError, "scaled_dot_product_attention with %d-d inputs is not simulated", len(q.shape))
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
	if mask != nil && mask.dtype != Bool && mask.dtype != q.dtype {
		return nil, Errorf(RuntimeError, "Expected attn_mask dtype to be bool or float or to match query dtype, but got attn_mask.dtype: %s and  query.dtype: %s instead.", mask.dtype.Name(), q.dtype.Name())
	}
	a := sdpaArgs{q: q, k: k, v: v, userMask: mask, dropout: dropout, causal: causal, scale: scale, rng: new([2]int64)}
	if a.scale == 0 {
		a.scale = 1 / math.Sqrt(float64(q.shape[3]))
	}
	if causal {
		a.isCausal = 1
	}
	backend := sdpaChoose(rt.cfg.SM, rt.needsGrad(q, k, v), q, k, v, mask, dropout, causal)
	// convert_boolean_attn_mask: every backend sees an additive mask
	if mask != nil {
		m, err := rt.boolMaskToAdditive(mask, q.dtype)
		if err != nil {
			return nil, err
		}
		defer m.Release()
		a.mask = m
	}
	switch backend {
	case sdpaCudnn:
		return rt.sdpaCudnn(a)
	case sdpaFlash:
		return rt.sdpaFlash(a)
	case sdpaEfficient:
		return rt.sdpaEfficient(a)
	}
	return rt.sdpaMath(a)
}

// sdpaArgs carries one scaled_dot_product_attention call to its backend.
type sdpaArgs struct {
	q, k, v  *Tensor
	userMask *Tensor // attn_mask as passed (bool or float); values use it
	mask     *Tensor // the additive mask (borrowed), nil without one
	dropout  float64
	causal   bool
	isCausal int64   // causal as the executor's int
	scale    float64 // the softmax scale (1/sqrt(E) when not given)
	// rng is the generator state the forward's dropout used (seed,
	// offset), shared by the copies of the args the backward holds.
	rng *[2]int64
}

// boolMaskToAdditive is convert_boolean_attn_mask: a bool mask becomes
// where(mask, 0, -inf) in dt (two device scalars, freed at once, and the
// where result); any other mask is returned as is. The result is owned.
func (rt *Runtime) boolMaskToAdditive(mask *Tensor, dt DType) (*Tensor, error) {
	if mask.dtype != Bool {
		return mask.Retain(), nil
	}
	zero, err := rt.empty("scalar_tensor", nil, nil, dt, mask.device)
	if err != nil {
		return nil, err
	}
	defer zero.Release()
	neg, err := rt.empty("scalar_tensor", nil, nil, dt, mask.device)
	if err != nil {
		return nil, err
	}
	defer neg.Release()
	rt.Init(zero, ExecFill, 0)
	rt.Init(neg, ExecFill, math.Inf(-1))
	return rt.Where(mask, zero, neg)
}

// sdpaValues computes a fused backend's output values: from the inputs
// the kernel ran on (padded for flash) and the mask as passed; with
// dropout the executor reports the generator state it drew the keep mask
// from into a.rng.
func (rt *Runtime) sdpaValues(a sdpaArgs, out, q, k, v *Tensor) {
	if rt.exec == nil {
		return
	}
	if a.dropout == 0 {
		rt.computeOpt(ExecSDPA, []*Tensor{out}, []*Tensor{q, k, v, a.userMask}, []float64{a.scale}, []int64{a.isCausal})
		return
	}
	op := rt.computeOpt(ExecSDPA, []*Tensor{out}, []*Tensor{q, k, v, a.userMask}, []float64{a.scale, a.dropout}, []int64{a.isCausal, 1, 0, 0})
	if op != nil && len(op.Ints) >= 4 {
		a.rng[0], a.rng[1] = op.Ints[2], op.Ints[3]
	}
}

// sdpaBackValues computes a fused backward's gradients (no mask) from the
// saved q, k, v at slots qi, ki, vi; with dropout, from the keep mask of
// the forward's generator state.
func (rt *Runtime) sdpaBackValues(a sdpaArgs, n *Node, g *Tensor, res []*Tensor, qi, ki, vi int) {
	if rt.exec == nil || a.userMask != nil {
		return
	}
	scalars, ints := []float64{a.scale}, []int64{a.isCausal}
	if a.dropout != 0 {
		scalars, ints = []float64{a.scale, a.dropout}, []int64{a.isCausal, 1, a.rng[0], a.rng[1]}
	}
	if sv, release, ok := rt.savedForValues(n, qi, ki, vi); ok {
		rt.computeOpt(ExecSDPABack, res, []*Tensor{g, sv[0], sv[1], sv[2]}, scalars, ints)
		release()
	}
}

// likeLayout allocates a tensor of t's shape (or shape) in t's layout when t
// is non-overlapping and dense (empty_like), else contiguous.
func (rt *Runtime) likeLayout(op string, t *Tensor, shape []int64, dt DType) (*Tensor, error) {
	if shape == nil {
		shape = t.shape
	}
	if isNonOverlappingAndDense(t.shape, t.strides) && sameShape(shape, t.shape) {
		return rt.empty(op, shape, stridesLike(t.shape, t.strides), dt, t.device)
	}
	return rt.empty(op, shape, nil, dt, t.device)
}

// releaseAllOf drops one reference of each tensor, in order (nil skipped).
func releaseAllOf(ts ...*Tensor) {
	for _, t := range ts {
		t.Release()
	}
}
