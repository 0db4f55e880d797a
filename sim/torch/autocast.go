package torch

// autocastState is torch.autocast's state for CUDA: whether it is on, the
// lower-precision dtype, and the cast cache (casts of leaf tensors that
// require grad, kept until the outermost autocast region exits).
type autocastState struct {
	enabled  bool
	dtype    DType
	depth    int
	cache    map[*Tensor]*Tensor
	order    []*Tensor
	cacheOff bool
}

// SetAutocast enables or disables CUDA autocast with dtype (Float16 or
// BFloat16) and returns the previous (enabled, dtype).
func (rt *Runtime) SetAutocast(on bool, dt DType) (bool, DType) {
	pe, pd := rt.autocast.enabled, rt.autocast.dtype
	rt.autocast.enabled, rt.autocast.dtype = on, dt
	return pe, pd
}

// AutocastEnabled is torch.is_autocast_enabled().
func (rt *Runtime) AutocastEnabled() bool { return rt.autocast.enabled }

// AutocastDType is the current autocast dtype.
func (rt *Runtime) AutocastDType() DType {
	if rt.autocast.dtype == 0 && !rt.autocast.enabled {
		return Float16
	}
	return rt.autocast.dtype
}

// AutocastEnter/AutocastExit track nesting (torch.autocast_increment_nesting).
func (rt *Runtime) AutocastEnter() { rt.autocast.depth++ }

// AutocastExit leaves an autocast region; leaving the outermost one clears
// the cast cache (torch.clear_autocast_cache()).
func (rt *Runtime) AutocastExit() {
	rt.autocast.depth--
	if rt.autocast.depth <= 0 {
		rt.autocast.depth = 0
		rt.ClearAutocastCache()
	}
}

// ClearAutocastCache drops the cached casts.
func (rt *Runtime) ClearAutocastCache() {
	order := rt.autocast.order
	cache := rt.autocast.cache
	rt.autocast.order, rt.autocast.cache = nil, nil
	for _, k := range order {
		if v := cache[k]; v != nil {
			v.Release()
			k.Release()
		}
	}
}

// cachedCast is at::autocast::cached_cast: a floating CUDA tensor of
// another dtype is cast to dt; casts of fp32 leaves requiring grad are
// cached. Returns a new reference.
func (rt *Runtime) cachedCast(dt DType, t *Tensor) (*Tensor, error) {
	if t == nil {
		return nil, nil
	}
	if !t.device.IsCUDA() || !t.dtype.IsFloating() || t.dtype == Float64 || t.dtype == dt {
		return t.Retain(), nil
	}
	canCache := dt == rt.autocast.dtype && t.dtype == Float32 && t.RequiresGrad() && t.IsLeaf() && !t.isView && !rt.autocast.cacheOff
	if canCache {
		if c := rt.autocast.cache[t]; c != nil {
			return c.Retain(), nil
		}
	}
	c, err := rt.To(t, dt, t.device, false)
	if err != nil {
		return nil, err
	}
	if canCache {
		if rt.autocast.cache == nil {
			rt.autocast.cache = map[*Tensor]*Tensor{}
		}
		rt.autocast.cache[t] = c.Retain()
		rt.autocast.order = append(rt.autocast.order, t.Retain())
	}
	return c, nil
}

// autocastArgs casts the arguments of an op on autocast's lower-precision
// list. release (non-nil when casting happened) drops the casts.
func (rt *Runtime) autocastArgs(op string, ts ...*Tensor) (*Tensor, *Tensor, *Tensor, func(), error) {
	if !rt.autocast.enabled || rt.autocast.depth < 0 {
		return pick(ts, 0), pick(ts, 1), pick(ts, 2), nil, nil
	}
	anyCUDA := false
	for _, t := range ts {
		if t != nil && t.device.IsCUDA() {
			anyCUDA = true
		}
	}
	if !anyCUDA {
		return pick(ts, 0), pick(ts, 1), pick(ts, 2), nil, nil
	}
	// at::autocast's wrappers call op(cached_cast(a), cached_cast(b), ...):
	// GCC evaluates the arguments right to left, so the last one is cast
	// first (visible in allocation order and in the casts' sequence numbers,
	// which order the backward)
	out := make([]*Tensor, len(ts))
	for i := len(ts) - 1; i >= 0; i-- {
		t := ts[i]
		c, err := rt.cachedCast(rt.autocast.dtype, t)
		if err != nil {
			releaseAll(out)
			return nil, nil, nil, nil, err
		}
		out[i] = c
	}
	// the op runs with autocast excluded (no re-casting inside)
	rt.autocast.enabled = false
	return pick(out, 0), pick(out, 1), pick(out, 2), func() {
		rt.autocast.enabled = true
		releaseAll(out)
	}, nil
}

