package torch

// commonDevice is the device of an op over tensors: the device of the
// tensors that are not zero-dim CPU scalars.
func commonDevice(op string, ts ...*Tensor) (Device, error) {
	var dev Device
	found := false
	for _, t := range ts {
		if t == nil {
			continue
		}
		if t.device.Type == CPU && len(t.shape) == 0 {
			continue
		}
		if !found {
			dev, found = t.device, true
			continue
		}
		if t.device != dev {
			return Device{}, Errorf(RuntimeError, "Expected all tensors to be on the same device, but found at least two devices, %s and %s!", dev, t.device)
		}
	}
	if !found {
		for _, t := range ts {
			if t != nil {
				return t.device, nil
			}
		}
		return CPUDevice, nil
	}
	return dev, nil
}

// pointwiseOut allocates the output of an elementwise op over ins (a
// TensorIterator output): the broadcast shape, laid out like the first input
// that already has that shape, on the common device.
func (rt *Runtime) pointwiseOut(op string, dt DType, ins ...*Tensor) (*Tensor, error) {
	shapes := make([][]int64, 0, len(ins))
	for _, t := range ins {
		if t != nil {
			shapes = append(shapes, t.shape)
		}
	}
	shape, err := broadcastShapes(shapes...)
	if err != nil {
		return nil, err
	}
	dev, err := commonDevice(op, ins...)
	if err != nil {
		return nil, err
	}
	var strides []int64
	for _, t := range ins {
		if t != nil && sameShape(t.shape, shape) {
			strides = stridesLike(t.shape, t.strides)
			break
		}
	}
	return rt.empty(op, shape, strides, dt, dev)
}

// unaryOut allocates an output like x with dtype dt.
func (rt *Runtime) unaryOut(op string, x *Tensor, dt DType) (*Tensor, error) {
	return rt.empty(op, x.shape, stridesLike(x.shape, x.strides), dt, x.device)
}

// wrapScalar makes the zero-dim CPU tensor PyTorch wraps a Python number in.
func (rt *Runtime) wrapScalar(s Scalar) *Tensor {
	st := &Storage{rt: rt, refs: 1, device: CPUDevice, nbytes: 8}
	t := rt.newTensorOn(st, nil, nil, 0, s.Kind.dtype())
	if s.Kind == ScalarInt {
		t.dtype = Int64
	}
	if rt.exec != nil {
		rt.compute1(ExecValues, t, nil, s.Value())
	}
	return t
}
