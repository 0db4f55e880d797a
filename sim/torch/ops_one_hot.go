package torch

// OneHot is F.one_hot(idx, numClasses) on a device (PyTorch 2.11): int64
// zeros of shape idx.shape + [numClasses] and scatter_(-1,
// idx.unsqueeze(-1), 1), one allocation (q18). numClasses -1 means
// max(idx) + 1: the 8-byte max is allocated, read back (.item()) and
// freed first; without values (the simulator) that size is unknown, so
// it is an error there.
func (rt *Runtime) OneHot(idx *Tensor, numClasses int64) (*Tensor, error) {
	if idx.dtype != Int64 {
		return nil, Errorf(RuntimeError, "one_hot is only applicable to index tensor of type LongTensor.")
	}
	if idx.Numel() == 0 {
		if numClasses <= 0 {
			return nil, Errorf(RuntimeError, "Can not infer total number of classes from empty tensor.")
		}
	} else if numClasses == -1 {
		m, err := rt.empty("max", []int64{}, nil, Int64, idx.device)
		if err != nil {
			return nil, err
		}
		m.Release()
		vals, err := rt.Values(idx)
		if err != nil || rt.exec == nil {
			return nil, Errorf(NotImplementedError, "F.one_hot(num_classes=-1) is not simulated: its output size depends on the values (pass num_classes)")
		}
		mx := int64(0)
		for _, v := range vals {
			mx = max(mx, int64(v))
		}
		numClasses = mx + 1
	} else if numClasses < 1 {
		return nil, Errorf(RuntimeError, "num_classes should be positive")
	}
	shape := append(cloneShape(idx.shape), numClasses)
	return rt.Factory("zeros", shape, Int64, idx.device, false)
}
