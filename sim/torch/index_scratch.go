package torch

// Advanced-indexing temporaries: what PyTorch 2.11 takes from the caching
// allocator around aten::index, index_put_ and index_put_'s sorting path
// (IndexBackward0), besides their outputs. Sources: TensorAdvancedIndexing.cpp
// (make_info, _index_put_impl_, canDispatchToMaskedFill), IndexingUtils.h
// (expandTensors), cuda/Nonzero.cu (nonzero_cuda_out_impl), cuda/Indexing.cu
// (makeLinearIndex, index_put_with_sort_kernel) and ATen's cub wrappers
// (cub_scratch.go).

// isMask reports whether idx is a boolean (or byte) mask index.
func isMask(idx *Tensor) bool { return idx.dtype == Bool || idx.dtype == Uint8 }

// indexCount is the number of index positions idx yields: a mask's selected
// elements (see maskCount), else its element count.
func (rt *Runtime) indexCount(idx *Tensor) int64 {
	if isMask(idx) {
		return rt.maskCount(idx)
	}
	return idx.Numel()
}

// nonzeroScratch is mask.nonzero() on the GPU: the int num_nonzeros buffer
// (one int per 2^30-element chunk), then the [count, mask.dim()] int64
// output, then num_nonzeros freed. It returns the output's handle. cub's
// reduce and select temp storage, freed inside nonzero before the indexing
// output exists, is not modelled.
func (rt *Runtime) nonzeroScratch(s *scratch, mask *Tensor, count int64) (int, error) {
	chunks := int64(1)
	if n := mask.Numel(); n >= 1<<31-1 {
		chunks = (n + 1<<30 - 1) / (1 << 30)
	}
	num, err := s.alloc(4*chunks, "nonzero count", "nonzero's device count of true elements")
	if err != nil {
		return -1, err
	}
	out, err := s.alloc(count*int64(max(mask.Dim(), 1))*8, "nonzero indices", "nonzero's [count, dims] int64 indices of a boolean mask index")
	s.free(num)
	return out, err
}

// indexInfoScratch is make_info's index materialisation for an index on
// self (expandTensors with ensure_same_device, then int32 to int64): a
// mask becomes nonzero's indices (computed on its own device, copied to
// self's), an index on another device is copied to self's, an int32 index
// is widened. What it takes stays held until the indexing kernel ran.
func (rt *Runtime) indexInfoScratch(s *scratch, self, idx *Tensor) error {
	if !self.device.IsCUDA() {
		return nil
	}
	if isMask(idx) {
		count := rt.maskCount(idx)
		if idx.device == self.device {
			_, err := rt.nonzeroScratch(s, idx, count)
			return err
		}
		_, err := s.alloc(count*int64(max(idx.Dim(), 1))*8, "mask indices", "nonzero of a host mask index, copied to the device")
		return err
	}
	var moved = -1
	if idx.device != self.device {
		h, err := s.alloc(idx.Numel()*idx.dtype.Size(), "index copy", "an index tensor on another device, copied to the indexed tensor's")
		if err != nil {
			return err
		}
		moved = h
	}
	if idx.dtype == Int32 {
		if _, err := s.alloc(idx.Numel()*8, "int64 index", "an int32 index widened to int64"); err != nil {
			return err
		}
		s.free(moved)
	}
	return nil
}

// indexPutScratch holds index_put_'s temporaries (accumulate=False) for
// dst[idx] = value, value nil for a Python number: none when it dispatches
// to masked_fill_ (a number or one-element host value with a single mask
// index on dst's device); else a one-element host value copied to the
// device (a number in dst's dtype), then make_info's index temporaries.
func (rt *Runtime) indexPutScratch(s *scratch, dst, idx, value *Tensor) error {
	if !dst.device.IsCUDA() {
		return nil
	}
	hostScalar := value == nil || (value.device.Type == CPU && value.Numel() == 1)
	if hostScalar && isMask(idx) && idx.device == dst.device {
		return nil
	}
	switch {
	case value == nil:
		if _, err := s.alloc(dst.dtype.Size(), "index_put_ value", "the assigned number as a device scalar"); err != nil {
			return err
		}
	case value.device != dst.device && value.Numel() == 1 && value.Dim() == 0:
		if _, err := s.alloc(value.dtype.Size(), "index_put_ value", "the assigned host scalar copied to the device"); err != nil {
			return err
		}
	}
	return rt.indexInfoScratch(s, dst, idx)
}