// autocastFP32 casts lower-precision CUDA arguments to float32 for ops on
// autocast's fp32 list (mse_loss, softmax, log_softmax, layer_norm...).
func (rt *Runtime) autocastFP32(ts ...*Tensor) ([]*Tensor, func(), error) {
	if !rt.autocast.enabled {
		return ts, nil, nil
	}
	out := make([]*Tensor, len(ts))
	for i, t := range ts {
		if t == nil {
			continue
		}
		if t.device.IsCUDA() && (t.dtype == Float16 || t.dtype == BFloat16) {
			c, err := rt.To(t, Float32, t.device, false)
			if err != nil {
				releaseAll(out)
				return nil, nil, err
			}
			out[i] = c
		} else {
			out[i] = t.Retain()
		}
	}
	rt.autocast.enabled = false
	return out, func() {
		rt.autocast.enabled = true
		releaseAll(out)
	}, nil
}

func pick(ts []*Tensor, i int) *Tensor {
	if i < len(ts) {
		return ts[i]
	}
	return nil
}

// LowerPrecision2 runs op, a two-tensor op on autocast's lower-precision
// CUDA list (matmul, mm, bmm), as at::autocast's wrapper does: the
// arguments cast to the autocast dtype (right to left), op run with autocast
// excluded, the casts dropped after (those op saved for backward live on).
// Without autocast it is op(a, b).
func (rt *Runtime) LowerPrecision2(name string, op func(a, b *Tensor) (*Tensor, error), a, b *Tensor) (*Tensor, error) {
	a, b, _, release, err := rt.autocastArgs(name, a, b)
	if err != nil {
		return nil, err
	}
	if release != nil {
		defer release()
	}
	return op(a, b)
}

// LowerPrecision3 is LowerPrecision2 for three-tensor ops (addmm).
func (rt *Runtime) LowerPrecision3(name string, op func(a, b, c *Tensor) (*Tensor, error), a, b, c *Tensor) (*Tensor, error) {
	a, b, c, release, err := rt.autocastArgs(name, a, b, c)
	if err != nil {
		return nil, err
	}
	if release != nil {
		defer release()
	}
	return op(a, b, c)
}

// FP32 runs op, an op on autocast's fp32 list (exp, log, pow, rsqrt,
// reciprocal…), as at::autocast's fp32 policy does: float16/bfloat16 CUDA
// arguments cast to float32, op run with autocast excluded, the casts
// dropped after (those op saved for backward live on). Without autocast it
// is op(ts...).
func (rt *Runtime) FP32(op func(ts ...*Tensor) (*Tensor, error), ts ...*Tensor) (*Tensor, error) {
	in, release, err := rt.autocastFP32(ts...)
	if err != nil {
		return nil, err
	}
	if release != nil {
		defer release()
	}
	return op(in...)
}

// AutocastOptDType is at::autocast's fp32_set_opt_dtype policy (sum,
// softmax, cumsum…): under autocast an op whose first argument is a CUDA
// floating tensor other than float64 and that was given no dtype runs with
// dtype float32. Otherwise dt is returned unchanged.
func (rt *Runtime) AutocastOptDType(x *Tensor, dt *DType) *DType {
	if dt != nil || !rt.autocast.enabled || x == nil || !x.device.IsCUDA() || !x.dtype.IsFloating() || x.dtype == Float64 {
		return dt
	}
	f := Float32
	return &f
}
