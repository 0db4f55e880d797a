package torch

// searchsorted and bucketize (Bucketization.cu, BucketizationUtils.h): no
// autograd, an int64 (out_int32: int32) output of the values' shape,
// allocated first; then the kernel's inputs are made contiguous and
// converted to their common dtype (searchsorted_maybe_trim_input_tensors:
// values copy, boundaries copy, sorter copy, then the dtype conversions),
// freed when the op returns.

// SearchsortedArgs are searchsorted's options.
type SearchsortedArgs struct {
	OutInt32 bool
	Right    bool
	Side     string // "" unset, else "left"/"right"
	Sorter   *Tensor
}

// Searchsorted is torch.searchsorted(boundaries, values, ...).
func (rt *Runtime) Searchsorted(bounds, values *Tensor, a SearchsortedArgs) (*Tensor, error) {
	return rt.searchsorted(bounds, values, a, nil)
}

// SearchsortedScalar is torch.searchsorted(boundaries, number):
// searchsorted_scalar_tensor makes a 0-dim double (int: long) tensor on
// the boundaries' device, a wrapped number for type promotion.
func (rt *Runtime) SearchsortedScalar(bounds *Tensor, v Scalar, a SearchsortedArgs) (*Tensor, error) {
	t, err := rt.scalarOn(v, bounds.device)
	if err != nil {
		return nil, err
	}
	defer t.Release()
	k := v.Kind
	return rt.searchsorted(bounds, t, a, &k)
}

// BucketizeScalar is torch.bucketize(number, boundaries).
func (rt *Runtime) BucketizeScalar(v Scalar, bounds *Tensor, outInt32, right bool) (*Tensor, error) {
	if len(bounds.shape) != 1 {
		return nil, Errorf(RuntimeError, "boundaries tensor must be 1 dimension, but got dim(%d)", len(bounds.shape))
	}
	return rt.SearchsortedScalar(bounds, v, SearchsortedArgs{OutInt32: outInt32, Right: right})
}

// scalarOn is c10::scalar_to_tensor(v, dev): a 0-dim double, long or bool.
func (rt *Runtime) scalarOn(v Scalar, dev Device) (*Tensor, error) {
	dt := Float64
	switch v.Kind {
	case ScalarInt:
		dt = Int64
	case ScalarBool:
		dt = Bool
	}
	t, err := rt.empty("scalar_tensor", nil, nil, dt, dev)
	if err == nil {
		rt.Init(t, ExecFill, v.Value())
	}
	return t, err
}

// searchsorted is Searchsorted; wrapped is the Python number's kind when
// values is a wrapped number.
func (rt *Runtime) searchsorted(bounds, values *Tensor, a SearchsortedArgs, wrapped *ScalarKind) (*Tensor, error) {
	if err := checkSearchsorted(bounds, values, a); err != nil {
		return nil, err
	}
	if s := a.Sorter; s != nil && s.Numel() > 0 {
		// the sorter's range check: aminmax's two 0-dim results, read on
		// the host (measured, q21)
		lo, err := rt.empty("aminmax", nil, nil, s.dtype, s.device)
		if err != nil {
			return nil, err
		}
		hi, err := rt.empty("aminmax", nil, nil, s.dtype, s.device)
		lo.Release()
		if err != nil {
			return nil, err
		}
		hi.Release()
	}
	dt := Int64
	if a.OutInt32 {
		dt = Int32
	}
	out, err := rt.empty("searchsorted", values.shape, nil, dt, values.device)
	if err != nil {
		return nil, err
	}
	rt.notComputed(out)
	if values.Numel() == 0 {
		return out, nil
	}
	s := &scratch{rt: rt}
	defer s.release()
	common := ResultType([]*Tensor{bounds, values}, nil)
	if wrapped != nil {
		common = ResultType([]*Tensor{bounds}, []ScalarKind{*wrapped})
	}
	copyOf := func(t *Tensor, what string) error {
		_, err := s.alloc(t.Numel()*t.dtype.Size(), what+" copy", "searchsorted: the "+what+" made contiguous")
		return err
	}
	if !values.IsContiguous() {
		if err := copyOf(values, "input"); err != nil {
			out.Release()
			return nil, err
		}
	}
	if !bounds.IsContiguous() {
		if err := copyOf(bounds, "boundaries"); err != nil {
			out.Release()
			return nil, err
		}
	}
	if a.Sorter != nil && !a.Sorter.IsContiguous() {
		if err := copyOf(a.Sorter, "sorter"); err != nil {
			out.Release()
			return nil, err
		}
	}
	for _, t := range []*Tensor{values, bounds} {
		if t.dtype == common {
			continue
		}
		if _, err := s.alloc(t.Numel()*common.Size(), "dtype conversion", "searchsorted: input and boundaries converted to their common dtype"); err != nil {
			out.Release()
			return nil, err
		}
	}
	return out, nil
}

