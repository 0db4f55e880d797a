package torch

// reduceInputCast models make_reduction_from_out_ty (ReduceOps.cpp, PyTorch
// 2.11): a CUDA sum whose output dtype differs from the input's runs on
// self.to(out_dtype), a converted copy allocated after the result and freed
// when the kernel has run (bool or int32 summed into int64, sum(dtype=)).
// Half and bfloat16 inputs summed into float32 are read as they are (the
// mixed-precision special case). Measured: q19_transformer_losses (the
// label-smoothing mean's (~ignore_mask).sum(): an int64 copy of the mask).
// It returns nil when no copy is made.
func (rt *Runtime) reduceInputCast(op string, t *Tensor, out DType) (*Tensor, error) {
	if !t.device.IsCUDA() || t.dtype == out {
		return nil, nil
	}
	if (t.dtype == Float16 || t.dtype == BFloat16) && out == Float32 {
		return nil, nil
	}
	return rt.empty(op, t.shape, nil, out, t.device)
}
