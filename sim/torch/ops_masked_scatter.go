package torch

// MaskedScatter is masked_scatter/masked_scatter_(mask, source)
// (MaskedScatterBackward0 saving the mask). Out of place (composite):
// self and mask expanded to their broadcast shape, self cloned contiguous,
// then the in-place op, whose CUDA kernel takes the mask's prefix sum and
// copies (maskedScatterScratch). self's gradient is grad.masked_fill(mask,
// 0); source's is masked_scatter_backward: grad.masked_select(mask), padded
// with zeros to source's numel, viewed as source. Without values the
// selected count is taken as source's numel when the mask could select
// that many (every source element used, as in a LLaVA-style merge).
func (rt *Runtime) MaskedScatter(x, mask, src *Tensor, inplace bool) (*Tensor, error) {
	if x.dtype != src.dtype {
		return nil, Errorf(RuntimeError, "masked_scatter_: expected self and source to have same dtypes but got %s and %s", x.dtype.cppName(), src.dtype.cppName())
	}
	if mask.dtype != Bool {
		return nil, Errorf(RuntimeError, "masked_scatter_ only supports boolean masks, but got mask with dtype %s", mask.dtype.typeMetaName())
	}
	if _, err := commonDevice("masked_scatter", x, mask, src); err != nil {
		return nil, err
	}
	var out *Tensor
	if inplace {
		if !expandable(mask.shape, x.shape) {
			return nil, Errorf(RuntimeError, "The expanded size of the tensor (%d) must match the existing size (%d) at non-singleton dimension %d.  Target sizes: %s.  Tensor sizes: %s",
				lastOr(x.shape), lastOr(mask.shape), max(len(x.shape)-1, 0), shapeList(x.shape), shapeList(mask.shape))
		}
		if err := rt.inplace(x); err != nil {
			return nil, err
		}
		out = x.Retain()
	} else {
		shape, err := broadcastShapes(mask.shape, x.shape)
		if err != nil {
			return nil, err
		}
		if out, err = rt.empty("masked_scatter", shape, nil, x.dtype, x.device); err != nil {
			return nil, err
		}
	}
	if out.Numel() > 0 && out.device.IsCUDA() {
		if err := rt.maskedScatterScratch(out.shape, mask, src); err != nil {
			out.Release()
			return nil, err
		}
	}
	rt.notComputed(out)
	n := rt.record("MaskedScatterBackward0", x, src)
	if n != nil {
		n.save(mask, false)
	}
	srcShape := cloneShape(src.shape)
	fn := func(n *Node, g []*Tensor) ([]*Tensor, error) {
		m, err := n.unpack(0)
		if err != nil {
			return nil, err
		}
		defer m.Release()
		res := make(gradSlot, 2)
		if n.needsInput(0) {
			r, err := rt.maskedFillRaw(g[0], m)
			if err != nil {
				return res.fail(err)
			}
			res[0] = r
		}
		if n.needsInput(1) {
			r, err := rt.maskedScatterSourceGrad(g[0], m, srcShape)
			if err != nil {
				return res.fail(err)
			}
			res[1] = r
		}
		return res, nil
	}
	if inplace {
		n.rebase(fn, out)
	} else {
		n.finish(fn, out)
	}
	return out, nil
}

// maskedFillRaw is g.masked_fill(mask, 0) without history: one tensor of
// the broadcast shape.
func (rt *Runtime) maskedFillRaw(g, mask *Tensor) (*Tensor, error) {
	shape, err := broadcastShapes(mask.shape, g.shape)
	if err != nil {
		return nil, err
	}
	r, err := rt.empty("masked_fill", shape, nil, g.dtype, g.device)
	if err == nil {
		rt.notComputed(r)
	}
	return r, err
}

// maskedScatterSourceGrad is masked_scatter_backward(grad, mask, sizes).
func (rt *Runtime) maskedScatterSourceGrad(g, mask *Tensor, sizes []int64) (*Tensor, error) {
	want := numel(sizes)
	var sel *Tensor
	err := rt.noGrad(func() error {
		shape, err := broadcastShapes(g.shape, mask.shape)
		if err != nil {
			return err
		}
		m, err := rt.Expand(mask, shape)
		if err != nil {
			return err
		}
		defer m.Release()
		count := min(rt.nonzeroCount(m), want)
		idx, err := rt.nonzeroRaw(m, count)
		if err != nil {
			return err
		}
		defer idx.Release()
		sel, err = rt.empty("masked_select", []int64{count}, nil, g.dtype, g.device)
		return err
	})
	if err != nil {
		return nil, err
	}
	rt.notComputed(sel)
	if diff := want - sel.shape[0]; diff > 0 {
		z, err := rt.empty("zeros", []int64{diff}, nil, g.dtype, g.device)
		if err != nil {
			sel.Release()
			return nil, err
		}
		rt.Init(z, ExecFill, 0)
		c, err := rt.Cat([]*Tensor{sel, z}, 0)
		sel.Release()
		z.Release()
		if err != nil {
			return nil, err
		}
		sel = c
	}
	defer sel.Release()
	return rt.View(sel, sizes)
}

// typeMetaName is the dtype as caffe2::TypeMeta prints it ("float",
// "long int"): errors that print a tensor's dtype() rather than its
// scalar_type().
func (d DType) typeMetaName() string {
	switch d {
	case Float32:
		return "float"
	case Float64:
		return "double"
	case Float16:
		return "c10::Half"
	case BFloat16:
		return "c10::BFloat16"
	case Int64:
		return "long int"
	case Int32:
		return "int"
	case Int16:
		return "short int"
	case Int8:
		return "signed char"
	case Uint8:
		return "unsigned char"
	case Bool:
		return "bool"
	}
	return d.cppName()
}
