package gpuexec

// f16/bf16 RNNs: cuDNN computes in f32 but stores every buffer between its
// kernels in the data type. The points where the executor rounds its f32
// scratch to the call's type the same way:
//   - F1, F2: the GEMM results x·W_ihᵀ (all steps) and h·W_hhᵀ (each step);
//   - F3: the activated gates (the reserve space), F4: c, F5: h (output);
//   - B1: the gate gradients, B2: dh after W_hh, B3: dc, B4: the layer
//     input's gradient.
//
// Chosen against PyTorch 2.11's output on an H200 (cuDNN 9.19,
// gpu/script/testdata/torch/rnn.py, "lstm-half"): without rounding 9
// printed gradients are outside f16's tolerance, with F3 alone 1, with
// every point none.
var rnnRoundPoints = map[string]bool{"F1": true, "F2": true, "F3": true, "F4": true, "F5": true,
	"B1": true, "B2": true, "B3": true, "B4": true}

// round rounds x (an f32 scratch window) to the call's type in place when
// the call is f16/bf16 (see rnnRoundPoints).
func (r *rnnRun) round(x operand, point string) error {
	if r.c.kt == r.c.st || !rnnRoundPoints[point] {
		return nil
	}
	h, ok := r.half[numel(x.shape)]
	if !ok {
		var err error
		if h, err = r.s.typed(r.c.kt, x.shape); err != nil {
			return err
		}
		if r.half == nil {
			r.half = map[int64]operand{}
		}
		r.half[numel(x.shape)] = h
	}
	h = reshaped(h, x.shape)
	if err := r.e.mapOp(r.k, "copy", h, []operand{x}, 0, 0); err != nil {
		return err
	}
	return r.e.mapOp(r.k, "copy", x, []operand{h}, 0, 0)
}
