package torch

import "errors"

// Executor kinds of the neural-network ops (layer_norm, embedding and
// indexing, cat/stack, attention). Kinds whose operands may be absent
// (an optional weight, a gradient nobody needs) end Ints with two masks,
// appended by computeOpt: bit i of the next-to-last says that output i is
// present, bit i of the last that input i is; Out and In hold only the
// present operands, in order.
const (
	// ExecLayerNorm is native_layer_norm: Out = [y, mean, rstd] (mean and
	// rstd of x.shape[:-k] + [1]*k), In = [x, weight?, bias?], Ints[0] = k
	// (normalized dims), Scalars[0] = eps; masks.
	ExecLayerNorm ExecKind = "layer_norm"
	// ExecLayerNormBack is native_layer_norm_backward: Out = [grad_x?,
	// grad_weight?, grad_bias?], In = [grad, x, mean, rstd, weight?],
	// Ints[0] = k; masks.
	ExecLayerNormBack ExecKind = "layer_norm_backward"
	// ExecIndex is t[idx] along dim Ints[0] (aten::index with one index
	// tensor, index_select, embedding with d = 0): Out = t.shape[:d] +
	// idx.shape + t.shape[d+1:], In = [t, idx (int64)]. A bool idx is a
	// mask over t's dims d..d+k-1 (t[mask]): Out = t.shape[:d] + [count of
	// true] + t.shape[d+k:].
	ExecIndex ExecKind = "index"
	// ExecIndexBack is the backward of ExecIndex (index_put_ with
	// accumulate into zeros, embedding_dense_backward): Out = grad_t (zeroed
	// then accumulated), In = [grad, idx], Ints[0] = d, Ints[1] = an index
	// value that contributes nothing (embedding's padding_idx) or
	// NoSkipIndex.
	ExecIndexBack ExecKind = "index_backward"
	// ExecIndexPut is index_put_ (t[idx] = v, t[mask] = v) into Out[0] =
	// dst (the indexed tensor or its basic-indexed view): In = [dst, idx
	// (int64, or a bool mask as ExecIndex), values?] (values broadcast to
	// the indexed shape; without them the number Scalars[0]), Ints[0] = d,
	// Ints[1] = accumulate (1: add, as index_put_(accumulate=True)),
	// Ints[2] if present = the number exactly (beyond 2^53, into integers).
	ExecIndexPut ExecKind = "index_put"
	// ExecCat is torch.cat along Ints[0] (Ints[1] = 1: torch.stack, a new
	// dimension Ints[0]): Out = the result, In = the tensors.
	ExecCat ExecKind = "cat"
	// ExecSDPA is scaled_dot_product_attention as the math backend
	// computes it: Out = dropout(softmax(Q·Kᵀ·scale + mask))·V, In = [q, k,
	// v, mask?] (a float mask added; bool masks are not computed), Ints[0]
	// = is_causal, Scalars[0] = scale; masks. With dropout, Ints = [causal,
	// 1, 0, 0; masks] and Scalars[1] = dropout_p: the executor draws the
	// keep mask from its generator and writes the generator's seed and
	// offset it used into Ints[2], Ints[3] (PyTorch's philox seed/offset).
	ExecSDPA ExecKind = "sdpa"
	// ExecSDPABack is its backward: Out = [grad_q?, grad_k?, grad_v?], In =
	// [grad, q, k, v, mask?], Ints[0] = is_causal, Scalars[0] = scale;
	// masks. With dropout, Ints[1..3] = 1, seed, offset as the forward
	// reported them and Scalars[1] = dropout_p: the same keep mask.
	ExecSDPABack ExecKind = "sdpa_backward"
)

// NoSkipIndex is ExecIndexBack's Ints[1] when every index contributes.
const NoSkipIndex = -1 << 63

// computeOpt is compute for kinds with optional operands: nil outputs and
// inputs are left out and their presence is appended to ints as two
// masks (see ExecLayerNorm).
func (rt *Runtime) computeOpt(kind ExecKind, outs, ins []*Tensor, scalars []float64, ints []int64) *ExecOp {
	var om, im int64
	var po, pi []*Tensor
	for i, t := range outs {
		if t != nil {
			om |= 1 << i
			po = append(po, t)
		}
	}
	for i, t := range ins {
		if t != nil {
			im |= 1 << i
			pi = append(pi, t)
		}
	}
	if len(po) == 0 {
		return nil
	}
	return rt.compute(kind, po, pi, scalars, append(ints, om, im))
}

