package torch

// PinMemory is Tensor.pin_memory() (aten/src/ATen/native/Memory.cpp
// _pin_memory): a CPU tensor already pinned is returned as is; otherwise a
// new page-locked host storage of the same size gets a copy with the same
// strides. Host memory is not part of the CUDA allocator's statistics, so it
// records no event. CUDA tensors cannot be pinned.
func (rt *Runtime) PinMemory(t *Tensor) (*Tensor, error) {
	if t.device.IsCUDA() {
		return nil, Errorf(RuntimeError, "cannot pin '%s' only dense CPU tensors can be pinned", t.typeString())
	}
	if t.IsPinned() {
		return t.Retain(), nil
	}
	out, err := rt.empty("pin_memory", t.shape, stridesLike(t.shape, t.strides), t.dtype, t.device)
	if err != nil {
		return nil, err
	}
	out.storage.pinned = true
	if rt.exec != nil {
		rt.compute1(ExecCopy, out, []*Tensor{t})
	}
	n := rt.record("PinMemoryBackward0", t)
	n.finish(passThrough, out)
	return out, nil
}

// IsPinned is Tensor.is_pinned(): whether t lives in page-locked host memory.
func (t *Tensor) IsPinned() bool { return t.storage != nil && t.storage.pinned }
