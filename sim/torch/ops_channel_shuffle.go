package torch

// F.channel_shuffle / F.native_channel_shuffle (PyTorch 2.11,
// ChanelShuffle.cpp). channel_shuffle has its own autograd formula
// (ChannelShuffleBackward0: channel_shuffle(grad, C / groups)); on CUDA its
// kernel is math_channel_shuffle below autograd: view, permute, contiguous
// (the one allocation), reshape — a contiguous output whatever the input's
// layout (q22: a channels_last input gives a contiguous output, one
// allocation). native_channel_shuffle is the same composition with autograd
// (ViewBackward0 > CloneBackward0 > PermuteBackward0 > ViewBackward0).

// channelShuffleCheck is channel_shuffle's argument checks.
func channelShuffleCheck(x *Tensor, groups int64) error {
	if x.Dim() <= 2 {
		return Errorf(RuntimeError, "channel_shuffle expects input with > 2 dims, but got input with sizes %s", shapeList(x.shape))
	}
	if groups <= 0 {
		return Errorf(RuntimeError, "Number of groups to divide channels in must be positive. Value of groups:%d", groups)
	}
	if x.shape[1]%groups != 0 {
		return Errorf(RuntimeError, "Number of channels must be divisible by groups. Got %d channels and %d groups.", x.shape[1], groups)
	}
	return nil
}

// ChannelShuffle is F.channel_shuffle(x, groups).
func (rt *Runtime) ChannelShuffle(x *Tensor, groups int64) (*Tensor, error) {
	if err := channelShuffleCheck(x, groups); err != nil {
		return nil, err
	}
	if x.Numel() == 0 {
		return rt.View(x, x.shape)
	}
	out, err := rt.empty("channel_shuffle", x.shape, nil, x.dtype, x.device)
	if err != nil {
		return nil, err
	}
	c := x.shape[1]
	n := rt.record("ChannelShuffleBackward0", x)
	n.finish(func(_ *Node, g []*Tensor) ([]*Tensor, error) {
		r, err := rt.ChannelShuffle(g[0], c/groups)
		return []*Tensor{r}, err
	}, out)
	return out, nil
}

// NativeChannelShuffle is F.native_channel_shuffle(x, groups): the
// composite math_channel_shuffle.
func (rt *Runtime) NativeChannelShuffle(x *Tensor, groups int64) (*Tensor, error) {
	if err := channelShuffleCheck(x, groups); err != nil {
		return nil, err
	}
	b, c := x.shape[0], x.shape[1]
	rest := int64(1)
	for _, s := range x.shape[2:] {
		rest *= s
	}
	v, err := rt.View(x, []int64{b, groups, c / groups, rest})
	if err != nil {
		return nil, err
	}
	defer v.Release()
	p, err := rt.Permute(v, []int64{0, 2, 1, 3})
	if err != nil {
		return nil, err
	}
	defer p.Release()
	cc, err := rt.Contiguous(p)
	if err != nil {
		return nil, err
	}
	defer cc.Release()
	r, err := rt.Reshape(cc, x.shape)
	if err != nil {
		return nil, err
	}
	defer r.Release()
	return rt.ContiguousFormat(r, suggestMemoryFormat(x))
}
