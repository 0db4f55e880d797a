package torch

// sumproductPair is ATen's sumproduct_pair(left, right, sum_dims,
// keepdim=true), einsum's pairwise contraction: (left*right).sum(sum_dims)
// computed as permute → reshape → bmm → view → permute. Both operands have
// the same number of dims (size 1 where a label is missing).
func (rt *Runtime) sumproductPair(left, right *Tensor, sumDims []int64) (*Tensor, error) {
	if len(left.shape) != len(right.shape) {
		return nil, Errorf(RuntimeError, "number of dimensions must match")
	}
	if len(sumDims) == 0 {
		return rt.Mul(left, right)
	}
	dim := len(left.shape)
	isSum := make([]bool, dim)
	for _, d := range sumDims {
		isSum[d] = true
	}
	l, r := left.Retain(), right.Retain()
	defer func() { l.Release(); r.Release() }()
	var lro, lo, ro []int64
	lroSize, loSize, roSize, sumSize := int64(1), int64(1), int64(1), int64(1)
	for i := 0; i < dim; i++ {
		sl, sr := l.shape[i] != 1, r.shape[i] != 1
		switch {
		case isSum[i]:
			switch {
			case sl && sr:
				if l.shape[i] != r.shape[i] {
					return nil, Errorf(RuntimeError, "non-broadcast dimensions must match")
				}
				sumSize *= l.shape[i]
			case sl:
				s, err := rt.Sum(l, []int64{int64(i)}, true, nil)
				if err != nil {
					return nil, err
				}
				l.Release()
				l = s
			case sr:
				s, err := rt.Sum(r, []int64{int64(i)}, true, nil)
				if err != nil {
					return nil, err
				}
				r.Release()
				r = s
			}
		case sl && sr:
			if l.shape[i] != r.shape[i] {
				return nil, Errorf(RuntimeError, "non-broadcast dimensions must match")
			}
			lro = append(lro, int64(i))
			lroSize *= l.shape[i]
		case sl:
			lo = append(lo, int64(i))
			loSize *= l.shape[i]
		default:
			ro = append(ro, int64(i))
			roSize *= r.shape[i]
		}
	}
	var outSize []int64
	for _, d := range lro {
		outSize = append(outSize, l.shape[d])
	}
	for _, d := range lo {
		outSize = append(outSize, l.shape[d])
	}
	for range sumDims {
		outSize = append(outSize, 1)
	}
	for _, d := range ro {
		outSize = append(outSize, r.shape[d])
	}
	cat := func(parts ...[]int64) []int64 {
		var out []int64
		for _, p := range parts {
			out = append(out, p...)
		}
		return out
	}
	lperm := cat(lro, lo, sumDims, ro)
	rperm := cat(lro, sumDims, ro, lo)
	operm := make([]int64, len(outSize))
	for i, d := range cat(lro, lo, sumDims, ro) {
		operm[d] = int64(i)
	}
	lm, err := rt.permuteReshape(l, lperm, []int64{lroSize, loSize, sumSize})
	if err != nil {
		return nil, err
	}
	defer lm.Release()
	rm, err := rt.permuteReshape(r, rperm, []int64{lroSize, sumSize, roSize})
	if err != nil {
		return nil, err
	}
	defer rm.Release()
	prod, err := rt.Bmm(lm, rm)
	if err != nil {
		return nil, err
	}
	defer prod.Release()
	v, err := rt.View(prod, outSize)
	if err != nil {
		return nil, err
	}
	defer v.Release()
	return rt.Permute(v, operm)
}

// permuteReshape is t.permute(perm).reshape(shape).
func (rt *Runtime) permuteReshape(t *Tensor, perm, shape []int64) (*Tensor, error) {
	p, err := rt.Permute(t, perm)
	if err != nil {
		return nil, err
	}
	defer p.Release()
	return rt.Reshape(p, shape)
}
