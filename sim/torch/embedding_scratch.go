package torch

// embeddingSortThreshold is the most indices embedding_dense_backward_cuda
// accumulates without sorting (embedding_backward_feature_kernel).
const embeddingSortThreshold = 3072

// embeddingRowsPerPartial is NROWS_PER_THREAD of EmbeddingBackwardKernel.cu:
// the rows one partial segment sums.
const embeddingRowsPerPartial = 10

// embeddingSortedBackward is the sorting path of PyTorch 2.11's
// embedding_dense_backward_cuda for more than embeddingSortThreshold
// indices (no scale_grad_by_freq), on a GPU: sorted_indices and
// orig_indices, an arange and cub's SortPairs temp storage over all the
// index bits (ATen passes no end_bit here), then embedding_backward_cuda_kernel:
// the zeroed gradient (returned), segment_offsets, num_of_segments,
// unique_by_key's key output and temp storage, partials_per_segment and its
// offsets sized by min(indices, rows), exclusive_sum's temp storage,
// num_of_partial_segments, then partial_segment_offset and
// grad_weight_per_segment sized by the bound indices/10 + min(indices, rows)
// (the kernel no longer syncs for the real count). Every temporary is freed,
// newest first, once the gradient is written (measured order,
// testdata/questions/q10_sort_scratch.*).
func (rt *Runtime) embeddingSortedBackward(idx *Tensor, ws []int64, dt DType, g *Tensor) (*Tensor, error) {
	s := &scratch{rt: rt}
	defer s.release()
	n := idx.Numel()
	isz := idx.dtype.Size()
	if _, err := s.alloc(n*isz, "sorted indices", "embedding backward's sorted indices"); err != nil {
		return nil, err
	}
	if _, err := s.alloc(n*isz, "original positions", "embedding backward's original positions of the sorted indices"); err != nil {
		return nil, err
	}
	rng, err := s.alloc(n*isz, "arange", "embedding backward's arange of positions")
	if err != nil {
		return nil, err
	}
	tmp, err := s.alloc(cubSortPairsTemp(n, isz, isz, isz*8), "cub sort temp storage", "cub::DeviceRadixSort::SortPairs temp storage over all index bits")
	if err != nil {
		return nil, err
	}
	s.free(tmp)
	s.free(rng)
	r, err := rt.empty("embedding_dense_backward", ws, nil, dt, g.device)
	if err != nil {
		return nil, err
	}
	if err := rt.embeddingSegmentScratch(s, n, isz, ws, g.dtype); err != nil {
		r.Release()
		return nil, err
	}
	return r, nil
}

// embeddingSegmentScratch takes embedding_backward_cuda_kernel's segment
// buffers into s for n indices of isz bytes into a weight of shape ws and
// a gradient of dtype gdt; cub's temp storage (and unique_by_key's key
// output) is freed after each call.
func (rt *Runtime) embeddingSegmentScratch(s *scratch, n, isz int64, ws []int64, gdt DType) error {
	rows, width := ws[0], ws[len(ws)-1]
	segments := min(n, rows)
	partials := n/embeddingRowsPerPartial + segments
	held := func(size int64, name, detail string) error {
		_, err := s.alloc(size, name, detail)
		return err
	}
	if err := held(n*isz, "segment offsets", "embedding_backward_cuda_kernel's segment_offsets"); err != nil {
		return err
	}
	if err := held(8, "segment count", "embedding_backward_cuda_kernel's num_of_segments"); err != nil {
		return err
	}
	keys, err := s.alloc(n*isz, "unique keys", "unique_by_key's discarded key output")
	if err != nil {
		return err
	}
	tmp, err := s.alloc(cubLookbackScanTemp(n, cubUniqueByKeyTile), "cub unique temp storage", "cub::DeviceSelect::UniqueByKey temp storage")
	if err != nil {
		return err
	}
	s.free(tmp)
	s.free(keys)
	if err := held(segments*isz, "partials per segment", "embedding_backward_cuda_kernel's partials_per_segment"); err != nil {
		return err
	}
	if err := held(segments*isz, "partial offsets", "embedding_backward_cuda_kernel's partials_per_segment_offset"); err != nil {
		return err
	}
	tmp, err = s.alloc(cubLookbackScanTemp(segments, cubExclusiveSumTile), "cub scan temp storage", "exclusive_sum's cub::DeviceScan temp storage")
	if err != nil {
		return err
	}
	s.free(tmp)
	if err := held(8, "partial count", "embedding_backward_cuda_kernel's num_of_partial_segments"); err != nil {
		return err
	}
	if err := held(partials*isz, "partial segment offsets", "embedding_backward_cuda_kernel's partial_segment_offset"); err != nil {
		return err
	}
	return held(partials*width*accType(gdt).Size(), "partial sums", "embedding_backward_cuda_kernel's grad_weight_per_segment")
}
