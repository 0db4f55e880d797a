package torch

// F.pixel_shuffle / F.pixel_unshuffle (PyTorch 2.11 on CUDA: the math
// implementation, reshape → permute → clone(contiguous) → view, so one
// contiguous output whatever the input's layout; measured in q18).
// PixelShuffleBackward0 is pixel_unshuffle(grad) and the reverse, one
// allocation each.

// PixelShuffle is F.pixel_shuffle(x, r) (unshuffle false) or
// F.pixel_unshuffle(x, r) (unshuffle true).
func (rt *Runtime) PixelShuffle(x *Tensor, r int64, unshuffle bool) (*Tensor, error) {
	name := "pixel_shuffle"
	if unshuffle {
		name = "pixel_unshuffle"
	}
	nd := len(x.shape)
	if nd < 3 {
		return nil, Errorf(RuntimeError, "%s expects input to have at least 3 dimensions, but got input with %d dimension(s)", name, nd)
	}
	what := "upscale_factor"
	if unshuffle {
		what = "downscale_factor"
	}
	if r <= 0 {
		return nil, Errorf(RuntimeError, "%s expects a positive %s, but got %d", name, what, r)
	}
	shape := cloneShape(x.shape)
	c, h, w := x.shape[nd-3], x.shape[nd-2], x.shape[nd-1]
	if unshuffle {
		if h%r != 0 {
			return nil, Errorf(RuntimeError, "pixel_unshuffle expects height to be divisible by downscale_factor, but input.size(-2)=%d is not divisible by %d", h, r)
		}
		if w%r != 0 {
			return nil, Errorf(RuntimeError, "pixel_unshuffle expects width to be divisible by downscale_factor, but input.size(-1)=%d is not divisible by %d", w, r)
		}
		shape[nd-3], shape[nd-2], shape[nd-1] = c*r*r, h/r, w/r
	} else {
		if c%(r*r) != 0 {
			return nil, Errorf(RuntimeError, "pixel_shuffle expects its input's 'channel' dimension to be divisible by the square of upscale_factor, but input.size(-3)=%d is not divisible by %d", c, r*r)
		}
		shape[nd-3], shape[nd-2], shape[nd-1] = c/(r*r), h*r, w*r
	}
	out, err := rt.empty(name, shape, nil, x.dtype, x.device)
	if err != nil {
		return nil, err
	}
	node := "PixelShuffleBackward0"
	if unshuffle {
		node = "PixelUnshuffleBackward0"
	}
	n := rt.record(node, x)
	n.finish(func(_ *Node, g []*Tensor) ([]*Tensor, error) {
		res, err := rt.PixelShuffle(g[0], r, !unshuffle)
		return []*Tensor{res}, err
	}, out)
	return out, nil
}
