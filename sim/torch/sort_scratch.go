package torch

// sortScratch takes and frees the temporaries of sort_cuda_kernel for
// sorting t along dim into outputs with strides outStrides (values and
// indices share them). Slices of up to 4096 elements are sorted in place:
// fillSliceWithIndex's arange of the slice length. Longer slices go to
// launch_stable_sort_kernel on a copy of self with dim innermost (unless
// self is dense with a unit stride along dim) and on temporary values and
// indices laid out like that copy (unless the outputs already are), copied
// back afterwards; the cub temporaries depend on the number of slices
// (sortKernelScratch).
func (rt *Runtime) sortScratch(t *Tensor, dim int, outStrides []int64) error {
	if !t.device.IsCUDA() || t.Numel() == 0 {
		return nil
	}
	s := &scratch{rt: rt}
	defer s.release()
	nsort := t.shape[dim]
	if nsort <= smallSortMax {
		h, err := s.alloc(nsort*8, "sort arange", "fillSliceWithIndex's arange of the sorted dim (copied into the indices)")
		s.free(h)
		return err
	}
	n := t.Numel()
	selfStrides := t.strides
	if !(isNonOverlappingAndDense(t.shape, t.strides) && t.strides[dim] == 1) {
		selfStrides = denseStridesDimLast(t.shape, t.strides, dim)
		if _, err := s.alloc(n*t.dtype.Size(), "sort input copy", "self copied with the sorted dim innermost for the cub sort"); err != nil {
			return err
		}
	}
	if !sameShape(outStrides, selfStrides) {
		if _, err := s.alloc(n*t.dtype.Size(), "sort values", "temporary values laid out like the sorted copy, copied into the output"); err != nil {
			return err
		}
		if _, err := s.alloc(n*8, "sort indices", "temporary indices laid out like the sorted copy, copied into the output"); err != nil {
			return err
		}
	}
	return rt.sortKernelScratch(s, n, nsort, t.dtype.Size())
}

// sortKernelScratch is launch_stable_sort_kernel's temporaries for n keys
// of keySize bytes in slices of nsort (SortStable.cu): one slice or slices
// of a million elements or more sort one by one (an int64 arange of the
// slice, then cub SortPairs per slice); fewer than 128 slices sort as one
// array of (segment, index) pairs (two n·8 pair buffers, the sorted keys
// SortPairs discards, its temp storage, then SortKeys over the segment
// bits); otherwise a segmented sort (an n·8 index buffer and
// DeviceSegmentedRadixSort's temp storage).
func (rt *Runtime) sortKernelScratch(s *scratch, n, nsort, keySize int64) error {
	nseg := n / nsort
	switch {
	case nseg == 1 || nsort >= 1000000:
		ar, err := s.alloc(nsort*8, "sort slice indices", "an arange of the slice length (c10::DeviceArray) for each slice's sort")
		if err != nil {
			return err
		}
		for range nseg {
			tmp, err := s.alloc(cubSortTemp(nsort, keySize, 8, keySize*8), "cub sort temp storage", "cub::DeviceRadixSort::SortPairs temp storage of one slice")
			if err != nil {
				return err
			}
			s.free(tmp)
		}
		s.free(ar)
	case nseg < 128:
		is1, err := s.alloc(n*8, "sort segment pairs", "(segment, index) int2 pairs of every element")
		if err != nil {
			return err
		}
		is2, err := s.alloc(n*8, "sort segment pairs", "the pairs sorted by value")
		if err != nil {
			return err
		}
		keys, err := s.alloc(n*keySize, "sort keys", "the values sorted by radix_sort_pairs (discarded)")
		if err != nil {
			return err
		}
		tmp, err := s.alloc(cubSortTemp(n, keySize, 8, keySize*8), "cub sort temp storage", "cub::DeviceRadixSort::SortPairs temp storage over all elements")
		if err != nil {
			return err
		}
		s.free(tmp)
		s.free(keys)
		bits := int64(1)
		for 1<<bits < nseg {
			bits++
		}
		tmp, err = s.alloc(cubSortTemp(n, 8, 0, bits), "cub sort temp storage", "cub::DeviceRadixSort::SortKeys temp storage re-sorting the pairs by segment")
		if err != nil {
			return err
		}
		s.free(tmp)
		s.free(is2)
		s.free(is1)
	default:
		rev, err := s.alloc(n*8, "sort slice indices", "the index of every element within its slice")
		if err != nil {
			return err
		}
		tmp, err := s.alloc(cubSegmentedSortTemp(n, keySize, 8), "cub segmented sort temp storage", "cub::DeviceSegmentedRadixSort::SortPairs temp storage (alternate keys and values)")
		if err != nil {
			return err
		}
		s.free(tmp)
		s.free(rev)
	}
	return nil
}