// Bucketize is torch.bucketize(values, boundaries, ...): searchsorted with
// 1-d boundaries.
func (rt *Runtime) Bucketize(values, bounds *Tensor, outInt32, right bool) (*Tensor, error) {
	if len(bounds.shape) != 1 {
		return nil, Errorf(RuntimeError, "boundaries tensor must be 1 dimension, but got dim(%d)", len(bounds.shape))
	}
	return rt.Searchsorted(bounds, values, SearchsortedArgs{OutInt32: outInt32, Right: right})
}

// checkSearchsorted is searchsorted_pre_check.
func checkSearchsorted(b, v *Tensor, a SearchsortedArgs) error {
	if b.device != v.device {
		return Errorf(RuntimeError, "torch.searchsorted(): boundaries and input value tensors should have same device type, but got boundaries tensor device type %s and input value tensor device type %s", b.device.TypeName(), v.device.TypeName())
	}
	if s := a.Sorter; s != nil {
		if s.device != b.device {
			return Errorf(RuntimeError, "torch.searchsorted(): sorter and boundary tensors should have same device type, but got sorter tensor device type %s and input value tensor device type %s", s.device.TypeName(), b.device.TypeName())
		}
		if !sameShape(s.shape, b.shape) {
			return Errorf(RuntimeError, "torch.searchsorted(): boundary and sorter must have the same size, but got boundary tensor %s and got sorter tensor %s", shapeList(b.shape), shapeList(s.shape))
		}
		if s.dtype != Int64 {
			return Errorf(RuntimeError, "torch.searchsorted(): sorter must be a tensor of long dtype but got dtype %s", s.dtype.cppName())
		}
	}
	if !(len(v.shape) > 0 || (v.Numel() == 1 && len(b.shape) == 1)) {
		return Errorf(RuntimeError, "torch.searchsorted(): input value can be a scalar only when boundaries tensor dimension is 1, but we got boundaries tensor dim(%d) and input value's dim(%d) numel(%d)", len(b.shape), len(v.shape), v.Numel())
	}
	if len(b.shape) == 0 {
		return Errorf(RuntimeError, "torch.searchsorted(): boundaries tensor should have positive dimension, but got 0 dimension")
	}
	if len(b.shape) != 1 && !(len(b.shape) == len(v.shape) && sameShape(b.shape[:len(b.shape)-1], v.shape[:len(v.shape)-1])) {
		return Errorf(RuntimeError, "torch.searchsorted(): boundaries tensor should be 1 dimension or the first N-1 dimensions of boundaries tensor and input value tensor must match, but we got boundaries tensor %s and input value tensor %s", shapeList(b.shape), shapeList(v.shape))
	}
	if a.Side != "" {
		if a.Side != "left" && a.Side != "right" {
			return Errorf(RuntimeError, "torch.searchsorted(): side can only be 'left' or 'right' but got %s", a.Side)
		}
		if a.Right && a.Side != "right" {
			return Errorf(RuntimeError, "torch.searchsorted(): side and right can't be set to opposites, got side of %s while right was True", a.Side)
		}
	}
	return nil
}