// savedForValues unpacks saved tensors of n to compute a backward's values
// (GPU runs only: the simulator's backwards do not unpack what they do
// not need for memory). ok is false when one is unavailable; release
// gives them back.
func (rt *Runtime) savedForValues(n *Node, idx ...int) (ts []*Tensor, release func(), ok bool) {
	release = func() {
		for _, t := range ts {
			if t != nil {
				t.Release()
			}
		}
	}
	for _, i := range idx {
		if i >= len(n.saved) {
			release()
			return nil, func() {}, false
		}
		t, err := n.unpack(i)
		if err != nil {
			release()
			return nil, func() {}, false
		}
		ts = append(ts, t)
	}
	return ts, release, true
}

// Convolution, pooling and batch-norm kinds. Spatial operands are 2-d
// ([N, C, H, W] or unbatched [C, H, W]); conv1d's [N, C, L] is computed as
// a 2-d convolution of height 1, as at::convolution runs it.
const (
	// ExecConv is convolution: Out = [y], In = [x, w, b?], Ints = stride,
	// padding, dilation (one value per spatial dim each), groups; masks.
	ExecConv ExecKind = "conv"
	// ExecConvBack is convolution_backward: Out = [grad_x?, grad_w?,
	// grad_b?], In = [grad, x, w], Ints as ExecConv; masks.
	ExecConvBack ExecKind = "conv_backward"
	// ExecMaxPool is max_pool2d_with_indices: Out = [y, indices (int64,
	// h·W + w in the input plane)], In = [x], Ints = kernel, stride,
	// padding, dilation (two each).
	ExecMaxPool ExecKind = "max_pool2d"
	// ExecMaxPoolBack scatters grad at the saved indices: Out = [grad_x],
	// In = [grad, indices].
	ExecMaxPoolBack ExecKind = "max_pool2d_backward"
	// ExecAvgPool is avg_pool2d (Ints = kernel, stride, padding (two each),
	// ceil_mode, count_include_pad, divisor_override or 0) or, with Ints
	// empty, adaptive_avg_pool2d: Out = [y], In = [x].
	ExecAvgPool ExecKind = "avg_pool2d"
	// ExecAvgPoolBack is its backward: Out = [grad_x], In = [grad], Ints
	// as ExecAvgPool.
	ExecAvgPoolBack ExecKind = "avg_pool2d_backward"
	// ExecBatchNorm is batch_norm over dim 1: Out = [y, save_mean?,
	// save_invstd?, running_mean?, running_var?] (the running statistics
	// updated in place when training), In = [x, weight?, bias?,
	// running_mean?, running_var?], Ints[0] = training, Scalars = [eps,
	// momentum]; masks.
	ExecBatchNorm ExecKind = "batch_norm"
	// ExecBatchNormBack is its backward: Out = [grad_x?, grad_w?,
	// grad_b?], In = [grad, x, weight?, running_mean?, running_var?,
	// save_mean?, save_invstd?], Ints[0] = training (batch statistics from
	// save_mean/save_invstd, else the running ones), Scalars[0] = eps;
	// masks.
	ExecBatchNormBack ExecKind = "batch_norm_backward"
)

// convInts is ExecConv's Ints before the masks.
func convInts(stride, pad, dil []int64, groups int64) []int64 {
	ints := append(append(append([]int64{}, stride...), pad...), dil...)
	return append(ints, groups)
}

// copyWindowFrom is the narrowing copy of a padding backward: dst (fresh,
// contiguous) = g's window of dst's shape at offset 0.
func (rt *Runtime) copyWindowFrom(dst, g *Tensor) {
	win := execTensor(g)
	win.Shape = dst.shape
	op := &ExecOp{Kind: ExecCopy, Out: []ExecTensor{execTensor(dst)}, In: []ExecTensor{win}}
	if err := rt.exec.Exec(op); err != nil && !errors.Is(err, ErrNotComputed) && rt.execErr == nil {
		rt.execErr = err
	}
}
