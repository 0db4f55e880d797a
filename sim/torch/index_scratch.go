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
// (one int per 2^30-element chunk), cub::DeviceReduce::Sum's temp storage
// (nonzeroReduceTemp), the [count, mask.dim()] int64 output,
// cub::DeviceSelect's temp storage (nonzeroSelectTemp), then num_nonzeros
// freed — torch.nonzero's own sequence (ops_nonzero.go; measured on an H100
// for masks of 16 to 10^7 elements, q16). It returns the output's handle.
func (rt *Runtime) nonzeroScratch(s *scratch, mask *Tensor, count int64) (int, error) {
	n := mask.Numel()
	chunks := int64(1)
	if n >= 1<<31-1 {
		chunks = (n + 1<<30 - 1) / (1 << 30)
	}
	num, err := s.alloc(4*chunks, "nonzero count", "nonzero's device count of true elements")
	if err != nil {
		return -1, err
	}
	red, err := s.alloc(nonzeroReduceTemp(n), "cub reduce temp storage", "cub::DeviceReduce::Sum's temp storage counting nonzero's true elements")
	if err != nil {
		return -1, err
	}
	s.free(red)
	out, err := s.alloc(count*int64(max(mask.Dim(), 1))*8, "nonzero indices", "nonzero's [count, dims] int64 indices of a boolean mask index")
	if err != nil {
		return -1, err
	}
	sel, err := s.alloc(nonzeroSelectTemp(max(n, 1)), "cub select temp storage", "cub::DeviceSelect::Flagged's tile states selecting nonzero's indices")
	if err != nil {
		return -1, err
	}
	s.free(sel)
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
// (IndexBackward0: accumulate, unsafe): linearSortScratch with one index.
// It runs between the zero-filled gradient's allocation and its kernel.
func (rt *Runtime) indexPutSortScratch(self *Tensor, d int, idx, value *Tensor) error {
	return rt.linearSortScratch(self, []AdvIndex{{Dim: d, Idx: idx}}, sortValueOf(value), false)
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
