package torch

// torch.topk / Tensor.topk (PyTorch 2.11, CUDA; q16 measured on an H100):
// the meta allocates contiguous values then int64 indices with dim sized
// k. On CUDA topk_out_cuda never falls back to a full sort: it runs the
// radix selection on self.contiguous() (a copy when self is not
// contiguous) — one block per slice (sbtopk, no temporaries) or, for long
// slices, several (mbtopk, topkMultiBlockScratch) — and, when sorted and
// k > 4096, sorts the k results out of place (topkSortScratch). k == 0
// and empty inputs run no kernel. TopkBackward0 saves the indices
// (value_selecting_reduction_backward: zeros like self).

// Topk is torch.topk(t, k, dim, largest, sorted) → (values, indices).
func (rt *Runtime) Topk(t *Tensor, k, dim int64, largest, sorted bool) (*Tensor, *Tensor, error) {
	d := 0
	if len(t.shape) > 0 {
		w, err := wrapDim(dim, len(t.shape))
		if err != nil {
			return nil, nil, err
		}
		d = w
	} else if dim < -1 || dim > 0 {
		if _, err := wrapDim(dim, 1); err != nil {
			return nil, nil, err
		}
	}
	slice := int64(1)
	if len(t.shape) > 0 {
		slice = t.shape[d]
	}
	if k < 0 || k > slice {
		return nil, nil, Errorf(RuntimeError, "selected index k out of range")
	}
	shape := cloneShape(t.shape)
	if len(shape) > 0 {
		shape[d] = k
	}
	vals, err := rt.empty("topk", shape, nil, t.dtype, t.device)
	if err != nil {
		return nil, nil, err
	}
	idx, err := rt.empty("topk", shape, nil, Int64, t.device)
	if err != nil {
		vals.Release()
		return nil, nil, err
	}
	if t.device.IsCUDA() && k > 0 && t.Numel() > 0 {
		err := rt.topkScratch(t, d, slice, k)
		if err == nil && sorted && k > smallSortMax && vals.Numel() > 1 {
			err = rt.topkSortScratch(vals, d)
		}
		if err != nil {
			vals.Release()
			idx.Release()
			return nil, nil, err
		}
	}
	rt.recordValueSelecting("TopkBackward0", t, vals, idx)
	return vals, idx, nil
}

// topkScratch is launch_gather_topk_kernel's temporaries: the contiguous
// copy of a non-contiguous input, and mbtopk's buffers when
// should_use_multiblock picks it.
func (rt *Runtime) topkScratch(t *Tensor, dim int, slice, k int64) error {
	s := &scratch{rt: rt}
	defer s.release()
	if !t.IsContiguous() {
		if _, err := s.alloc(t.Numel()*t.dtype.Size(), "topk input copy", "self.contiguous() for the radix selection"); err != nil {
			return err
		}
	}
	slices := t.Numel() / slice
	if !topkMultiBlock(slices, slice) {
		return nil
	}
	return topkMultiBlockScratch(s, t.dtype, slices, slice)
}

// topkMultiBlock is should_use_multiblock (the CUB scan-by-key branch).
func topkMultiBlock(slices, size int64) bool {
	switch {
	case slices <= 20:
		return size >= 20000
	case slices <= 40:
		return size >= 10000
	case slices <= 80:
		return size >= 8000
	case slices < 200:
		return size >= 5000
	case slices < 800:
		return size >= 3000
	case slices <= 4000:
		return size >= 800
	}
	return size >= 400
}

// topkMultiBlockScratch is mbtopk::launch's buffers, in order: the k-th
// values (one element per slice), the k to find and the desired radix
// prefix (two uint32 / two radix words per slice), the per-block digit
// counts (256 shorts per block), a per-slice digit histogram (256 uint32),
// the within-k and k-th counts (one uint32 per block), and the temp
// storage of the two inclusive_sum_by_key scans; freed newest first.
// Blocks per slice: items per thread = ceil(elements / (132 SMs × 6 blocks
// × 256 threads)) clamped to 4..64 (get_items_per_thread on an H100/H200).
func topkMultiBlockScratch(s *scratch, dt DType, slices, size int64) error {
	const blockThreads = 256
	const perWave = h100SMs * 6 * blockThreads
	items := min(max((slices*size+perWave-1)/perWave, 4), 64)
	perBlock := items * blockThreads
	blocks := slices * ((size + perBlock - 1) / perBlock)
	radix := int64(4)
	if dt.Size() == 8 {
		radix = 8
	}
	bufs := []struct {
		n    int64
		name string
	}{
		{slices * dt.Size(), "topk kth values"},
		{2 * slices * 4, "topk ks to find"},
		{2 * slices * radix, "topk desired prefixes"},
		{blocks * 256 * 2, "topk block digit counts"},
		{slices * 256 * 4, "topk slice digit counts"},
		{blocks * 4, "topk within-k counts"},
		{blocks * 4, "topk k-th counts"},
	}
	for _, b := range bufs {
		if _, err := s.alloc(b.n, b.name, "mbtopk::launch's multi-block radix selection buffer"); err != nil {
			return err
		}
	}
	for range 2 {
		h, err := s.alloc(cubLookbackScanTemp(blocks, cubUniqueByKeyTile), "cub scan-by-key temp storage", "inclusive_sum_by_key of the block counts per slice")
		if err != nil {
			return err
		}
		s.free(h)
	}
	return nil
}

// topkSortScratch is topk_out_cuda's sort of k > 4096 results: sorted
// indices and values like the outputs, sort's temporaries on the values,
// then indices.gather(dim, sortedIndices) (copied into the indices and
// freed), then the sorted values and indices freed.
func (rt *Runtime) topkSortScratch(vals *Tensor, dim int) error {
	s := &scratch{rt: rt}
	defer s.release()
	n := vals.Numel()
	if _, err := s.alloc(n*8, "topk sorted indices", "empty_like(indices) for sorting the selected values"); err != nil {
		return err
	}
	if _, err := s.alloc(n*vals.dtype.Size(), "topk sorted values", "empty_like(values) for sorting the selected values"); err != nil {
		return err
	}
	if err := rt.sortScratch(vals, dim, vals.strides); err != nil {
		return err
	}
	g, err := s.alloc(n*8, "topk gathered indices", "indices.gather(dim, sortedIndices), copied into the indices")
	s.free(g)
	return err
}
