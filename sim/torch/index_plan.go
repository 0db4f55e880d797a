package torch

import "strings"

// Several index tensors in one key (x[i, j], x[:, i, j], x[i, :, j],
// x[mask, j]): the plan PyTorch 2.11's make_info and makeLinearIndex
// (TensorAdvancedIndexing.cpp, IndexingUtils.h, cuda/Indexing.cu) build
// from them. A bool mask over k dims becomes k index entries (the columns
// of its nonzero), all indices broadcast together, and the result's
// indexed dims replace the indexed dims in place when those are adjacent,
// else go first (transposeToFront).

// AdvIndex is one index tensor of an advanced-indexing key: Idx indexes
// the dims of the tensor from Dim on (one dim; a bool or byte mask as many
// as it has).
type AdvIndex struct {
	Dim int
	Idx *Tensor
}

// idxEntry is one indexed dim after expandTensors: the index's shape and
// strides (a mask's column: [count], stride k), its dtype and whether it
// lives on the indexed tensor's device; src is its AdvIndex.
type idxEntry struct {
	dim             int
	shape, strides  []int64
	dtype           DType
	onDevice        bool
	src             int
	mask            bool
	maskCols, count int64
}

// indexPlan is the outcome of planning self[advs]: the entries, their
// broadcast shape, whether the indexed dims are adjacent, the result's
// shape and, for the linear index, the elements before and after them.
type indexPlan struct {
	entries          []idxEntry
	bshape           []int64
	adjacent         bool
	result           []int64
	before, after    int64
	first, last      int
	permutedNotDense bool
}

// checkAdvIndices raises PyTorch's errors for index tensors: their dtype,
// device and, for masks, their shape against the indexed dims.
func checkAdvIndices(self *Tensor, advs []AdvIndex) error {
	for _, a := range advs {
		idx := a.Idx
		switch idx.dtype {
		case Int64, Int32, Bool, Uint8:
		default:
			return Errorf(IndexError, "tensors used as indices must be long, int, byte or bool tensors")
		}
		if idx.device != self.device && idx.device.Type != CPU {
			return Errorf(RuntimeError, "indices should be either on cpu or on the same device as the indexed tensor (%s)", self.device)
		}
		k := 1
		if isMask(idx) {
			k = len(idx.shape)
		}
		if a.Dim+k > len(self.shape) {
			return Errorf(IndexError, "too many indices for tensor of dimension %d", len(self.shape))
		}
		if isMask(idx) {
			for j, s := range idx.shape {
				if s != self.shape[a.Dim+j] {
					return Errorf(IndexError, "The shape of the mask %s at index %d does not match the shape of the indexed tensor %s at index %d", shapeList(idx.shape), j, shapeList(self.shape), a.Dim+j)
				}
			}
		}
	}
	return nil
}

// planIndex builds the plan of self[advs] (advs in increasing dims).
func (rt *Runtime) planIndex(self *Tensor, advs []AdvIndex) (*indexPlan, error) {
	if err := checkAdvIndices(self, advs); err != nil {
		return nil, err
	}
	p := &indexPlan{}
	for s, a := range advs {
		idx := a.Idx
		on := idx.device == self.device
		if isMask(idx) {
			k := int64(max(len(idx.shape), 1))
			count := rt.maskCount(idx)
			for j := range len(idx.shape) {
				p.entries = append(p.entries, idxEntry{dim: a.Dim + j, shape: []int64{count}, strides: []int64{k}, dtype: Int64, onDevice: on, src: s, mask: true, maskCols: k, count: count})
			}
			continue
		}
		p.entries = append(p.entries, idxEntry{dim: a.Dim, shape: cloneShape(idx.shape), strides: cloneShape(idx.strides), dtype: idx.dtype, onDevice: on, src: s})
	}
	shapes := make([][]int64, len(p.entries))
	for i, e := range p.entries {
		shapes[i] = e.shape
	}
	b, err := broadcastShapes(shapes...)
	if err != nil {
		parts := make([]string, len(shapes))
		for i, s := range shapes {
			parts[i] = shapeList(s)
		}
		return nil, Errorf(IndexError, "shape mismatch: indexing tensors could not be broadcast together with shapes %s", strings.Join(parts, ", "))
	}
	p.bshape = b
	if len(p.entries) == 0 {
		return p, nil
	}
	p.first, p.last = p.entries[0].dim, p.entries[len(p.entries)-1].dim
	p.adjacent = p.last-p.first+1 == len(p.entries)
	p.before, p.after = 1, 1
	indexed := make(map[int]bool, len(p.entries))
	for _, e := range p.entries {
		indexed[e.dim] = true
	}
	if p.adjacent {
		p.result = append(append(cloneShape(self.shape[:p.first]), b...), self.shape[p.last+1:]...)
		p.before = numel(self.shape[:p.first])
		p.after = numel(self.shape[p.last+1:])
		return p, nil
	}
	// transposeToFront: the indexed dims first, the others after in order.
	p.result = cloneShape(b)
	var pshape, pstrides []int64
	for _, e := range p.entries {
		pshape = append(pshape, self.shape[e.dim])
		pstrides = append(pstrides, self.strides[e.dim])
	}
	for d, s := range self.shape {
		if !indexed[d] {
			p.result = append(p.result, s)
			p.after *= s
			pshape = append(pshape, s)
			pstrides = append(pstrides, self.strides[d])
		}
	}
	p.permutedNotDense = !isContiguous(pshape, pstrides)
	return p, nil
}

