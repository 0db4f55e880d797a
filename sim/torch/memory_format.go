package torch

// Memory formats (at::MemoryFormat): the dimension order of a dense
// tensor's strides. channels_last stores a 4-d [N, C, H, W] tensor as
// NHWC (C innermost), channels_last_3d a 5-d [N, C, D, H, W] one as NDHWC.
// PyTorch keeps no format flag on a tensor: it derives one from the
// strides (suggest_memory_format), so formats here are computed the same
// way from shape and strides.

// MemoryFormat is a torch.memory_format.
type MemoryFormat uint8

const (
	// PreserveFormat keeps the input's dimension order
	// (torch.preserve_format).
	PreserveFormat MemoryFormat = iota
	// ContiguousFormat is row-major (torch.contiguous_format).
	ContiguousFormat
	// ChannelsLast is NHWC for 4-d tensors (torch.channels_last).
	ChannelsLast
	// ChannelsLast3d is NDHWC for 5-d tensors (torch.channels_last_3d).
	ChannelsLast3d
)

// MemoryFormatNamed maps torch.<name> to a MemoryFormat (ok false for an
// unknown name).
func MemoryFormatNamed(name string) (MemoryFormat, bool) {
	switch name {
	case "preserve_format":
		return PreserveFormat, true
	case "contiguous_format":
		return ContiguousFormat, true
	case "channels_last":
		return ChannelsLast, true
	case "channels_last_3d":
		return ChannelsLast3d, true
	}
	return 0, false
}

// clOrder is the channels-last dimension order, innermost first, of an
// nd-dimensional tensor (nil unless nd is 4 or 5).
func clOrder(nd int) []int {
	switch nd {
	case 4:
		return []int{1, 3, 2, 0}
	case 5:
		return []int{1, 4, 3, 2, 0}
	}
	return nil
}

// channelsLastStrides is get_channels_last_strides_{2,3}d: dense strides
// of shape in NHWC (NDHWC) order.
func channelsLastStrides(shape []int64) []int64 {
	order := clOrder(len(shape))
	st := make([]int64, len(shape))
	acc := int64(1)
	for _, d := range order {
		st[d] = acc
		s := shape[d]
		if s < 1 {
			s = 1
		}
		acc *= s
	}
	return st
}

// stridesLikeChannelsLast is is_channels_last_strides_{2,3}d (the
// TensorImpl flags behind suggest_memory_format): strides ascending in
// channels-last order, with the ambiguous cases (C stride 0, N111-like
// tensors) resolved to contiguous as PyTorch does.
func stridesLikeChannelsLast(shape, strides []int64) bool {
	order := clOrder(len(shape))
	if order == nil || strides[1] == 0 {
		return false
	}
	minS := int64(0)
	for _, d := range order {
		if shape[d] == 0 || strides[d] < minS {
			return false
		}
		if d == 0 && minS == strides[1] {
			return false
		}
		minS = strides[d]
		if shape[d] > 1 {
			minS *= shape[d]
		}
	}
	return true
}

// suggestMemoryFormat is TensorBase::suggest_memory_format(): the format
// ops such as convolution and batch norm give their outputs.
func suggestMemoryFormat(t *Tensor) MemoryFormat {
	if !stridesLikeChannelsLast(t.shape, t.strides) {
		return ContiguousFormat
	}
	if len(t.shape) == 5 {
		return ChannelsLast3d
	}
	return ChannelsLast
}

// SuggestMemoryFormat is suggest_memory_format() (ContiguousFormat or a
// channels-last format).
func (t *Tensor) SuggestMemoryFormat() MemoryFormat { return suggestMemoryFormat(t) }

// IsContiguousIn is is_contiguous(memory_format=mf): row-major for
// contiguous/preserve, NHWC (NDHWC) order for the channels-last formats,
// which only 4-d (5-d) tensors can be.
func (t *Tensor) IsContiguousIn(mf MemoryFormat) bool {
	switch mf {
	case ChannelsLast:
		return len(t.shape) == 4 && isChannelsLastContiguous(t.shape, t.strides)
	case ChannelsLast3d:
		return len(t.shape) == 5 && isChannelsLastContiguous(t.shape, t.strides)
	}
	return t.IsContiguous()
}

// formatStrides are the strides of a new tensor of shape in format mf
// (at::empty(..., memory_format)); PreserveFormat follows like when it is
// non-overlapping and dense, else like's suggested format (empty_like).
func formatStrides(shape []int64, mf MemoryFormat, like *Tensor) ([]int64, error) {
	if mf == PreserveFormat {
		if like == nil {
			return contiguousStrides(shape), nil
		}
		if isNonOverlappingAndDense(like.shape, like.strides) {
			return stridesLike(like.shape, like.strides), nil
		}
		mf = suggestMemoryFormat(like)
	}
	switch mf {
	case ChannelsLast:
		if len(shape) != 4 {
			return nil, Errorf(RuntimeError, "required rank 4 tensor to use channels_last format")
		}
		return channelsLastStrides(shape), nil
	case ChannelsLast3d:
		if len(shape) != 5 {
			return nil, Errorf(RuntimeError, "required rank 5 tensor to use channels_last_3d format")
		}
		return channelsLastStrides(shape), nil
	}
	return contiguousStrides(shape), nil
}

// formatStridesOf is formatStrides for a contiguous or channels-last
// format that fits shape's rank (row-major strides otherwise).
func formatStridesOf(shape []int64, mf MemoryFormat) []int64 {
	if (mf == ChannelsLast && len(shape) == 4) || (mf == ChannelsLast3d && len(shape) == 5) {
		return channelsLastStrides(shape)
	}
	return contiguousStrides(shape)
}
