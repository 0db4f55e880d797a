package torch

import (
	"errors"

	"github.com/gpumem/playground/sim/trace"
)

// RNNFlattenWeights is torch._cudnn_rnn_flatten_weight, which
// RNNBase.flatten_parameters calls on every _apply (.cuda(), .to(...)):
// a zeroed buffer the size of all weights is allocated, the weights are
// copied into it, and each weight is set_ to its slice (cuDNN's layout),
// which frees its old storage right away (measured, q13: the buffer
// comes after the moved parameters, their storages are freed in order).
// Weights that are not all CUDA tensors of one dtype are left as they are
// (flatten_parameters returns early). GPU values: the buffer is zeroed and
// each weight's values are copied into its slice before its old storage
// goes (a weight whose values were not computed leaves the buffer not
// computed).
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
	if rt.exec != nil {
		rt.compute1(ExecFill, buf, nil, 0)
	}
	offs := rnnWeightOffsets(shapes)
	for i, w := range weights {
		before := execTensor(w)
		buf.storage.retain()
		old := w.storage
		w.storage = buf.storage
		w.strides = contiguousStrides(w.shape)
		w.offset = offs[i]
		if rt.exec != nil {
			rt.copyValues(execTensor(w), before)
		}
		old.release()
	}
	return nil
}

// copyValues copies src's values into dst (same shape) on the executor.
func (rt *Runtime) copyValues(dst, src ExecTensor) {
	op := &ExecOp{Kind: ExecCopy, Out: []ExecTensor{dst}, In: []ExecTensor{src}}
	if err := rt.exec.Exec(op); err != nil && !errors.Is(err, ErrNotComputed) && rt.execErr == nil {
		rt.execErr = err
	}
}
