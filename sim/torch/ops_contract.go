package torch

// tensordot, outer and dot (aten/src/ATen/native/Linear.cpp and
// LinearAlgebra.cpp, PyTorch 2.11), composite like einsum: their memory
// and grad_fns are those of the ops they call.

// Tensordot is torch.tensordot(a, b, dims=(dimsA, dimsB)): broadcast
// (size-1) contracted dims are summed first, then both operands are
// permuted and reshaped to matrices, multiplied with mm, and the product
// reshaped to the result (a view: ViewBackward0).
func (rt *Runtime) Tensordot(a, b *Tensor, dimsA, dimsB []int64) (*Tensor, error) {
	if len(dimsA) != len(dimsB) {
		return nil, Errorf(RuntimeError, "both dimension lists should have same length")
	}
	if a.dtype != b.dtype {
		return nil, Errorf(RuntimeError, "both inputs should have same dtype")
	}
	da, err := wrapDims(dimsA, len(a.shape))
	if err != nil {
		return nil, err
	}
	db, err := wrapDims(dimsB, len(b.shape))
	if err != nil {
		return nil, err
	}
	t1, t2 := a.Retain(), b.Retain()
	defer func() { t1.Release(); t2.Release() }()
	csize := int64(1)
	for i := range da {
		s1, s2 := a.shape[da[i]], b.shape[db[i]]
		switch {
		case s2 == 1:
			s, err := rt.Sum(t1, []int64{da[i]}, true, nil)
			if err != nil {
				return nil, err
			}
			t1.Release()
			t1 = s
		case s1 == 1:
			s, err := rt.Sum(t2, []int64{db[i]}, true, nil)
			if err != nil {
				return nil, err
			}
			t2.Release()
			t2 = s
		default:
			if s1 != s2 {
				return nil, Errorf(RuntimeError, "contracted dimensions need to match, but first has size %d in dim %d and second has size %d in dim %d", s1, dimsA[i], s2, dimsB[i])
			}
			csize *= s1
		}
	}
	in := func(ds []int64, d int64) bool {
		for _, x := range ds {
			if x == d {
				return true
			}
		}
		return false
	}
	var p1, p2, rsizes []int64
	size1, size2 := int64(1), int64(1)
	for i := range a.shape {
		if !in(da, int64(i)) {
			p1 = append(p1, int64(i))
			size1 *= t1.shape[i]
			rsizes = append(rsizes, t1.shape[i])
		}
	}
	p1 = append(p1, da...)
	p2 = append(p2, db...)
	for i := range b.shape {
		if !in(db, int64(i)) {
			p2 = append(p2, int64(i))
			size2 *= t2.shape[i]
			rsizes = append(rsizes, t2.shape[i])
		}
	}
	m1, err := rt.permuteReshape(t1, p1, []int64{size1, csize})
	if err != nil {
		return nil, err
	}
	defer m1.Release()
	m2, err := rt.permuteReshape(t2, p2, []int64{csize, size2})
	if err != nil {
		return nil, err
	}
	defer m2.Release()
	m, err := rt.Mm(m1, m2)
	if err != nil {
		return nil, err
	}
	defer m.Release()
	if rsizes == nil {
		rsizes = []int64{}
	}
	return rt.Reshape(m, rsizes)
}

// wrapDims wraps each dim of ds for an ndim-dimensional tensor.
func wrapDims(ds []int64, ndim int) ([]int64, error) {
	out := make([]int64, len(ds))
	for i, d := range ds {
		w, err := WrapDim(d, max(ndim, 1))
		if err != nil {
			return nil, err
		}
		out[i] = w
	}
	return out, nil
}

// Outer is torch.outer/ger: self.reshape({n, 1}) * vec2 (MulBackward0).
func (rt *Runtime) Outer(a, b *Tensor) (*Tensor, error) {
	for _, x := range []struct {
		name string
		t    *Tensor
	}{{"self", a}, {"vec2", b}} {
		if len(x.t.shape) != 1 {
			return nil, Errorf(RuntimeError, "outer: Expected 1-D argument %s, but got %d-D", x.name, len(x.t.shape))
		}
	}
	col, err := rt.Reshape(a, []int64{a.shape[0], 1})
	if err != nil {
		return nil, err
	}
	defer col.Release()
	return rt.Mul(col, b)
}

// Dot is torch.dot/vdot of two 1-D tensors (DotBackward0/VdotBackward0):
// a 0-dim result and the cuBLAS workspace.
func (rt *Runtime) Dot(op string, a, b *Tensor) (*Tensor, error) {
	if len(a.shape) != 1 || len(b.shape) != 1 {
		return nil, Errorf(RuntimeError, "1D tensors expected, but got %dD and %dD tensors", len(a.shape), len(b.shape))
	}
	if a.dtype != b.dtype {
		return nil, Errorf(RuntimeError, "%s : expected both vectors to have same dtype, but found %s and %s", op, a.dtype.cppName(), b.dtype.cppName())
	}
	if a.shape[0] != b.shape[0] {
		return nil, Errorf(RuntimeError, "inconsistent tensor size, expected tensor [%d] and src [%d] to have the same number of elements, but got %d and %d elements respectively", a.shape[0], b.shape[0], a.shape[0], b.shape[0])
	}
	out, err := rt.Matmul(a, b)
	if err == nil && op == "vdot" && out.gradFn != nil {
		out.gradFn.name = "VdotBackward0"
	}
	return out, err
}
