package torch

// NestedMaskLeftAligned is torch._nested_tensor_from_mask_left_aligned(t,
// mask) (NestedTensorMath.cpp, PyTorch 2.11), which nn.TransformerEncoder
// runs in eval mode to decide its nested-tensor fast path:
//
//	tmp_pad = zeros({N, 1}, bool)
//	nums = cat({mask, tmp_pad}, 1).to(kInt).argmin(1)   (the cat and the
//	                                                     int32 copy die)
//	sizes = mask.cumsum(1).select(1, -1)                 (int64 result, then
//	                                                     cumsum's int64 copy
//	                                                     of the mask, freed)
//	return nums.equal(sizes)                             (eq, all: freed)
//
// then the locals nums, tmp_pad, sizes die. Measured allocation by
// allocation in q19_transformer_losses. The answer depends on the mask's
// values: without them (the simulator) the mask is taken as left-aligned
// (padding at the end, what padding masks usually are); reduction scratch
// of large masks is not modelled.
func (rt *Runtime) NestedMaskLeftAligned(t, mask *Tensor) (bool, error) {
	if mask.dtype != Bool {
		return false, Errorf(RuntimeError, "Expected mask to be of type Bool, but got %s", mask.dtype.cppName())
	}
	if len(mask.shape) != 2 {
		return false, Errorf(RuntimeError, "Padding mask should be 2D")
	}
	if len(t.shape) != 3 || t.shape[0] != mask.shape[0] || t.shape[1] != mask.shape[1] {
		return false, Errorf(RuntimeError, "the first two dimensions of the input must match the mask's")
	}
	n, s := mask.shape[0], mask.shape[1]
	var locals, tmps []*Tensor
	defer func() {
		releaseNewestFirst(tmps)
		releaseNewestFirst(locals)
	}()
	alloc := func(list *[]*Tensor, shape []int64, dt DType) error {
		x, err := rt.empty("_nested_tensor_from_mask_left_aligned", shape, nil, dt, mask.device)
		if err == nil {
			*list = append(*list, x)
		}
		return err
	}
	steps := []struct {
		list  *[]*Tensor
		shape []int64
		dt    DType
		done  bool // the statement ends: its temporaries die
	}{
		{&locals, []int64{n, 1}, Bool, true},     // tmp_pad
		{&tmps, []int64{n, s + 1}, Bool, false},  // cat
		{&tmps, []int64{n, s + 1}, Int32, false}, // .to(kInt)
		{&locals, []int64{n}, Int64, true},       // argmin(1): nums
		{&locals, []int64{n, s}, Int64, false},   // cumsum(1): sizes
		{&tmps, []int64{n, s}, Int64, true},      // cumsum's int64 copy
		{&tmps, []int64{n}, Bool, false},         // equal: eq
		{&tmps, nil, Bool, true},                 // all
	}
	for _, st := range steps {
		if err := alloc(st.list, st.shape, st.dt); err != nil {
			return false, err
		}
		if st.done {
			releaseNewestFirst(tmps)
			tmps = nil
		}
	}
	// locals die in reverse order of declaration (sizes, tmp_pad, nums):
	// nums, tmp_pad, then sizes
	locals = []*Tensor{locals[2], locals[0], locals[1]}
	return true, nil
}

// releaseNewestFirst releases ts from the last to the first.
func releaseNewestFirst(ts []*Tensor) {
	for i := len(ts) - 1; i >= 0; i-- {
		ts[i].Release()
	}
}
