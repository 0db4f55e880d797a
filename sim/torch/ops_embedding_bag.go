package torch

// torch.embedding_bag (F.embedding_bag, nn.EmbeddingBag) on CUDA, PyTorch
// 2.11's EmbeddingBag.cu. The forward allocates bag_size (offsets-shaped),
// offset2bag (one per index), the output [bags, D] and, in max mode,
// max_indices [bags, D] (an empty tensor otherwise), in that order.
// EmbeddingBagBackward0 saves the indices, offsets and the three auxiliary
// results. Its backward allocates per_sample_weights' gradient first (one
// per index), then the weight's, from a contiguous gradient (copied if it
// is not, e.g. expanded by a sum): max mode zeros [rows, D] and scatters;
// sum/mean ALWAYS sort the indices (no small-input path, unlike
// nn.Embedding) and run embedding_backward_cuda_kernel, whose buffers are
// embedding_scratch.go's (cub's SortPairs temp over all 64 index bits
// included). Measured in q22 (embedding_bag items).

// Embedding bag modes (torch.embedding_bag's mode argument).
const (
	BagSum  = 0
	BagMean = 1
	BagMax  = 2
)

// EmbeddingBag is torch.embedding_bag(weight, indices, offsets, ...,
// mode, sparse, per_sample_weights, include_last_offset, padding_idx):
// output, offset2bag, bag_size, max_indices.
func (rt *Runtime) EmbeddingBag(w, idx, offsets, psw *Tensor, mode int64, sparse, includeLast bool) (out, offset2bag, bagSize, maxIdx *Tensor, err error) {
	if sparse {
		return nil, nil, nil, nil, Errorf(NotImplementedError, "embedding_bag(sparse=True): sparse gradients are not simulated")
	}
	if mode < BagSum || mode > BagMax {
		return nil, nil, nil, nil, Errorf(RuntimeError, "embedding_bag: unknown mode %d", mode)
	}
	for _, c := range []struct {
		t    *Tensor
		name string
		pos  int
	}{{idx, "indices", 2}, {offsets, "offsets", 3}} {
		if c.t.dtype != Int64 && c.t.dtype != Int32 {
			return nil, nil, nil, nil, Errorf(RuntimeError, "Expected tensor for argument #%d '%s' to have one of the following scalar types: Long, Int; but got %s instead (while checking arguments for embedding_bag)", c.pos, c.name, c.t.dtype.cppName())
		}
		if c.t.Dim() != 1 {
			return nil, nil, nil, nil, Errorf(RuntimeError, "%s has to be a 1D Tensor, but got Tensor of dimension %d", c.name, c.t.Dim())
		}
	}
	if w.Dim() != 2 {
		return nil, nil, nil, nil, Errorf(RuntimeError, "weight has to be a 2D Tensor, but got Tensor of dimension %d", w.Dim())
	}
	if psw != nil && mode != BagSum {
		return nil, nil, nil, nil, Errorf(RuntimeError, "embedding_bag: per_sample_weights was not None. per_sample_weights is only supported for mode='sum' (got mode='%s'). Please open a feature request on GitHub.", bagModeName(mode))
	}
	bags := offsets.shape[0]
	if includeLast {
		if bags < 1 {
			return nil, nil, nil, nil, Errorf(RuntimeError, "include_last_offset: number of offset should be at least 1")
		}
		bags--
	}
	const op = "_embedding_bag"
	var made []*Tensor
	fail := func(err error) (*Tensor, *Tensor, *Tensor, *Tensor, error) {
		releaseAll(made)
		return nil, nil, nil, nil, err
	}
	alloc := func(shape []int64, dt DType) (*Tensor, error) {
		t, err := rt.empty(op, shape, nil, dt, w.device)
		if err == nil {
			made = append(made, t)
		}
		return t, err
	}
	if bagSize, err = alloc(offsets.shape, idx.dtype); err != nil {
		return fail(err)
	}
	if offset2bag, err = alloc(idx.shape, idx.dtype); err != nil {
		return fail(err)
	}
	width := w.shape[1]
	if out, err = alloc([]int64{bags, width}, w.dtype); err != nil {
		return fail(err)
	}
	maxShape := []int64{0}
	if mode == BagMax {
		maxShape = []int64{bags, width}
	}
	if maxIdx, err = alloc(maxShape, idx.dtype); err != nil {
		return fail(err)
	}
	n := rt.record("EmbeddingBagBackward0", w, psw)
	if n != nil {
		for _, t := range []*Tensor{idx, offsets, psw} {
			n.save(t, false)
		}
		for _, t := range []*Tensor{offset2bag, bagSize, maxIdx} {
			n.save(t, true)
		}
	}
	ws, wdt := cloneShape(w.shape), w.dtype
	n.finish(func(n *Node, g []*Tensor) ([]*Tensor, error) {
		return rt.embeddingBagBackward(n, g[0], ws, wdt, mode)
	}, out)
	return out, offset2bag, bagSize, maxIdx, nil
}

// embeddingBagBackward is _embedding_bag_per_sample_weights_backward and
// _embedding_bag_dense_backward (CUDA).
func (rt *Runtime) embeddingBagBackward(n *Node, g *Tensor, ws []int64, wdt DType, mode int64) ([]*Tensor, error) {
	res := make(gradSlot, 2)
	idx, err := n.unpack(0)
	if err != nil {
		return nil, err
	}
	defer idx.Release()
	if n.needsInput(1) {
		if res[1], err = rt.empty("_embedding_bag_per_sample_weights_backward", idx.shape, nil, g.dtype, g.device); err != nil {
			return nil, err
		}
	}
	if !n.needsInput(0) {
		return res, nil
	}
	// _embedding_bag_dense_backward_cuda: grad_.contiguous() (an expanded
	// gradient, e.g. of a sum, is copied), alive until the weight's
	// gradient is done
	gc, err := rt.contiguousInput(g)
	if err != nil {
		return res.fail(err)
	}
	defer gc.Release()
	if mode == BagMax {
		res[0], err = rt.empty("_embedding_bag_dense_backward", ws, nil, wdt, g.device)
	} else {
		res[0], err = rt.embeddingSortedBackward(idx, ws, wdt, g)
	}
	if err != nil {
		return res.fail(err)
	}
	return res, nil
}

// bagModeName is the Python name of an embedding_bag mode.
func bagModeName(mode int64) string {
	return [...]string{"sum", "mean", "max"}[mode]
}
