package torch

// Python integers beyond 2^53 (float64 rounds them) reach the executor
// exactly in ExecOp.Ints for the in-place forms too: fill_(v) and t[i] = v
// (ExecFill), += / -= / *= by a number (ExecAffine), and arange over int64
// (ExecArange: Ints = [start, step]). Values only: the memory behaviour is
// that of the float paths.

// InplaceFillExact is fill_(v) of an integer tensor with a Python integer
// v: InplaceUnaryInit with an ExecFill that carries v exactly.
func (rt *Runtime) InplaceFillExact(op string, t *Tensor, v int64) (*Tensor, error) {
	return rt.inplaceUnaryInit(op, t, ExecFill, []float64{float64(v)}, []int64{v})
}

// inplaceIntValues computes a += s, a -= s and a *= s of an integer tensor
// and a Python integer exactly (numberValues' ExecAffine with Ints); it
// reports false for the other ops, scalars and dtypes.
func (rt *Runtime) inplaceIntValues(op string, a *Tensor, s Scalar, alpha float64) bool {
	if !a.dtype.IsIntegral(false) || s.Kind != ScalarInt || alpha != 1 {
		return false
	}
	switch op {
	case "add":
		rt.numberValues(ExecAffine, a, a, Int(1), s)
	case "sub":
		rt.numberValues(ExecAffine, a, a, Int(1), negScalar(s))
	case "mul":
		rt.numberValues(ExecAffine, a, a, s, Int(0))
	default:
		return false
	}
	return true
}

// IndexPutNumberExact is IndexPutValues of the Python integer v (t[idx] =
// v, no values tensor) into an integer tensor: ExecIndexPut's Ints carry v
// exactly after (dim, accumulate).
func (rt *Runtime) IndexPutNumberExact(dst *Tensor, d int, idx *Tensor, v int64) {
	rt.indexPutValues(dst, d, idx, nil, float64(v), &v, false)
}

// IndexPutMultiExact is IndexPutMulti of the Python integer v with several
// index tensors, in place (dst[i, j] = v): ExecIndexNPut's Ints carry v
// exactly (has values = 2, v last).
func (rt *Runtime) IndexPutMultiExact(dst *Tensor, advs []AdvIndex, v int64) (*Tensor, error) {
	return rt.indexPutMulti(dst, advs, nil, float64(v), &v, false, true)
}
