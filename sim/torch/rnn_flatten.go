package torch

import "github.com/gpumem/playground/sim/trace"

// RNNFlattenWeights is torch._cudnn_rnn_flatten_weight, which
// RNNBase.flatten_parameters calls on every _apply (.cuda(), .to(...)):
// a zeroed buffer the size of all weights is allocated, the weights are
// copied into it, and each weight is set_ to its slice (cuDNN's layout),
// which frees its old storage right away (measured, q13: the buffer
// comes after the moved parameters, their storages are freed in order).
// Weights that are not all CUDA tensors of one dtype are left as they are
// (flatten_parameters returns early). GPU values of the weights are not
// carried over (marked not computed).
func (rt *Runtime) RNNFlattenWeights(weights []*Tensor) error {
	if len(weights) == 0 {
		return nil
	}
	dt, dev := weights[0].dtype, weights[0].device
	var total int64
	shapes := make([][]int64, len(weights))
	for i, w := range weights {
		if w == nil || w.dtype != dt || w.device != dev || !dev.IsCUDA() {
			return nil
		}
		total += w.Numel()
		shapes[i] = w.shape
	}
	buf, err := rt.empty("_cudnn_rnn_flatten_weight", []int64{total}, nil, dt, dev)
	if err != nil {
		return err
	}
	defer buf.Release()
	name := weights[0].name
	if name != "" && buf.storage.block != nil {
		buf.storage.relabel(trace.Label{Kind: trace.LabelParameter, Name: name + " … (flattened RNN weights)",
			Detail: "one buffer for all weights of the RNN (flatten_parameters)"})
	}
	offs := rnnWeightOffsets(shapes)
	for i, w := range weights {
		buf.storage.retain()
		old := w.storage
		w.storage = buf.storage
		w.strides = contiguousStrides(w.shape)
		w.offset = offs[i]
		old.release()
		if rt.exec != nil {
			rt.markNotComputed(w)
		}
	}
	return nil
}