// expandedStrides is entry e's strides broadcast to shape b (expand:
// broadcast dims get stride 0).
func (e *idxEntry) expandedStrides(b []int64) []int64 {
	st := make([]int64, len(b))
	off := len(b) - len(e.shape)
	for i := range b {
		j := i - off
		if j >= 0 && e.shape[j] == b[i] {
			st[i] = e.strides[j]
		}
	}
	return st
}

func sameStrides(a, b []int64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// makeInfoScratch takes make_info's index temporaries for self[plan] on
// CUDA, held until the kernel ran (s.release): expandTensors with
// ensure_same_device (a device mask's nonzero, a host mask's indices or a
// host index copied to the device, at their own shapes), int32 indices
// widened to int64 at the broadcast shape (the int32 device copy freed),
// then AdvancedIndex's rule for CUDA: with two or more indices whose
// strides differ, every index not contiguous is made contiguous; the
// device copies no index refers to any more are then freed (measured on an
// H200, q038).
func (rt *Runtime) makeInfoScratch(s *scratch, self *Tensor, advs []AdvIndex, p *indexPlan) error {
	if !self.device.IsCUDA() {
		return nil
	}
	holder := make([]int, len(advs)) // device copy or nonzero of advs[i]
	for i, a := range advs {
		holder[i] = -1
		idx := a.Idx
		switch {
		case isMask(idx) && idx.device == self.device:
			h, err := rt.nonzeroScratch(s, idx, rt.maskCount(idx))
			if err != nil {
				return err
			}
			holder[i] = h
		case isMask(idx):
			h, err := s.alloc(rt.maskCount(idx)*int64(max(idx.Dim(), 1))*8, "mask indices", "nonzero of a host mask index, copied to the device")
			if err != nil {
				return err
			}
			holder[i] = h
		case idx.device != self.device:
			h, err := s.alloc(idx.Numel()*idx.dtype.Size(), "index copy", "an index tensor on another device, copied to the indexed tensor's")
			if err != nil {
				return err
			}
			holder[i] = h
		}
	}
	n := numel(p.bshape)
	strides := make([][]int64, len(p.entries))
	for k := range p.entries {
		e := &p.entries[k]
		strides[k] = e.expandedStrides(p.bshape)
		if e.dtype == Int32 {
			// indice.to(kLong) of the broadcast view: a contiguous copy;
			// the int32 device copy it replaces is freed.
			if _, err := s.alloc(n*8, "int64 index", "an int32 index widened to int64"); err != nil {
				return err
			}
			strides[k] = contiguousStrides(p.bshape)
			s.free(holder[e.src])
			holder[e.src] = -1
		}
	}
	if len(p.entries) < 2 {
		return nil
	}
	match := true
	for k := 1; k < len(strides); k++ {
		if !sameStrides(strides[k], strides[0]) {
			match = false
		}
	}
	if match {
		return nil
	}
	alive := make([]int, len(advs))
	for k := range p.entries {
		e := &p.entries[k]
		if isContiguous(p.bshape, strides[k]) {
			alive[e.src]++
			continue
		}
		if _, err := s.alloc(n*8, "contiguous index", "AdvancedIndex makes every index contiguous when their strides differ (CUDA)"); err != nil {
			return err
		}
	}
	for i := range advs {
		if alive[i] == 0 {
			s.free(holder[i])
		}
	}
	return nil
}