// indexPutSortScratch holds and frees the temporaries of
// index_put_with_sort_kernel for self[idx along dim d] += value
// (IndexBackward0: accumulate, unsafe): makeLinearIndex (nonzero of a
// mask; per indexed dim the remainder and the stride product, or a host
// index's device copy), value made contiguous, then the sorted and original
// positions, arange and cub's sort temp storage. It runs between the
// zero-filled gradient's allocation and its kernel; all is freed on return.
func (rt *Runtime) indexPutSortScratch(self *Tensor, d int, idx, value *Tensor) error {
	if !self.device.IsCUDA() {
		return nil
	}
	s := &scratch{rt: rt}
	defer s.release()
	n := rt.indexCount(idx)
	dims := 1
	var held = -1 // makeLinearIndex's expanded indices (nonzero or int64 copy)
	onDevice := idx.device == self.device
	if isMask(idx) {
		dims = max(idx.Dim(), 1)
		if onDevice {
			h, err := rt.nonzeroScratch(s, idx, n)
			if err != nil {
				return err
			}
			held = h
		}
	} else if idx.dtype == Int32 && onDevice {
		h, err := s.alloc(n*8, "int64 index", "an int32 index widened to int64")
		if err != nil {
			return err
		}
		held = h
	}
	linear := -1
	for j := 0; j < dims; j++ {
		var part int
		if onDevice {
			rem, err := s.alloc(n*8, "index remainder", "index.remainder(size) in computeLinearIndex")
			if err != nil {
				return err
			}
			part, err = s.alloc(n*8, "linear index", "index times stride in computeLinearIndex")
			s.free(rem)
			if err != nil {
				return err
			}
		} else {
			var err error
			part, err = s.alloc(n*8, "linear index", "a host index's linear index copied to the device")
			if err != nil {
				return err
			}
		}
		if j == 0 {
			linear = part
		} else {
			s.free(part) // added into the linear index in place
		}
	}
	s.free(held)
	contig := -1
	if !value.IsContiguous() {
		h, err := s.alloc(value.Numel()*value.dtype.Size(), "contiguous values", "the expanded gradient made contiguous for the sorted accumulate")
		if err != nil {
			return err
		}
		contig = h
	}
	slice := int64(1)
	for _, sz := range self.shape[min(d+dims, len(self.shape)):] {
		slice *= sz
	}
	if n > 0 && slice > 0 {
		sorted, err := s.alloc(n*8, "sorted indices", "index_put_with_sort's sorted linear indices")
		if err != nil {
			return err
		}
		orig, err := s.alloc(n*8, "original positions", "index_put_with_sort's original positions")
		if err != nil {
			return err
		}
		rng, err := s.alloc(n*8, "arange", "index_put_with_sort's arange of positions")
		if err != nil {
			return err
		}
		// The keys are linear indices into the contiguous gradient, so
		// get_num_bits((numel-1)/sliceSize) bits of them are sorted.
		bits := cubKeyBits((self.Numel() - 1) / slice)
		tmp, err := s.alloc(cubSortPairsTemp(n, 8, 8, bits), "cub sort temp storage", "cub::DeviceRadixSort::SortPairs temp storage (onesweep histograms, lookback, alternate keys and values)")
		if err != nil {
			return err
		}
		s.free(tmp)
		s.free(rng)
		s.free(orig)
		s.free(sorted)
	}
	// Locals go in reverse declaration order: expandedValue, then
	// linearIndex (measured, q10_sort_scratch).
	s.free(contig)
	s.free(linear)
	return nil
}

// indexBackwardScratch models IndexBackward0's sorted accumulate into the
// zero-filled gradient r: the saved index is unpacked (as PyTorch does)
// and indexPutSortScratch runs with the incoming gradient g.
func (rt *Runtime) indexBackwardScratch(n *Node, r *Tensor, d int, g *Tensor) error {
	if n == nil || len(n.saved) == 0 {
		return nil
	}
	idx, err := n.unpack(0)
	if err != nil || idx == nil {
		return err
	}
	defer idx.Release()
	return rt.indexPutSortScratch(r, d, idx, g)
}
