package torch

// Executor kinds of advanced indexing with several index tensors in one
// key (index_multi.go). In lists the indexed tensor first, then the index
// tensors (int64 or int32, or bool masks, on the tensor's device or the
// host), in the order of the dims they index; Ints lists, for each index
// tensor, the first dim of the indexed tensor it indexes (a mask covers
// as many dims as it has). The executor broadcasts the indices together
// and places the indexed dims as PyTorch does: in place when they are
// adjacent, first otherwise.
const (
	// ExecIndexN is aten::index with several indices: Out = the result,
	// In = [t, idx...], Ints = [dim...].
	ExecIndexN ExecKind = "index_n"
	// ExecIndexNBack is its backward (index_put_ with accumulate into
	// zeros): Out = grad_t (zeroed, then the gradient added at the
	// indices), In = [grad, idx...], Ints = [dim...].
	ExecIndexNBack ExecKind = "index_n_backward"
	// ExecIndexNPut is index_put_ with several indices into Out[0] = dst:
	// In = [dst, idx..., values?] (values broadcast to the indexed shape;
	// without them the number Scalars[0]), Ints = [accumulate, has values,
	// dim...]; has values = 2: no values, the number is also the last of
	// Ints, exactly (a Python integer beyond 2^53).
	ExecIndexNPut ExecKind = "index_n_put"
)
