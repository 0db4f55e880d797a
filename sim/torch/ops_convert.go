package torch

// To is Tensor.to(dtype, device, copy): the same tensor (a new reference)
// when nothing changes, else a copy (_to_copy, ToCopyBackward0).
func (rt *Runtime) To(t *Tensor, dt DType, dev Device, copy bool) (*Tensor, error) {
	return rt.ToFormat(t, dt, dev, copy, PreserveFormat)
}

// ToFormat is Tensor.to(dtype, device, copy, memory_format=mf): the same
// tensor when nothing changes (to_will_alias: mf is preserve_format or the
// tensor's suggested format), else a copy in format mf (_to_copy).
func (rt *Runtime) ToFormat(t *Tensor, dt DType, dev Device, copy bool, mf MemoryFormat) (*Tensor, error) {
	dev = dev.Concrete()
	if !copy && dt == t.dtype && dev == t.device && (mf == PreserveFormat || suggestMemoryFormat(t) == mf) {
		return t.Retain(), nil
	}
	strides, err := formatStrides(t.shape, mf, t)
	if err != nil {
		return nil, err
	}
	out, err := rt.empty("to", t.shape, strides, dt, dev)
	if err != nil {
		return nil, err
	}
	if rt.exec != nil {
		rt.compute1(ExecCopy, out, []*Tensor{t})
	}
	if !dt.Differentiable() {
		return out, nil
	}
	n := rt.record("ToCopyBackward0", t)
	srcDT, srcDev := t.dtype, t.device
	n.finish(func(n *Node, g []*Tensor) ([]*Tensor, error) {
		r, err := rt.To(g[0], srcDT, srcDev, false)
		return []*Tensor{r}, err
	}, out)
	return out, nil
}

// toDType converts without autograd bookkeeping beyond To's.
func (rt *Runtime) toDType(t *Tensor, dt DType) (*Tensor, error) {
	return rt.To(t, dt, t.device, false)
}

// Clone is torch.clone (preserve_format; CloneBackward0).
func (rt *Runtime) Clone(t *Tensor) (*Tensor, error) {
	return rt.CloneFormat(t, PreserveFormat)
}

// CloneFormat is torch.clone(memory_format=mf) (CloneBackward0).
func (rt *Runtime) CloneFormat(t *Tensor, mf MemoryFormat) (*Tensor, error) {
	strides, err := formatStrides(t.shape, mf, t)
	if err != nil {
		return nil, err
	}
	out, err := rt.empty("clone", t.shape, strides, t.dtype, t.device)
	if err != nil {
		return nil, err
	}
	if rt.exec != nil {
		rt.compute1(ExecCopy, out, []*Tensor{t})
	}
	n := rt.record("CloneBackward0", t)
	n.finish(passThrough, out)
	return out, nil
}

// cloneContiguous is clone(memory_format=contiguous) without history.
func (rt *Runtime) cloneContiguous(t *Tensor) (*Tensor, error) {
	out, err := rt.empty("clone", t.shape, nil, t.dtype, t.device)
	if err == nil && rt.exec != nil {
		rt.compute1(ExecCopy, out, []*Tensor{t})
	}
	return out, err
}

// Contiguous is Tensor.contiguous(): t itself if already contiguous, else a
// copy (CloneBackward0).
func (rt *Runtime) Contiguous(t *Tensor) (*Tensor, error) {
	return rt.ContiguousFormat(t, ContiguousFormat)
}

// ContiguousFormat is Tensor.contiguous(memory_format=mf): t itself if
// already contiguous in mf, else a copy in mf (CloneBackward0).
// preserve_format is refused as PyTorch refuses it.
func (rt *Runtime) ContiguousFormat(t *Tensor, mf MemoryFormat) (*Tensor, error) {
	if mf == PreserveFormat {
		return nil, Errorf(RuntimeError, "preserve memory format is unsupported by the contiguous operator")
	}
	if t.IsContiguousIn(mf) {
		return t.Retain(), nil
	}
	strides, err := formatStrides(t.shape, mf, t)
	if err != nil {
		return nil, err
	}
	out, err := rt.empty("contiguous", t.shape, strides, t.dtype, t.device)
	if err != nil {
		return nil, err
	}
	if rt.exec != nil {
		rt.compute1(ExecCopy, out, []*Tensor{t})
	}
	n := rt.record("CloneBackward0", t)
	n.finish(passThrough, out)
	return out, nil
}

// Detach is Tensor.detach(): an alias without history.
func (rt *Runtime) Detach(t *Tensor) *Tensor { return t.detachAlias() }

// detachAlias makes a new TensorImpl sharing storage and version counter.
func (t *Tensor) detachAlias() *Tensor {
	t.storage.retain()
	d := t.rt.newTensorOn(t.storage, cloneShape(t.shape), cloneShape(t.strides), t.offset, t.dtype)
	d.version = t.version
	// not an autograd view: detach's as_view is neither backward- nor
	// forward-differentiable, so _is_view() is False (and an nn.Parameter,
	// made by detaching its data, is a leaf whose autocast casts are cached)
	return d
}

// DetachInplace is Tensor.detach_().
func (rt *Runtime) DetachInplace(t *Tensor) (*Tensor, error) {
	if t.isView && t.base != nil {
		return nil, Errorf(RuntimeError, "Can't detach views in-place. Use detach() instead. If you are using DistributedDataParallel (DDP) for training, and gradient_as_bucket_view is set as True, gradients are views of DDP buckets, and hence detach_() cannot be called on these gradients. To fix this error, please refer to the Optimizer.zero_grad() function in torch/optim/optimizer.py as the solution.")
	}
	if fn := t.gradFn; fn != nil {
		t.gradFn = nil
		fn.release()
	}
	t.requiresGrad = false
	return t.Retain(), nil
}

// SetData is `t.data = other`: t takes other's storage and metadata (the
// previous storage is released now), keeping its autograd identity.
func (rt *Runtime) SetData(t, other *Tensor) error {
	if t.dtype != other.dtype && t.requiresGrad && !other.dtype.Differentiable() {
		return Errorf(RuntimeError, "data set to a tensor that requires gradients must be floating point or complex dtype")
	}
	other.storage.retain()
	old := t.storage
	t.storage = other.storage
	t.shape, t.strides, t.offset = cloneShape(other.shape), cloneShape(other.strides), other.offset
	t.dtype, t.device = other.dtype, other.device
	if t.name != "" && t.storage.block != nil {
		t.storage.relabel(old.label)
	}
	old.release()
	// the grad accumulator's metadata follows the new data
	if t.gradAcc != nil {
		t.gradAcc.inputs[0] = inputMeta{cloneShape(t.shape), t.dtype, t.device}
	}
	return nil
}

// Data is Tensor.data: a detached alias.
func (rt *Runtime) Data(t *Tensor) *Tensor { return t.detachAlias() }
