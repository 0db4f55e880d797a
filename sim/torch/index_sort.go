package torch

// linearSortScratch takes and frees the temporaries of CUDA's
// index_put_with_sort_kernel for self[advs] += value (index_put_ with
// accumulate; IndexBackward0 with unsafe, checkRange false), measured on an
// H200 (q027, q038, q039): self made contiguous if it is not; then
// makeLinearIndex: a device mask's nonzero and an int32 index on the device
// widened (at its own shape), held until the linear index is done; per
// indexed dim (in dim order) on the device, with checkRange, index.max()
// and index.min() (each an 8-byte result and a 1-byte reduce temporary,
// read back), then index.remainder(size) and its product with the stride
// at the broadcast shape (the remainder freed; the second and later
// products added into the first in place and freed), or a host index's
// product copied to the device; then the value expanded to [before,
// broadcast index, after] made contiguous, the permuted self copied
// contiguous when the indexed dims were transposed to the front, the
// sorted and original positions, arange and cub's sort temp storage.
func (rt *Runtime) linearSortScratch(self *Tensor, advs []AdvIndex, value sortValue, checkRange bool) error {
	if !self.device.IsCUDA() {
		return nil
	}
	p, err := rt.planIndex(self, advs)
	if err != nil {
		return err
	}
	s := &scratch{rt: rt}
	defer s.release()
	if !self.IsContiguous() {
		if _, err := s.alloc(self.Numel()*self.dtype.Size(), "contiguous self", "index_put_with_sort works on a contiguous copy of self"); err != nil {
			return err
		}
	}
	var held []int
	for _, a := range advs {
		idx := a.Idx
		onDevice := idx.device == self.device
		switch {
		case isMask(idx) && onDevice:
			h, err := rt.nonzeroScratch(s, idx, rt.maskCount(idx))
			if err != nil {
				return err
			}
			held = append(held, h)
		case idx.dtype == Int32 && onDevice:
			h, err := s.alloc(idx.Numel()*8, "int64 index", "an int32 index widened to int64")
			if err != nil {
				return err
			}
			held = append(held, h)
		}
	}
	n := numel(p.bshape)
	linear := -1
	for k, e := range p.entries {
		var part int
		if e.onDevice {
			if checkRange && n > 0 {
				for _, what := range []string{"max", "min"} {
					r, err := s.alloc(8, "index "+what, "index."+what+"() checking the index range, read back")
					if err != nil {
						return err
					}
					t, err := s.alloc(1, "reduce temp storage", "the reduction's 1-byte temporary")
					if err != nil {
						return err
					}
					s.free(t)
					s.free(r)
				}
			}
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
			part, err = s.alloc(n*8, "linear index", "a host index's linear index copied to the device")
			if err != nil {
				return err
			}
		}
		if k == 0 {
			linear = part
		} else {
			s.free(part) // added into the linear index in place
		}
	}
	for _, h := range held {
		s.free(h)
	}
	contig := -1
	if total := p.before * n * p.after; value.numel < total {
		contig, err = s.alloc(total*value.size, "contiguous values", "the values expanded to the indexed shape made contiguous for the sorted accumulate")
	} else if !value.contiguous {
		contig, err = s.alloc(value.numel*value.size, "contiguous values", "the expanded gradient made contiguous for the sorted accumulate")
	}
	if err != nil {
		return err
	}
	if n > 0 && p.after > 0 {
		src := -1
		if !p.adjacent && p.permutedNotDense {
			if src, err = s.alloc(self.Numel()*self.dtype.Size(), "permuted self", "self with the indexed dims in front, made contiguous (copied back after the accumulate)"); err != nil {
				return err
			}
		}
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
		// The keys are linear indices into the contiguous self divided by
		// the slice size: get_num_bits(largestIndex / sliceSize) bits.
		bits := cubKeyBits((self.Numel() - 1) / p.after)
		tmp, err := s.alloc(cubSortPairsTemp(n, 8, 8, bits), "cub sort temp storage", "cub::DeviceRadixSort::SortPairs temp storage (onesweep histograms, lookback, alternate keys and values)")
		if err != nil {
			return err
		}
		s.free(tmp)
		s.free(rng)
		s.free(orig)
		s.free(sorted)
		s.free(src)
	}
	// Locals go in reverse declaration order: expandedValue, then
	// linearIndex.
	s.free(contig)
	s.free(linear)
	return nil
}

// sortValue is what index_put_with_sort needs to know of the values: their
// element count, contiguity and element size.
type sortValue struct {
	numel, size int64
	contiguous  bool
}

// sortValueOf describes the values tensor v.
func sortValueOf(v *Tensor) sortValue {
	return sortValue{numel: v.Numel(), size: v.dtype.Size(), contiguous: v.IsContiguous()}
}
