package torch

// FeatureDropout is torch.feature_dropout / feature_dropout_ (F.dropout1d/
// 2d/3d after their dimension handling), ATen's _dropout_impl with
// feature_dropout: nothing when p is 0, not training or the input is empty
// (the input itself); for p = 1 the input times a zero-dim zeros tensor;
// otherwise a noise tensor of shape (N, C, 1, ...) (new_empty), filled by
// bernoulli_(1 - p) and div_(1 - p) in place, and input.mul(noise) (or
// mul_). MulBackward0 keeps the noise (other) for self's gradient.
func (rt *Runtime) FeatureDropout(x *Tensor, p float64, train, inplace bool) (*Tensor, error) {
	if p < 0 || p > 1 {
		return nil, Errorf(RuntimeError, "dropout probability has to be between 0 and 1, but got %v", p)
	}
	if p == 0 || !train || x.Numel() == 0 {
		return x.Retain(), nil
	}
	var noise *Tensor
	if p == 1 {
		z, err := rt.empty("zeros", nil, nil, x.dtype, x.device)
		if err != nil {
			return nil, err
		}
		if rt.exec != nil {
			rt.compute1(ExecFill, z, nil, 0)
		}
		noise = z
	} else {
		if len(x.shape) < 2 {
			return nil, Errorf(RuntimeError, "Feature dropout requires at least 2 dimensions in the input")
		}
		shape := make([]int64, len(x.shape))
		for i := range shape {
			shape[i] = 1
		}
		shape[0], shape[1] = x.shape[0], x.shape[1]
		n, err := rt.empty("feature_dropout", shape, nil, x.dtype, x.device)
		if err != nil {
			return nil, err
		}
		if rt.exec != nil {
			rt.compute(ExecBernoulli, []*Tensor{n}, nil, []float64{1 - p}, genInts(nil))
		}
		noise = n
		if _, err := rt.InplaceBinary("div", noise, nil, Float(1-p), 1); err != nil {
			noise.Release()
			return nil, err
		}
		noise.Release() // InplaceBinary's reference
	}
	defer noise.Release()
	if inplace {
		return rt.InplaceBinary("mul", x, noise, Scalar{}, 1)
	}
	return rt.Mul(x, noise)
}
