package torch

import "testing"

// sdpaTestTensor is a contiguous [b, h, l, e] tensor of dt at storage
// offset off (only what sdpaChoose reads).
func sdpaTestTensor(b, h, l, e int64, dt DType, off int64) *Tensor {
	shape := []int64{b, h, l, e}
	return &Tensor{shape: shape, strides: contiguousStrides(shape), dtype: dt, offset: off}
}

// TestSDPAChoose: sdpaChoose per architecture, dtype, head dim, mask,
// causal and L≠S. sm90 rows are the measured H200 choices (q8); the other
// architectures follow sdp_utils.cpp.
func TestSDPAChoose(t *testing.T) {
	type row struct {
		sm      int
		dt      DType
		e       int64 // head dim of q, k and v
		mask    bool
		causal  bool
		lneS    bool // L = 64, S = 32 (else both 64)
		grad    bool
		dropout float64
		want    sdpaBackend
	}
	f16, bf16, f32 := Float16, BFloat16, Float32
	rows := []row{
		// sm90 (0 = default = sm90): measured.
		{sm: 0, dt: f16, e: 64, want: sdpaCudnn},
		{sm: 90, dt: bf16, e: 128, mask: true, want: sdpaCudnn},
		{sm: 90, dt: f16, e: 64, causal: true, lneS: true, want: sdpaCudnn},
		{sm: 90, dt: f16, e: 36, want: sdpaFlash},
		{sm: 90, dt: f16, e: 256, want: sdpaFlash},
		{sm: 90, dt: f16, e: 36, causal: true, lneS: true, want: sdpaMath},
		{sm: 90, dt: f16, e: 36, mask: true, want: sdpaMath},
		{sm: 90, dt: f16, e: 160, mask: true, want: sdpaEfficient},
		{sm: 90, dt: f32, e: 64, want: sdpaEfficient},
		{sm: 90, dt: f32, e: 6, want: sdpaMath},
		// sm100: cuDNN preferred too.
		{sm: 100, dt: bf16, e: 64, want: sdpaCudnn},
		// sm80 (A100): flash first, cuDNN never.
		{sm: 80, dt: f16, e: 64, want: sdpaFlash},
		{sm: 80, dt: bf16, e: 36, want: sdpaFlash},
		{sm: 80, dt: f16, e: 64, mask: true, want: sdpaEfficient},
		{sm: 80, dt: f16, e: 64, causal: true, want: sdpaFlash},
		{sm: 80, dt: f16, e: 64, causal: true, lneS: true, want: sdpaEfficient},
		{sm: 80, dt: f16, e: 36, causal: true, lneS: true, want: sdpaMath},
		{sm: 80, dt: f16, e: 256, grad: true, want: sdpaFlash},
		{sm: 80, dt: f32, e: 64, want: sdpaEfficient},
		{sm: 80, dt: f32, e: 6, want: sdpaMath},
		// sm89 (RTX 4090): flash backward lacks head dims (192, 224] and
		// > 224 with dropout.
		{sm: 89, dt: f16, e: 208, want: sdpaFlash},
		{sm: 89, dt: f16, e: 208, grad: true, want: sdpaEfficient},
		{sm: 89, dt: f16, e: 196, grad: true, want: sdpaMath},
		{sm: 89, dt: f16, e: 192, grad: true, want: sdpaFlash},
		{sm: 89, dt: f16, e: 256, grad: true, want: sdpaFlash},
		{sm: 89, dt: f16, e: 256, grad: true, dropout: 0.25, want: sdpaEfficient},
		{sm: 89, dt: bf16, e: 64, mask: true, want: sdpaEfficient},
		// sm75 (T4): no flash, no cuDNN; efficient takes fp16 (8-aligned)
		// and fp32 with any head dim, not bf16.
		{sm: 75, dt: f16, e: 64, want: sdpaEfficient},
		{sm: 75, dt: f16, e: 36, want: sdpaMath},
		{sm: 75, dt: bf16, e: 64, want: sdpaMath},
		{sm: 75, dt: f32, e: 6, mask: true, want: sdpaEfficient},
		// sm61 (GTX 1080): efficient with any head dim for fp16/fp32.
		{sm: 61, dt: f16, e: 36, causal: true, want: sdpaEfficient},
		{sm: 61, dt: f32, e: 7, want: sdpaEfficient},
		{sm: 61, dt: bf16, e: 64, want: sdpaMath},
		// below sm50 / above sm121: math only.
		{sm: 37, dt: f16, e: 64, want: sdpaMath},
		{sm: 130, dt: f16, e: 64, want: sdpaMath},
	}
	for _, r := range rows {
		l, s := int64(64), int64(64)
		if r.lneS {
			s = 32
		}
		q := sdpaTestTensor(2, 4, l, r.e, r.dt, 0)
		k := sdpaTestTensor(2, 4, s, r.e, r.dt, 0)
		v := sdpaTestTensor(2, 4, s, r.e, r.dt, 0)
		var mask *Tensor
		if r.mask {
			mask = sdpaTestTensor(2, 4, l, s, r.dt, 0)
		}
		if got := sdpaChoose(r.sm, r.grad, q, k, v, mask, r.dropout, r.causal); got != r.want {
			t.Errorf("%+v: got backend %d, want %d", r, got, r.want)
		}
	}
}

// TestSDPAEfficientOffset: the storage-offset alignment applies from sm80
// only (check_data_ptr_alignment_mem_efficient).
func TestSDPAEfficientOffset(t *testing.T) {
	for _, tc := range []struct {
		sm   int
		want sdpaBackend
	}{{90, sdpaMath}, {80, sdpaMath}, {75, sdpaEfficient}} {
		q := sdpaTestTensor(1, 2, 16, 12, Float32, 2)
		k := sdpaTestTensor(1, 2, 16, 12, Float32, 0)
		if got := sdpaChoose(tc.sm, false, q, k, k, nil, 0, false); got != tc.want {
			t.Errorf("sm%d: got backend %d, want %d", tc.sm, got, tc.want)
		}
	}
}

// TestSDPAGemmAlign is minimum_gemm_alignment per architecture and dtype.
func TestSDPAGemmAlign(t *testing.T) {
	for _, tc := range []struct {
		sm   int
		dt   DType
		want int64
	}{{90, Float16, 8}, {80, Float32, 4}, {75, Float16, 8}, {75, Float32, 1}, {61, Float16, 1}, {61, Float32, 1}} {
		if got := sdpaGemmAlign(tc.sm, tc.dt); got != tc.want {
			t.Errorf("sm%d %s: got %d, want %d", tc.sm, tc.dt.Name(), got, tc.want)
		}
	}
}
