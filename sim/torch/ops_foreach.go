package torch

// foreachChunk is kChunkSize of ATen's multi_tensor_apply (MultiTensorApply.cuh).
const foreachChunk = 65536

// ForeachNorm is torch._foreach_norm(tensors, ord) (1 or 2). On the fast
// route (CUDA, one dtype and device, dense floating tensors, no autograd)
// foreach_tensor_norm_cuda_internal allocates a zeroed per-chunk buffer of
// ntensors * max_chunks opmath elements, then one 0-dim result per tensor,
// and frees the buffer on return. Otherwise it is a loop of
// linalg.vector_norm (foreach_tensor_norm_slow). Returns new references.
func (rt *Runtime) ForeachNorm(ts []*Tensor) ([]*Tensor, error) {
	if len(ts) == 0 {
		return nil, nil
	}
	if !foreachFastRoute(ts) || rt.needsGrad(ts...) {
		out := make([]*Tensor, 0, len(ts))
		for _, t := range ts {
			r, err := rt.Norm(t, nil, false)
			if err != nil {
				releaseAll(out)
				return nil, err
			}
			out = append(out, r)
		}
		return out, nil
	}
	var maxChunks int64
	for _, t := range ts {
		maxChunks = max(maxChunks, (t.Numel()+foreachChunk-1)/foreachChunk)
	}
	opmath := ts[0].dtype
	if opmath == Float16 || opmath == BFloat16 {
		opmath = Float32
	}
	scratch, err := rt.Factory("zeros", []int64{int64(len(ts)) * maxChunks}, opmath, ts[0].device, false)
	if err != nil {
		return nil, err
	}
	defer scratch.Release()
	out := make([]*Tensor, 0, len(ts))
	for range ts {
		r, err := rt.empty("_foreach_norm", nil, nil, ts[0].dtype, ts[0].device)
		if err != nil {
			releaseAll(out)
			return nil, err
		}
		out = append(out, r)
	}
	return out, nil
}

// foreachFastRoute is can_use_fast_route for one tensor list: CUDA, a
// single floating dtype and device, non-overlapping and dense.
func foreachFastRoute(ts []*Tensor) bool {
	for _, t := range ts {
		if t == nil || !t.device.IsCUDA() || t.device != ts[0].device || t.dtype != ts[0].dtype ||
			!t.dtype.IsFloating() || !t.IsContiguous() {
			return false
		}
	}
	return true
}
