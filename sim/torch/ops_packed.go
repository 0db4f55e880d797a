package torch

// torch._pack_padded_sequence (ATen PackedSequence.cpp of PyTorch 2.11),
// what nn.utils.rnn.pack_padded_sequence calls. Below autograd, for each
// increase of the (sorted) lengths, read from the shortest: the block
// input[prev_l:l, :current_batch] is made contiguous (a copy unless the
// slice already is: the first block of a time-major input with every
// sequence present), then at::cat joins the blocks into data [T, *] and the
// copies die. The lengths are host values (a CPU int64 tensor in PyTorch),
// so the binding passes them as numbers. PackPaddedSequenceBackward0 saves
// the CPU batch sizes only; its backward is at::zeros of the (time-major)
// input size, one in-place copy per time step (no temporaries), and a
// transposed view for batch_first.

// PackPaddedSequence is torch._pack_padded_sequence(input, lengths,
// batch_first): data and the batch sizes (one per time step).
func (rt *Runtime) PackPaddedSequence(x *Tensor, lengths []int64, batchFirst bool) (*Tensor, []int64, error) {
	if x.Dim() < 2 {
		return nil, nil, Errorf(IndexError, "Dimension out of range (expected to be in range of [-%d, %d], but got 1)", max(x.Dim(), 1), max(x.Dim(), 1)-1)
	}
	in := x
	if batchFirst {
		t, err := rt.noGradView(func() (*Tensor, error) { return rt.Transpose(x, 0, 1) })
		if err != nil {
			return nil, nil, err
		}
		defer t.Release()
		in = t
	}
	B := in.shape[1]
	if x.Numel() == 0 {
		return nil, nil, Errorf(RuntimeError, "Cannot pack empty tensors.")
	}
	if int64(len(lengths)) != B {
		return nil, nil, Errorf(RuntimeError, "Expected `len(lengths)` to be equal to batch_size, but got %d (batch_size=%d)", len(lengths), B)
	}
	if lengths[B-1] <= 0 {
		return nil, nil, Errorf(RuntimeError, "Length of all samples has to be greater than 0, but found an element in 'lengths' that is <= 0")
	}
	for i := int64(0); i < B-1; i++ {
		if lengths[B-1-i] > lengths[B-2-i] {
			return nil, nil, Errorf(RuntimeError, "`lengths` array must be sorted in decreasing order when `enforce_sorted` is True. You can pass `enforce_sorted=False` to pack_padded_sequence and/or pack_sequence to sidestep this requirement if you do not need ONNX exportability.")
		}
	}
	stepShape := append([]int64{-1}, in.shape[2:]...)
	var steps []*Tensor
	defer func() { releaseAll(steps) }()
	var batchSizes []int64
	err := rt.noGrad(func() error {
		prev := int64(0)
		for i := int64(0); i < B; i++ {
			l := lengths[B-1-i]
			if l <= prev {
				continue
			}
			cur := B - i
			s, err := rt.packBlock(in, prev, l, cur, stepShape)
			if err != nil {
				return err
			}
			steps = append(steps, s)
			for j := prev; j < l; j++ {
				batchSizes = append(batchSizes, cur)
			}
			prev = l
		}
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	var data *Tensor
	if err := rt.noGrad(func() (err error) { data, err = rt.Cat(steps, 0); return err }); err != nil {
		return nil, nil, err
	}
	n := rt.record("PackPaddedSequenceBackward0", x)
	inSize, bs := cloneShape(x.shape), append([]int64(nil), batchSizes...)
	n.finish(func(_ *Node, g []*Tensor) ([]*Tensor, error) {
		r, err := rt.packPaddedBackward(g[0], inSize, bs, batchFirst)
		return []*Tensor{r}, err
	}, data)
	return data, batchSizes, nil
}

// packBlock is input.slice(0, from, to).slice(1, 0, batch).contiguous()
// .view(stepShape): a view when the block is contiguous, else a copy.
func (rt *Runtime) packBlock(in *Tensor, from, to, batch int64, stepShape []int64) (*Tensor, error) {
	a, err := rt.Slice(in, 0, from, to, 1, true, true)
	if err != nil {
		return nil, err
	}
	defer a.Release()
	b, err := rt.Slice(a, 1, 0, batch, 1, true, true)
	if err != nil {
		return nil, err
	}
	defer b.Release()
	c, err := rt.Contiguous(b)
	if err != nil {
		return nil, err
	}
	defer c.Release()
	return rt.View(c, stepShape)
}

// noGradView runs a view op with grad mode off.
func (rt *Runtime) noGradView(f func() (*Tensor, error)) (*Tensor, error) {
	var t *Tensor
	err := rt.noGrad(func() (err error) { t, err = f(); return err })
	return t, err
}

// packPaddedBackward is _pack_padded_sequence_backward: zeros of the
// time-major input size, each time step's rows copied in place, a
// transposed view for batch_first.
func (rt *Runtime) packPaddedBackward(g *Tensor, inSize, batchSizes []int64, batchFirst bool) (*Tensor, error) {
	size := cloneShape(inSize)
	if batchFirst {
		size[0], size[1] = size[1], size[0]
	}
	out, err := rt.empty("zeros", size, nil, g.dtype, g.device)
	if err != nil {
		return nil, err
	}
	rt.Init(out, ExecFill, 0)
	err = rt.noGrad(func() error {
		off := int64(0)
		for i, b := range batchSizes {
			if err := rt.packCopyStep(out, g, int64(i), off, b); err != nil {
				return err
			}
			off += b
		}
		return nil
	})
	if err != nil {
		out.Release()
		return nil, err
	}
	if !batchFirst {
		return out, nil
	}
	defer out.Release()
	return rt.noGradView(func() (*Tensor, error) { return rt.Transpose(out, 0, 1) })
}

// packCopyStep is grad_input[i].slice(0, 0, b).copy_(grad.slice(0, off, off+b)).
func (rt *Runtime) packCopyStep(out, g *Tensor, i, off, b int64) error {
	dst, err := rt.Select(out, 0, i)
	if err != nil {
		return err
	}
	defer dst.Release()
	d2, err := rt.Slice(dst, 0, 0, b, 1, true, true)
	if err != nil {
		return err
	}
	defer d2.Release()
	src, err := rt.Slice(g, 0, off, off+b, 1, true, true)
	if err != nil {
		return err
	}
	defer src.Release()
	r, err := rt.CopyInplace(d2, src)
	if err != nil {
		return err
	}
	r.Release()
	return nil
}
