package torch

// sdpaBackend is the kernel family scaled_dot_product_attention runs
// (sdp::SDPBackend).
type sdpaBackend uint8

const (
	sdpaMath sdpaBackend = iota
	sdpaFlash
	sdpaEfficient
	sdpaCudnn
)

// sdpaChoose is sdp::select_sdp_backend as PyTorch 2.11 (cu130, cuDNN 9.19)
// runs it on the simulated sm90 device (H100/H200): cuDNN attention is tried
// first there (check_prefer_cudnn_attention), then flash, memory-efficient
// and the math fallback; the first whose constraints hold is chosen.
// Measured on an H200 for fp16/bf16/fp32 × head dims 4..128 × masks × L≠S
// (sim/torch/testdata/questions/q8_sdpa_backends.*).
func sdpaChoose(q, k, v, mask *Tensor, dropout float64, causal bool) sdpaBackend {
	if len(q.shape) != 4 || len(k.shape) != 4 || len(v.shape) != 4 {
		return sdpaMath // check_tensor_shapes: the fused kernels take 4-d inputs
	}
	for _, t := range []*Tensor{q, k, v} {
		if t.shape[2] == 0 || t.shape[3] == 0 {
			return sdpaMath // check_nonzero_sequence_lengths_dense
		}
	}
	if q.shape[0] != k.shape[0] || q.shape[0] != v.shape[0] || q.shape[1] != k.shape[1] || q.shape[1] != v.shape[1] {
		return sdpaMath // batch and heads must agree (grouped-query attention is not simulated)
	}
	half := q.dtype == Float16 || q.dtype == BFloat16
	if half && sdpaCudnnOK(q, k, v, dropout) {
		return sdpaCudnn
	}
	if half && sdpaFlashOK(q, k, v, mask, causal) {
		return sdpaFlash
	}
	if (half || q.dtype == Float32) && sdpaEfficientOK(q, k, v) {
		return sdpaEfficient
	}
	return sdpaMath
}

// sdpaCudnnOK is can_use_cudnn_attention for dense inputs with cuDNN 9.19
// on sm90: head dims multiples of 8 and at most 128 (192/128 allowed),
// key length not 1, batch and heads ≤ 65535, dropout a multiple of 1/16.
func sdpaCudnnOK(q, k, v *Tensor, dropout float64) bool {
	dqk, dv := q.shape[3], v.shape[3]
	if dqk != k.shape[3] || dqk%8 != 0 || dv%8 != 0 {
		return false
	}
	if !(dqk <= 128 && dv <= 128) && !(dqk == 192 && dv == 128) {
		return false
	}
	if k.shape[2] == 1 || q.shape[0] > 65535 || q.shape[1] > 65535 {
		return false
	}
	if d := dropout * 16; d != float64(int64(d)) {
		return false
	}
	return lastDimStride1(true, q, k, v)
}

// sdpaFlashOK is can_use_flash_attention: no explicit mask, one head dim ≤
// 256 for q, k and v (not necessarily a multiple of 8: the caller pads),
// is_causal only with L == S.
func sdpaFlashOK(q, k, v, mask *Tensor, causal bool) bool {
	if mask != nil {
		return false
	}
	e := q.shape[3]
	if e != k.shape[3] || e != v.shape[3] || e > 256 {
		return false
	}
	if causal && q.shape[2] != k.shape[2] {
		return false // check_flash_causal_non_square_seqlens
	}
	return lastDimStride1(true, q, k, v)
}

// sdpaEfficientOK is can_use_mem_efficient_attention on sm80+: head dims
// multiples of the GEMM alignment (8 for fp16/bf16, 4 for fp32), storage
// offsets aligned to it, unit last-dim strides.
func sdpaEfficientOK(q, k, v *Tensor) bool {
	align := int64(4)
	if q.dtype == Float16 || q.dtype == BFloat16 {
		align = 8
	}
	if q.shape[3] != k.shape[3] || q.shape[3]%align != 0 || v.shape[3]%align != 0 {
		return false
	}
	for _, t := range []*Tensor{q, k, v} {
		if t.offset%align != 0 {
			return false
		}
	}
	return lastDimStride1(false, q, k, v)
}

// lastDimStride1 is check_last_dim_stride_equals_1_dense (ignoreSingleton:
// a last dim of size 1 may have any stride).
func lastDimStride1(ignoreSingleton bool, ts ...*Tensor) bool {
	for _, t := range ts {
		n := len(t.shape) - 1
		if t.strides[n] != 1 && !(ignoreSingleton && t.shape[n] == 1) {
			return false
		}
	}
	return true
}
