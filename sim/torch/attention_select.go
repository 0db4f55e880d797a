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
// runs it on a device of compute capability sm (major*10+minor; 0 is sm90).
// grad is input_requires_grad: grad mode on and q, k or v requiring grad.
//
// On sm90 (H100/H200) the rule is measured: cuDNN attention is tried first
// (check_prefer_cudnn_attention), then flash, memory-efficient and the math
// fallback; the first whose constraints hold is chosen. Measured on an H200
// for fp16/bf16/fp32 × head dims 4..128 × masks × L≠S
// (sim/torch/testdata/questions/q8_sdpa_backends.*).
//
// Other architectures follow the source, unmeasured:
// aten/src/ATen/native/transformers/cuda/sdp_utils.cpp of pytorch/pytorch
// main as stored (commit 001f694a, the only and newest version there: it
// prefers cuDNN > 9.15 on sm9x/sm10x as 2.11 does; its cuDNN > 9.22
// head-dim-256 clauses are inert with cuDNN 9.19). Only sm9x/sm10x prefer cuDNN in a CUDA 13 build; every
// other device keeps the default order flash, memory-efficient, math,
// cuDNN, so cuDNN is never reached there (math always accepts). Flash needs
// sm80..sm121 and fp16/bf16; memory-efficient needs sm50..sm121, takes
// fp32/fp16 and, from sm80, bf16, with a head-dim alignment that depends on
// the architecture (sdpaGemmAlign). Devices outside those ranges run math.
func sdpaChoose(sm int, grad bool, q, k, v, mask *Tensor, dropout float64, causal bool) sdpaBackend {
	if sm == 0 {
		sm = 90
	}
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
	if sdpaPreferCudnn(sm) && sdpaCudnnOK(sm, q, k, v, dropout) {
		return sdpaCudnn
	}
	if sdpaFlashOK(sm, grad, q, k, v, mask, dropout, causal) {
		return sdpaFlash
	}
	if sdpaEfficientOK(sm, q, k, v) {
		return sdpaEfficient
	}
	return sdpaMath
}

// sdpaPreferCudnn is check_prefer_cudnn_attention in a CUDA 13 build with
// cuDNN 9.19 (> 9.15): sm9x and sm10x put cuDNN attention first.
func sdpaPreferCudnn(sm int) bool {
	return sm/10 == 9 || sm/10 == 10
}

// sdpaCudnnOK is can_use_cudnn_attention for dense inputs with cuDNN 9.19:
// sm80..sm121 (check_cudnn_hardware_support), fp16/bf16, head dims
// multiples of 8 and at most 128 (192/128 allowed on sm90 and sm10x), key
// length not 1, batch and heads ≤ 65535 (dropout_p 0.1 was measured to
// take cuDNN on sm90: q037_sdpa_math_dropout).
func sdpaCudnnOK(sm int, q, k, v *Tensor, dropout float64) bool {
	if sm < 80 || sm > 121 || (q.dtype != Float16 && q.dtype != BFloat16) {
		return false
	}
	dqk, dv := q.shape[3], v.shape[3]
	if dqk != k.shape[3] || dqk%8 != 0 || dv%8 != 0 {
		return false
	}
	d192 := (sm == 90 || sm/10 == 10) && dqk == 192 && dv == 128
	if !(dqk <= 128 && dv <= 128) && !d192 {
		return false
	}
	if k.shape[2] == 1 || q.shape[0] > 65535 || q.shape[1] > 65535 {
		return false
	}
	if dropout != 0 && q.shape[2] == 1 {
		return false // no query length 1 with dropout
	}
	return lastDimStride1(true, q, k, v)
}

// sdpaFlashOK is can_use_flash_attention: sm80..sm121, fp16/bf16, no
// explicit mask, one head dim ≤ 256 for q, k and v (not necessarily a
// multiple of 8: the caller pads), is_causal only with L == S. On sm86..89
// and sm120/121, training (grad) refuses head dims in (192, 224], and those
// above 224 with dropout (the backward kernel lacks them there).
func sdpaFlashOK(sm int, grad bool, q, k, v, mask *Tensor, dropout float64, causal bool) bool {
	if sm < 80 || sm > 121 || (q.dtype != Float16 && q.dtype != BFloat16) || mask != nil {
		return false
	}
	e := q.shape[3]
	if e != k.shape[3] || e != v.shape[3] || e > 256 {
		return false
	}
	if grad && ((sm >= 86 && sm <= 89) || sm == 120 || sm == 121) && e > 192 && (e <= 224 || dropout > 0) {
		return false // check_requires_grad_and_head_dim_gt192_constraints_on_sm86_89_or_120
	}
	if causal && q.shape[2] != k.shape[2] {
		return false // check_flash_causal_non_square_seqlens
	}
	return lastDimStride1(true, q, k, v)
}

// sdpaEfficientOK is can_use_mem_efficient_attention: sm50..sm121, fp32 or
// fp16 (bf16 too from sm80), head dims multiples of the GEMM alignment,
// storage offsets aligned to it on sm80+ (check_data_ptr_alignment: the
// allocator's 256-byte bases leave only the offset), unit last-dim strides.
func sdpaEfficientOK(sm int, q, k, v *Tensor) bool {
	if sm < 50 || sm > 121 {
		return false
	}
	switch q.dtype {
	case Float32, Float16:
	case BFloat16:
		if sm < 80 {
			return false
		}
	default:
		return false
	}
	align := sdpaGemmAlign(sm, q.dtype)
	if q.shape[3] != k.shape[3] || q.shape[3]%align != 0 || v.shape[3]%align != 0 {
		return false
	}
	if sm >= 80 {
		for _, t := range []*Tensor{q, k, v} {
			if t.offset%align != 0 {
				return false
			}
		}
	}
	return lastDimStride1(false, q, k, v)
}

// sdpaGemmAlign is minimum_gemm_alignment in elements: tensor cores (sm80+,
// or sm7x for fp16/bf16) need 128-bit rows (8 halves, 4 floats); sm80+
// needs at least 4 otherwise; older devices have no requirement (1).
func sdpaGemmAlign(sm int, dt DType) int64 {
	half := dt == Float16 || dt == BFloat16
	align := int64(1)
	if sm >= 80 {
		align = 4
	}
	if sm >= 80 || (sm >= 70 && half) {
		bits := int64(32)
		if half {
			bits = 16
		}
		align = max(align, 128/bits)
	}
	return align
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
